"""Taj Mahal for OpenSpiel: ``import tajmahal.openspiel`` registers ``python_tajmahal``.

>>> import pyspiel
>>> import tajmahal.openspiel
>>> game = pyspiel.load_game("python_tajmahal", {"players": 3})
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(3, 1623, 96)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())   # who starts
(True, 3)

A sequential game of imperfect information with explicit chance nodes
(``docs/research.md`` explains the model):

- the setup: the start player, the province tiles (one node per province), the
  bonus tiles (one node per fortress) and the deal, one card at a time: each
  seat's six cards, then the display;
- every later draw from the deck, one card at a time: a card won with a bonus
  tile (W6), the card of a seat that withdraws without playing (W11), the
  dummy's cards (D2) and each new display (E4).  The deck is unordered until a
  card is drawn from it; when it runs out, the discard pile becomes the deck
  (W12) and the draws continue from it.  A seat's action that draws is applied
  once the chance nodes after it have chosen the cards.

Player actions are the indices of :mod:`tajmahal.tajmahal.encoding`.  Returns come at the
end: :func:`tajmahal.tajmahal.encoding.outcome` (+1 for a lone winner, ``-1/(n-1)`` for
each other seat; zero-sum).  The observation (string and tensor) is the seat's
current view; the information state is the seat's whole action-observation
history (perfect recall), its tensor a fixed-length sequence of token ids.

Needs the ``rl`` extra (``pip install 'tajmahal[rl]'``: open_spiel and numpy).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final

from .extras import require

require("rl", "tajmahal.openspiel", ("numpy", "pyspiel"))

import numpy as np
import numpy.typing as npt
import pyspiel
from attrs import evolve, frozen
from open_spiel.python.algorithms.ismcts import ISMCTSBot
from open_spiel.python.algorithms.mcts import Evaluator

from . import __version__
from .kit.bots import ViewPlayer
from .tajmahal.actions import Action, action_text
from .tajmahal.adapter import TAJMAHAL
from .tajmahal.board import DEFAULT_BOARD
from .tajmahal.bots import BOTS
from .tajmahal.cards import CARDS, REGULAR_CARDS
from .tajmahal.encoding import (
    ACTIONS,
    BONUS_KINDS,
    NUM_ACTIONS,
    action_index,
    legal_indices,
    observation_layout,
    observe,
    outcome,
)
from .tajmahal.events import (
    CardDrawn,
    Discarded,
    DummyTurned,
    Event,
    Reshuffled,
    VisitBegan,
    VisitEnded,
)
from .tajmahal.hidden import determinize
from .tajmahal.mcts import evaluate, rollout
from .tajmahal.rules import new_game, step
from .tajmahal.setups import HAND_SIZE, VISITS, Setup, display_size, place_tiles, variant_for
from .tajmahal.state import State
from .tajmahal.tiles import DEFAULT_BONUS_TILES
from .tajmahal.views import PlayerView, view

__all__ = [
    "GAME_TYPE",
    "OpenSpielPlayer",
    "TajMahalGame",
    "TajMahalState",
    "VisitRolloutEvaluator",
    "ismcts_bot",
    "ismcts_player",
    "max_game_length",
    "max_history_length",
]

SHORT_NAME: Final = "python_tajmahal"
DEFAULT_PLAYERS: Final = 4
#: Chance outcomes are card ids (0-95) or, in the setup, small numbers below 96.
MAX_CHANCE_OUTCOMES: Final = len(REGULAR_CARDS)

GAME_TYPE: Final = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Taj Mahal (tajmahal engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": DEFAULT_PLAYERS},
)

_BOARD: Final = DEFAULT_BOARD
#: The provinces that get tiles 1-11 (all but the final one), and the fortresses
#: that get the 15 square bonus tiles, in the order of their chance nodes (S3, S4).
_TILE_PROVINCES: Final = tuple(
    p for p in range(len(_BOARD.provinces)) if p != _BOARD.final_province
)
_BONUS_CITIES: Final = tuple(c for c in _BOARD.fortresses if c != _BOARD.taj_mahal_city)
_SQUARES: Final = tuple(BONUS_KINDS.index(t) for t in DEFAULT_BONUS_TILES)
_START: Final = 0  # setup outcome 0: the start player
_TILES: Final = 1  # outcomes 1-11: the province tiles
_BONUS: Final = _TILES + len(_TILE_PROVINCES)  # outcomes 12-26: the bonus tiles
_DEAL: Final = _BONUS + len(_BONUS_CITIES)  # then the deal, card by card


def max_game_length(players: int) -> int:
    """A bound on the number of decisions in a game (OpenSpiel's max_game_length).

    Per visit: each of the 84 coloured cards is played at most once (a card drawn
    in a visit goes to a seat that has withdrawn); each seat withdraws once; at
    most two palaces stand on each of the at most 5 cities of a province; at most
    the whole display is taken.
    """
    return VISITS * (84 + players + 2 * 5 + display_size(players))


def _max_chance_nodes(players: int) -> int:
    """A bound on the chance nodes of a game: the setup, the deal, the displays,
    a card for each withdrawal without a play, the 15 bonus tiles, the dummy's cards."""
    deal = HAND_SIZE * players + display_size(players)
    later = (VISITS - 1) * display_size(players) + VISITS * players + len(_BONUS_CITIES)
    dummy = VISITS * (84 + players) if players == 2 else 0
    return _DEAL + deal + later + dummy


def max_history_length(players: int) -> int:
    """A bound on the length of a history: decisions and chance outcomes."""
    return max_game_length(players) + _max_chance_nodes(players)


# --------------------------------------------------------------------------- tokens
# The information state is the seat's sequence of tokens, one per step of the
# history: a player action, a card it saw come out, a card another seat got, a
# setup outcome.  Token ids (0 pads the tensor):

_T_ACTION: Final = 1  # + action index
_T_CARD: Final = _T_ACTION + NUM_ACTIONS  # + card id: a card the seat saw
_T_HIDDEN: Final = _T_CARD + len(CARDS)  # + seat: a card went to that seat, unseen
_T_START: Final = _T_HIDDEN + 5  # + seat: the start player
_T_TILE: Final = _T_START + 5  # + tile number - 1: the next province's tile
_T_BONUS: Final = _T_TILE + 11  # + bonus kind: the next fortress's bonus tile
_T_SEAT: Final = _T_BONUS + len(BONUS_KINDS)  # + seat: the observer (first token)
PUBLIC: Final = -1  # a token everybody sees (else: the seat that sees it)


# --------------------------------------------------------------------------- draws

HAND: Final = "hand"
DUMMY: Final = "dummy"
DISPLAY: Final = "display"


@frozen
class Slot:
    """One card an action draws: from the deck of ``epoch`` (0: the deck as it is,
    1: the deck after the first reshuffle in this action, ...), for a seat's
    ``HAND`` (``seat``), the ``DUMMY`` or the ``DISPLAY``."""

    epoch: int
    kind: str
    seat: int = PUBLIC


@frozen
class Plan:
    """What applying ``action`` draws: its slots in order, and the cards each epoch's
    deck holds when it starts (epoch 0: the deck now; then the discard pile at each
    reshuffle)."""

    action: Action
    slots: tuple[Slot, ...]
    pools: tuple[frozenset[int], ...]


def plan_draws(state: State, action: Action) -> tuple[Plan | None, State]:
    """Apply ``action`` once to learn which cards it draws, from where and for whom.

    Returns ``(None, next_state)`` when it draws nothing (``next_state`` is then the
    true result), else the plan (and a state to throw away).  How many cards an
    action draws and from which pile never depends on which cards come: the
    dummy's stop (D3), the only rule that looks at a drawn card, comes last.
    """
    after, events = step(state, action)
    pools = [frozenset(state.deck)]
    discard = list(state.discard)
    slots: list[Slot] = []
    epoch, left = 0, len(state.deck)
    in_display = False
    display_from_old = -1
    for e in events:
        if isinstance(e, Discarded):
            discard.extend(e.cards)
        elif isinstance(e, Reshuffled):
            if in_display:
                display_from_old = left
            elif left != 0:
                raise AssertionError("a reshuffle before the deck ran out")
            if len(discard) != e.cards:
                raise AssertionError("the discard pile does not match the reshuffle")
            epoch += 1
            pools.append(frozenset(discard))
            discard = []
            left = e.cards
        elif isinstance(e, CardDrawn):
            slots.append(Slot(epoch, HAND, e.seat))
            left -= 1
        elif isinstance(e, DummyTurned):
            slots.append(Slot(epoch, DUMMY))
            left -= 1
        elif isinstance(e, VisitEnded):
            in_display = True
        elif isinstance(e, VisitBegan):
            k = len(e.display)
            if display_from_old >= 0:
                slots += [Slot(epoch - 1, DISPLAY)] * display_from_old
                slots += [Slot(epoch, DISPLAY)] * (k - display_from_old)
                left -= k - display_from_old
            else:
                slots += [Slot(epoch, DISPLAY)] * k
                left -= k
            in_display = False
    if not slots:
        return None, after
    return Plan(action, tuple(slots), tuple(pools)), after


def available(plan: Plan, picks: Sequence[int]) -> list[int]:
    """The cards the next slot of ``plan`` may draw, given the cards drawn so far."""
    slot = plan.slots[len(picks)]
    taken = {c for s, c in zip(plan.slots, picks, strict=False) if s.epoch == slot.epoch}
    return sorted(plan.pools[slot.epoch] - taken)


#: How many reshuffle orders :func:`realize` may try for a dummy's card (see there).
_SEARCH_LIMIT: Final = 20_000


def realize(state: State, plan: Plan, picks: Sequence[int]) -> State:
    """``plan``'s action applied to ``state`` so that its slots draw ``picks``.

    The engine draws from the top of the deck, so the picks go on top in order:
    those from the deck as it is, and those from a later epoch that lie in the
    discard pile now (they would be reshuffled into the deck).  Two kinds of slot
    come last in an action and may need a card that is discarded during the
    action itself: the new display (its cards are set afterwards: nothing in the
    action looks at them) and the dummy's card (the engine reshuffles, with the
    reshuffle count ``r = 0, 1, ...`` choosing its order, until the dummy turns the
    chosen card).  Afterwards the deck is the rest of the last epoch's cards
    (sorted: its order is not yet decided) and the discard pile holds what was
    discarded after the last reshuffle.
    """
    slots = plan.slots
    if len(picks) != len(slots):
        raise ValueError(f"the plan draws {len(slots)} cards, not {len(picks)}")
    discard = set(state.discard)
    preload: list[int] = []
    moved: set[int] = set()
    display: list[int] = []
    search: int | None = None
    for i, (slot, card) in enumerate(zip(slots, picks, strict=True)):
        if slot.kind == DISPLAY:
            display.append(card)
        elif slot.epoch == 0 or card in discard:
            preload.append(card)
            if slot.epoch:
                moved.add(card)
        elif slot.kind == DUMMY and i == len(slots) - 1:
            search = card
        else:  # pragma: no cover - plan_draws never makes such a plan
            raise AssertionError(f"slot {i} draws a card discarded during the action")
    rest = sorted(set(state.deck) - set(preload))
    if moved and rest:  # pragma: no cover - a later epoch starts on an empty deck
        raise AssertionError("cards from the discard pile above an unfinished deck")
    ready = evolve(
        state,
        deck=(*preload, *rest),
        discard=tuple(c for c in state.discard if c not in moved),
    )
    if search is None:
        after, events = step(ready, plan.action)
    else:
        for r in range(_SEARCH_LIMIT):
            after, events = step(evolve(ready, reshuffles=r), plan.action)
            if any(isinstance(e, DummyTurned) and e.card == search for e in events):
                break
        else:  # pragma: no cover - the chance is about (1 - 1/96) ** 20000
            raise RuntimeError("no reshuffle order turned the chosen card for the dummy")
    last = slots[-1].epoch
    drawn_last = {c for s, c in zip(slots, picks, strict=True) if s.epoch == last}
    deck = tuple(sorted(plan.pools[last] - drawn_last))
    if last == 0:
        new_discard = after.discard
    else:
        start = next(i for i, s in enumerate(slots) if s.epoch == last)
        new_discard = _discarded_after(events, start)
    fixed = evolve(
        after,
        deck=deck,
        discard=new_discard,
        display=tuple(sorted(display)) if display else after.display,
        reshuffles=state.reshuffles + last,
    )
    _check_cards(fixed)
    return fixed


def _discarded_after(events: Sequence[Event], start: int) -> tuple[int, ...]:
    """The cards discarded after draw number ``start`` (counting from 0) of an
    action's events; the display's draws count at the end of the visit."""
    drawn = 0
    counting = False
    out: list[int] = []
    for e in events:
        if isinstance(e, CardDrawn | DummyTurned):
            if drawn == start:
                counting = True
            drawn += 1
        elif isinstance(e, VisitEnded) and drawn <= start:
            counting = True
        elif isinstance(e, Discarded) and counting:
            out.extend(e.cards)
    return tuple(out)


def _check_cards(state: State) -> None:
    places = [*state.deck, *state.discard, *state.display, *state.supply]
    for p in state.players:
        places += [*p.hand, *p.played]
    if state.dummy is not None:
        places += state.dummy.cards
    if sorted(places) != list(range(len(CARDS))):
        raise AssertionError("a draw lost or doubled a card")


# --------------------------------------------------------------------------- the state


@frozen
class Pending:
    """A seat's action waiting for the cards it draws: ``picks`` so far."""

    plan: Plan
    seat: int
    picks: tuple[int, ...] = ()


@frozen
class Core:
    """Everything a :class:`TajMahalState` holds (immutable, so clones share it).

    ``setup`` holds the setup's chance outcomes until the deal is complete and
    ``engine`` the engine's state from then on (its deck in id order: the deck's
    order is decided draw by draw).  ``tokens`` are the history as
    ``(token, who sees it)`` pairs.
    """

    players: int
    setup: tuple[int, ...] = ()
    engine: State | None = None
    pending: Pending | None = None
    tokens: tuple[tuple[int, int], ...] = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> Core:
        return self


def _setup_size(players: int) -> int:
    return _DEAL + HAND_SIZE * players + display_size(players)


def _setup_outcomes(core: Core) -> list[tuple[int, float]]:
    """The chance outcomes of the next setup node, with their probabilities."""
    n, done = core.players, core.setup
    k = len(done)
    if k == _START:
        return [(s, 1.0 / n) for s in range(n)]
    if k < _BONUS:
        left = sorted(set(range(1, 12)) - set(done[_TILES:k]))
        return [(t, 1.0 / len(left)) for t in left]
    if k < _DEAL:
        counts: dict[int, int] = {}
        for kind in _SQUARES:
            counts[kind] = counts.get(kind, 0) + 1
        for kind in done[_BONUS:k]:
            counts[kind] -= 1
        total = sum(counts.values())
        return [(kind, c / total) for kind, c in sorted(counts.items()) if c]
    left = sorted(set(REGULAR_CARDS) - set(done[_DEAL:k]))
    return [(c, 1.0 / len(left)) for c in left]


def _setup_token(core: Core, outcome: int) -> tuple[int, int]:
    k = len(core.setup)
    if k == _START:
        return _T_START + outcome, PUBLIC
    if k < _BONUS:
        return _T_TILE + outcome - 1, PUBLIC
    if k < _DEAL:
        return _T_BONUS + outcome, PUBLIC
    dealt = k - _DEAL
    if dealt < HAND_SIZE * core.players:
        return _T_CARD + outcome, dealt // HAND_SIZE
    return _T_CARD + outcome, PUBLIC


def _build(core: Core) -> State:
    """The engine's first state once every setup outcome is known."""
    n, done = core.players, core.setup
    numbers = done[_TILES:_BONUS]
    squares = tuple(BONUS_KINDS[k] for k in done[_BONUS:_DEAL])
    tiles, bonus = place_tiles(_BOARD, numbers, squares)
    dealt = done[_DEAL:]
    rest = sorted(set(REGULAR_CARDS) - set(dealt))
    setup = Setup(
        players=n,
        seed=0,
        start_player=done[_START],
        deck=(*dealt, *rest),
        province_tiles=tiles,
        bonus_tiles=bonus,
        board=_BOARD,
        variant=variant_for(n),
    )
    return new_game(setup)


def _describe_setup(core: Core, outcome: int) -> str:
    k = len(core.setup)
    if k == _START:
        return f"seat {outcome} starts"
    if k < _BONUS:
        return f"tile {outcome} on {_BOARD.provinces[_TILE_PROVINCES[k - _TILES]]}"
    if k < _DEAL:
        city = _BOARD.cities[_BONUS_CITIES[k - _BONUS]].name
        return f"bonus tile {BONUS_KINDS[outcome]} on {city}"
    dealt = k - _DEAL
    to = f"seat {dealt // HAND_SIZE}" if dealt < HAND_SIZE * core.players else "the display"
    return f"deal #{outcome} {CARDS[outcome]} to {to}"


class TajMahalState(pyspiel.State):
    """One OpenSpiel state: a :class:`Core` and nothing else (cheap to clone)."""

    def __init__(self, game: TajMahalGame, core: Core | None = None) -> None:
        super().__init__(game)
        self._core = core or Core(players=game.num_players())

    # -- the engine's state, for users

    @property
    def core(self) -> Core:
        return self._core

    @property
    def engine(self) -> State | None:
        """The engine's :class:`~tajmahal.State` (None during the setup). While an
        action waits for its cards, it is the state before that action."""
        return self._core.engine

    # -- OpenSpiel's API

    def current_player(self) -> int:
        core = self._core
        if core.engine is None or core.pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if core.engine.to_act is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return core.engine.to_act

    def is_terminal(self) -> bool:
        engine = self._core.engine
        return engine is not None and engine.to_act is None and self._core.pending is None

    def _legal_actions(self, player: int) -> list[int]:
        engine = self._core.engine
        if engine is None or self._core.pending is not None or engine.to_act != player:
            return []
        return sorted(legal_indices(engine))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        core = self._core
        if core.engine is None:
            return _setup_outcomes(core)
        pending = core.pending
        if pending is None:
            return []
        cards = available(pending.plan, pending.picks)
        return [(c, 1.0 / len(cards)) for c in cards]

    def _apply_action(self, action: int) -> None:
        core = self._core
        if core.engine is None:
            token = _setup_token(core, action)
            core = evolve(core, setup=(*core.setup, action), tokens=(*core.tokens, token))
            if len(core.setup) == _setup_size(core.players):
                core = evolve(core, engine=_build(core), setup=())
            self._core = core
            return
        pending = core.pending
        if pending is not None:
            slot = pending.plan.slots[len(pending.picks)]
            owner = slot.seat if slot.kind == HAND else PUBLIC
            picks = (*pending.picks, action)
            tokens = (*core.tokens, (_T_CARD + action, owner))
            if len(picks) == len(pending.plan.slots):
                engine = realize(core.engine, pending.plan, picks)
                self._core = evolve(core, engine=engine, pending=None, tokens=tokens)
            else:
                self._core = evolve(core, pending=evolve(pending, picks=picks), tokens=tokens)
            return
        engine = core.engine
        seat = engine.to_act
        assert seat is not None
        plan, after = plan_draws(engine, ACTIONS[action])
        tokens = (*core.tokens, (_T_ACTION + action, PUBLIC))
        if plan is None:
            self._core = evolve(core, engine=after, tokens=tokens)
        else:
            self._core = evolve(core, pending=Pending(plan, seat), tokens=tokens)

    def _action_to_string(self, player: int, action: int) -> str:
        core = self._core
        if player == pyspiel.PlayerId.CHANCE:
            if core.engine is None:
                return _describe_setup(core, action)
            pending = core.pending
            if pending is None:
                return f"card #{action}"
            slot = pending.plan.slots[len(pending.picks)]
            to = {HAND: f"seat {slot.seat}", DUMMY: "the dummy", DISPLAY: "the display"}
            return f"draw #{action} {CARDS[action]} for {to[slot.kind]}"
        names = tuple(c.name for c in _BOARD.cities)
        return f"{action_text(ACTIONS[action], names)} [{action}]"

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._core.players
        engine = self._core.engine
        assert engine is not None
        return list(outcome(engine))

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> TajMahalState:
        """A state this seat cannot tell from this one, at random: the cards it
        cannot see dealt again (:func:`tajmahal.determinize`).  Only at a decision
        node.  The tokens it could not see are hidden from every seat in the copy,
        and its ``history()`` is empty: it is meant for search (IS-MCTS)."""
        core = self._core
        if core.engine is None or core.pending is not None:
            raise ValueError("resample_from_infostate needs a decision node, not a chance node")
        rng = random.Random(int(probability_sampler() * 2**53))
        guess = determinize(view(core.engine, player_id), rng)
        guess = evolve(guess, deck=tuple(sorted(guess.deck)))
        tokens = tuple(
            (t, o) if o in (PUBLIC, player_id) else (_T_HIDDEN + o, PUBLIC) for t, o in core.tokens
        )
        game: TajMahalGame = self.get_game()
        return TajMahalState(game, evolve(core, engine=guess, tokens=tokens))

    def __str__(self) -> str:
        core = self._core
        engine = core.engine
        if engine is None:
            return f"setup: {len(core.setup)} of {_setup_size(core.players)} outcomes"
        lines = [
            f"visit {engine.visit}, phase {engine.phase}, to act {engine.to_act}",
            f"display {list(engine.display)}, deck {len(engine.deck)}, "
            f"discard {list(engine.discard)}, court {list(engine.court)}",
        ]
        for seat, p in enumerate(engine.players):
            lines.append(
                f"seat {seat}: hand {list(p.hand)} played {list(p.played)} "
                f"score {p.score.total} palaces {p.palaces} influence {list(p.influence)}"
            )
        if engine.dummy is not None:
            lines.append(f"dummy {list(engine.dummy.cards)} bidding {engine.dummy.bidding}")
        built = [
            f"{c}:{a}/{b}"
            for c, (a, b) in enumerate(zip(engine.palaces, engine.moguls, strict=True))
            if a >= 0 or b >= 0
        ]
        lines.append("palaces " + " ".join(built))
        if core.pending is not None:
            pending = core.pending
            lines.append(
                f"drawing for {action_text(pending.plan.action)}: "
                f"{len(pending.picks)} of {len(pending.plan.slots)} cards {list(pending.picks)}"
            )
        return "\n".join(lines)


# --------------------------------------------------------------------------- observers


class ObservationObserver:
    """The seat's current view: :func:`tajmahal.tajmahal.encoding.observe` (tensor, with one
    named piece per block) and the view's JSON (string)."""

    def __init__(self, players: int) -> None:
        layout = observation_layout(players)
        self.tensor: npt.NDArray[np.float32] = np.zeros(layout.size, np.float32)
        self.dict = {b.name: self.tensor[b.offset : b.stop].reshape(b.shape) for b in layout.blocks}

    def set_from(self, state: TajMahalState, player: int) -> None:
        engine = state.engine
        if engine is None:
            self.tensor.fill(0.0)
            return
        observe(view(engine, player), out=self.tensor)

    def string_from(self, state: TajMahalState, player: int) -> str:
        core = state.core
        engine = core.engine
        if engine is None:
            return f"seat {player} setup {len(core.setup)}"
        text = TAJMAHAL.view_json(engine, player).decode()
        if core.pending is not None:
            text += f" drawing {len(core.pending.picks)}/{len(core.pending.plan.slots)}"
        return f"seat {player} {text}"


class InfoStateObserver:
    """The seat's action-observation history: token ids (tensor, padded with 0;
    the first is the observing seat) and the same history in words (string)."""

    def __init__(self, players: int) -> None:
        self.tensor: npt.NDArray[np.float32] = np.zeros(1 + max_history_length(players), np.float32)
        self.dict = {"tokens": self.tensor}

    def set_from(self, state: TajMahalState, player: int) -> None:
        tokens = seen_tokens(state.core, player)
        if len(tokens) > len(self.tensor):  # pragma: no cover - the bound holds
            raise AssertionError("a history longer than max_history_length")
        self.tensor.fill(0.0)
        self.tensor[: len(tokens)] = tokens

    def string_from(self, state: TajMahalState, player: int) -> str:
        return " ".join(_token_text(t) for t in seen_tokens(state.core, player))


def seen_tokens(core: Core, player: int) -> list[int]:
    """The history as ``player`` saw it: its seat, then one token per step."""
    out = [_T_SEAT + player]
    for token, owner in core.tokens:
        out.append(token if owner in (PUBLIC, player) else _T_HIDDEN + owner)
    return out


def _token_text(token: int) -> str:
    if token >= _T_SEAT:
        return f"seat{token - _T_SEAT}:"
    if token >= _T_BONUS:
        return f"bonus:{token - _T_BONUS}"
    if token >= _T_TILE:
        return f"tile:{token - _T_TILE + 1}"
    if token >= _T_START:
        return f"start:{token - _T_START}"
    if token >= _T_HIDDEN:
        return f"?>{token - _T_HIDDEN}"
    if token >= _T_CARD:
        return f"#{token - _T_CARD}"
    return f"a{token - _T_ACTION}"


# --------------------------------------------------------------------------- the game


class TajMahalGame(pyspiel.Game):
    """``python_tajmahal``: parameter ``players`` (2-5, default 4)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", DEFAULT_PLAYERS))
        if not 2 <= players <= 5:
            raise ValueError(f"Taj Mahal is for 2-5 players, not {players}")
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=MAX_CHANCE_OUTCOMES,
            num_players=players,
            min_utility=-1.0 / (players - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_game_length(players),
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> TajMahalState:
        return TajMahalState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Any = None
    ) -> ObservationObserver | InfoStateObserver:
        if params:
            raise ValueError(f"observer parameters are not supported, got {params}")
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError("only the single player's observation and information state")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return InfoStateObserver(self.num_players())
        return ObservationObserver(self.num_players())

    # -- starting from the engine

    def state_from_engine(self, engine: State) -> TajMahalState:
        """An OpenSpiel state at ``engine`` (a decision or the end), with no history:
        for bots that search from a position (the deck's order is dropped)."""
        if len(engine.players) != self.num_players():
            raise ValueError(
                f"a {len(engine.players)}-player state for a {self.num_players()}-player game"
            )
        core = Core(
            players=self.num_players(), engine=evolve(engine, deck=tuple(sorted(engine.deck)))
        )
        return TajMahalState(self, core)

    def state_from_view(self, v: PlayerView, rng: random.Random) -> TajMahalState:
        """An OpenSpiel state the seat of ``v`` cannot tell from the real one: its
        hidden cards dealt at random (:func:`tajmahal.determinize`)."""
        return self.state_from_engine(determinize(v, rng))


pyspiel.register_game(GAME_TYPE, TajMahalGame)


# --------------------------------------------------------------------------- bots


class VisitRolloutEvaluator(Evaluator):
    """Leaf values for OpenSpiel's MCTS and IS-MCTS bots.

    A full random playout of Taj Mahal is long and says little; this one plays
    the rest of the current visit with :func:`tajmahal.tajmahal.mcts.rollout_action` (the
    built-in ``mcts`` bot's policy; the deck's order drawn at random) and scores
    each seat with :func:`tajmahal.tajmahal.mcts.evaluate` (points, influence and hand worth
    over the best rival's), squashed to ``tanh(value / scale)`` so that it is
    comparable with the game's returns.  Priors are uniform.
    """

    def __init__(self, seed: int = 0, scale: float = 10.0, noise: float = 0.6) -> None:
        self.rng = random.Random(seed)
        self.scale = scale
        self.noise = noise

    def evaluate(self, state: TajMahalState) -> npt.NDArray[np.float64]:
        if state.is_terminal():
            return np.array(state.returns())
        working = state
        while working.is_chance_node():  # an action waiting for its cards: draw them
            if working is state:
                working = state.clone()
            outcomes = working.chance_outcomes()
            working.apply_action(outcomes[self.rng.randrange(len(outcomes))][0])
        engine = working.engine
        assert engine is not None
        deck = list(engine.deck)
        self.rng.shuffle(deck)
        end = rollout(evolve(engine, deck=tuple(deck)), self.rng, self.noise)
        if end.to_act is None:
            return np.array(outcome(end))
        return np.tanh(np.array(evaluate(end)) / self.scale)

    def prior(self, state: TajMahalState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


class OpenSpielPlayer(ViewPlayer):
    """A referee player that asks an OpenSpiel bot (``make_bot(game, seed)``) to
    choose, from a state built with :meth:`TajMahalGame.state_from_view`: the bot
    sees what the seat sees (an IS-MCTS bot resamples the hidden cards itself)."""

    name = "openspiel"
    version = __version__

    def __init__(self, make_bot: Callable[[TajMahalGame, int], Any], seed: int = 0) -> None:
        super().__init__(BOTS, seed)
        self.make_bot = make_bot
        self.seed = seed
        self.game: TajMahalGame | None = None
        self.bot: Any = None

    def pick(self, v: PlayerView, legal: Sequence[Action]) -> int:
        if self.game is None:
            self.game = pyspiel.load_game(SHORT_NAME, {"players": v.setup.players})
            self.bot = self.make_bot(self.game, self.seed)
        state = self.game.state_from_view(v, self.rng)
        chosen = int(self.bot.step(state))
        return [action_index(a) for a in v.legal].index(chosen)


def ismcts_bot(
    game: TajMahalGame, seed: int = 0, simulations: int = 200, uct_c: float = 1.5
) -> Any:
    """OpenSpiel's IS-MCTS bot with :class:`VisitRolloutEvaluator` leaves."""
    bot = ISMCTSBot(
        game,
        VisitRolloutEvaluator(seed),
        uct_c,
        simulations,
        random_state=np.random.RandomState(seed % 2**32),
        allow_inconsistent_action_sets=True,
    )
    # Resample worlds from the bot's own seed, so that a seed fixes its play.
    worlds = random.Random(seed)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, worlds.random))
    return bot


def ismcts_player(seed: int = 0, simulations: int = 200) -> OpenSpielPlayer:
    """A referee player running :func:`ismcts_bot` with ``simulations`` per decision."""
    player = OpenSpielPlayer(lambda game, s: ismcts_bot(game, s, simulations=simulations), seed)
    player.name = f"openspiel-ismcts-{simulations}"
    return player


# Kept for users who decode information-state tensors.
TOKENS: Final = {
    "action": _T_ACTION,
    "card": _T_CARD,
    "hidden": _T_HIDDEN,
    "start": _T_START,
    "tile": _T_TILE,
    "bonus": _T_BONUS,
    "seat": _T_SEAT,
}
