"""One step of Taj Mahal on arrays: :class:`Rules` decodes the action, applies every
rule in the order the rules engine applies them (:mod:`tajmahal.tajmahal.rules`,
:mod:`tajmahal.tajmahal.draft`), each gated by a mask, and computes the legal actions
of the next state.  No Python branch looks at a traced value, so :func:`jax.jit` and
:func:`jax.vmap` take it as it is.

The order of a step:

1. a play (T3-T5), a withdrawal's majorities (W1-W3), a chosen palace (W4/W5) or a
   display card taken (W11);
2. after a withdrawal or a palace: the placements that leave no choice (W4/W5), the
   cards the step draws into the hand (bonus card tiles, W6; a seat that played
   nothing, W11), the province tile, palace score and discard (W7-W10), the
   display cards when no choice is left (W11);
3. at the end of a turn: the next seat still in, the dummy's card (D2/D3), the end of
   the visit (E1-E5) and of the game (F1).
"""

from __future__ import annotations

from typing import Final

import jax.numpy as jnp
import numpy as np
from jax import Array

from ...kit.encoding import zero_sum
from ..setups import display_size
from .bits import has, unpack
from .counting import next_in
from .draws import Deck, RandomDraws, ReplayDraws
from .state import State
from .tables import (
    BUILD_BASE,
    CARD_COLOR,
    COLORED,
    DEFAULT_TABLES,
    DISPLAY,
    EXTRA_SLOTS,
    HAND,
    MOGUL_BASE,
    MONK_CARD,
    NONE,
    NUM_ACTIONS,
    NUM_CARDS,
    PLAY_BASE,
    REGULAR,
    SLOT_EXTRA,
    TAKE_BASE,
    WITHDRAW_INDEX,
    BoardTables,
    table,
)
from .visits import dummy_turn, end_visit, play
from .withdrawal import (
    Draws,
    after_palaces,
    build,
    hand_draws,
    place_forced,
    take_display,
    take_rest,
    withdraw,
)

#: The action groups, in index order (kit encoding): play, withdraw, build, mogul, take.
_GROUPS: Final = np.array([WITHDRAW_INDEX, BUILD_BASE, MOGUL_BASE, TAKE_BASE], dtype=np.int32)
#: Each play's card, extra card (NUM_CARDS: none), the card's colour, and whether the
#: extra is the monk's card (T4: then any colour goes).
_PLAYS: Final = np.arange(WITHDRAW_INDEX - PLAY_BASE)
_PLAY_CARD: Final = _PLAYS // EXTRA_SLOTS
_PLAY_EXTRA: Final = SLOT_EXTRA[_PLAYS % EXTRA_SLOTS]
_PLAY_COLOR: Final = CARD_COLOR[_PLAY_CARD]
_PLAY_MONK: Final = _PLAY_EXTRA == MONK_CARD


def reward_table(players: int) -> np.ndarray:
    """Each seat's reward at the end, by how many seats share the first place and
    whether the seat is one of them: the kit's :func:`~tajmahal.kit.encoding.zero_sum`
    of such a result (``[winners - 1, is_winner]``), as float32."""
    table = np.zeros((players, 2), dtype=np.float32)
    for winners in range(1, players + 1):
        totals = [1] * winners + [0] * (players - winners)
        result = zero_sum(totals)
        table[winners - 1] = (result[-1] if winners < players else 0.0, result[0])
    return table


def _held(words: Array, cards: np.ndarray) -> Array:
    """Whether each of ``cards`` (constants; NUM_CARDS: none, counted as held) is in
    the set ``words``, with elementwise operations only."""
    word = np.minimum(cards // 32, 3)
    chosen = words[3]
    for w in (2, 1, 0):
        chosen = jnp.where(jnp.asarray(word == w), words[w], chosen)
    bit = (chosen >> jnp.asarray((cards % 32).astype(np.uint32))) & 1
    return (bit == 1) | jnp.asarray(cards >= NUM_CARDS)


class Rules:
    """Taj Mahal for ``players`` seats (2: the dummy variant, D1) on ``board``."""

    def __init__(
        self, players: int, board: BoardTables = DEFAULT_TABLES, replay: bool = False
    ) -> None:
        if not 2 <= players <= 5:
            raise ValueError(f"Taj Mahal is for 2-5 players, not {players}")
        self.players = players
        self.dummy = players == 2
        self.board = board
        self.display = display_size(players)
        self.hand_draws = max(board.most_fortresses, 1)
        self.rewards = reward_table(players)
        #: Where the cards a step draws come from (:mod:`.draws`), and the shape of
        #: its ``chance``: the first words for the hand, then the dummy's, the display's.
        self.draws: Draws = (
            ReplayDraws() if replay else RandomDraws(self.hand_draws + self.dummy + self.display)
        )

    # -- one step

    def step(self, s: State, action: Array, chance: Array) -> State:
        """The state after the seat to act takes ``action`` (legal: the caller checks);
        ``chance`` decides the cards it draws (:mod:`.draws`)."""
        a = action.astype(jnp.int32)
        seat = s.current_player
        group = jnp.searchsorted(jnp.asarray(_GROUPS), a, side="right")
        is_play, is_withdraw = group == 0, group == 1
        is_build, is_mogul, is_take = group == 2, group == 3, group == 4
        card = jnp.minimum(a // EXTRA_SLOTS, COLORED - 1)
        extra = jnp.asarray(SLOT_EXTRA)[a % EXTRA_SLOTS]
        city = jnp.where(is_build, a - BUILD_BASE, a - MOGUL_BASE)
        city = jnp.clip(city, 0, self.board.cities - 1)
        deck = Deck(s.piles, s.order, s.deck_top, s.reshuffles, jnp.int32(0))
        draws = self.draws

        # 1. the action itself
        s = play(s, seat, card, extra, is_play)
        s = withdraw(s, seat, is_withdraw, self.dummy)
        s, bonus_card = build(s, seat, city, is_mogul, is_build | is_mogul)
        s, taken_last = take_display(s, seat, jnp.clip(a - TAKE_BASE, 0, REGULAR - 1), is_take)

        # 2. what follows a withdrawal or a palace
        settling = is_withdraw | is_build | is_mogul
        s, forced_cards = place_forced(self.board, s, seat, settling)
        placed = settling & s.pending & (s.pend_palaces == 0) & ~s.pend_mogul
        no_play = placed & ~has(s.piles[table(self.players, seat)])  # W11: nothing played
        drawn = bonus_card.astype(jnp.int32) + forced_cards + no_play
        s, deck = hand_draws(draws, s, seat, drawn, self.hand_draws, chance, deck)
        s, empty_display = after_palaces(self.board, s, seat, placed)
        s, took_rest = take_rest(s, seat, placed)

        # 3. the end of a turn, the dummy, the end of the visit and of the game
        turn_over = taken_last | empty_display | took_rest
        nxt = next_in(s.withdrawn, seat)
        if self.dummy:
            turning = (is_play | turn_over) & s.dummy_bidding
            s, deck = dummy_turn(draws, s, turning, chance, self.hand_draws, deck)
        visit_over = turn_over & (nxt < 0)
        display_from = self.hand_draws + self.dummy
        s, game_over, deck = end_visit(
            draws, s, visit_over, self.dummy, self.display, chance, display_from, deck
        )
        s = s.replace(order=deck.order, deck_top=deck.top, reshuffles=deck.reshuffles)
        to_act = jnp.where(is_play | (turn_over & ~visit_over), nxt, seat)
        to_act = jnp.where(visit_over, s.start_player, to_act)
        to_act = jnp.where(game_over, -1, to_act)
        return self.finish(s.replace(current_player=to_act.astype(jnp.int32)), game_over)

    def finish(self, s: State, game_over: Array) -> State:
        """The Pgx fields of ``s``: the legal mask, the end and each seat's reward."""
        totals = jnp.sum(s.score, axis=1)
        best = totals == jnp.max(totals)
        winners = jnp.sum(best)
        rewards = jnp.asarray(self.rewards)[winners - 1][best.astype(jnp.int32)]
        return s.replace(
            legal_action_mask=self.legal_mask(s),
            terminated=s.terminated | game_over,
            rewards=jnp.where(game_over, rewards, 0.0).astype(jnp.float32),
        )

    # -- the legal actions

    def legal_mask(self, s: State) -> Array:
        """True exactly at the legal actions of the seat to act (kit encoding's
        indices; all False once the game is over)."""
        seat = jnp.maximum(s.current_player, 0)
        live = s.current_player >= 0
        words = s.piles[HAND + seat]
        mine = s.color[seat]
        playing = live & ~s.pending
        # T3/T4: play p is card _PLAY_CARD[p] with extra _PLAY_EXTRA[p] (100: none); a
        # card of another colour than the seat's goes only with the monk's card.  The
        # hand's bits are read in place (constant word and shift per play): no gather.
        color_ok = (mine < 0) | (jnp.asarray(_PLAY_COLOR) == mine) | jnp.asarray(_PLAY_MONK)
        plays = _held(words, _PLAY_CARD) & _held(words, _PLAY_EXTRA) & color_ok
        province = s.visit_provinces[s.visit - 1]
        here = jnp.asarray(self.board.city_province) == province
        placing = live & s.pending & ((s.pend_palaces > 0) | s.pend_mogul)
        builds = here & (s.palaces == NONE) & placing & (s.pend_palaces > 0)
        moguls = here & (s.moguls == NONE) & placing & s.pend_mogul
        takes = unpack(s.piles[DISPLAY])[:REGULAR] & live & s.pending & ~placing
        mask = jnp.concatenate([plays & playing, playing[None], builds, moguls, takes])
        assert mask.shape == (NUM_ACTIONS,)
        return mask
