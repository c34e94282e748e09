"""The engine's scratch copy of a state while one step is resolved.

Within one call of :func:`~tajmahal.tajmahal.rules.apply`, the longer steps (a
withdrawal, palaces, the end of a visit, the final scoring) work on a private
:class:`Draft` that is frozen into the returned state once; the input state is
never touched.  Compiled with mypyc with the engine.  Rule ids (W8, ...) refer to
``docs/rules.md``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..kit.errors import IllegalAction
from ..kit.svg import plural
from .build import _TAKES, _add_score, _holding, _with, pending_of, player_of, state_of
from .cards import (
    CARD_COLOR,
    CHARACTERS,
    COLORS,
    FIRST_SPECIAL,
    SPECIAL_CARDS,
    SYMBOLS,
)
from .counting import (
    _next_in,
    _palace_cities,
    _total,
    connected_provinces,
    majorities,
    ranks,
    rival_counts,
    symbol_counts,
)
from .events import (
    BonusTaken,
    CardDrawn,
    CardTaken,
    Discarded,
    DummyTurned,
    DummyWithdrew,
    Event,
    GameOver,
    PalaceBuilt,
    ProvinceTileTaken,
    Reshuffled,
    Scored,
    SpecialCardTaken,
    VisitBegan,
    VisitEnded,
    Withdrew,
)
from .setups import VISITS, display_size
from .state import NOBODY, Dummy, Pending, PlayerState, State
from .tiles import BONUS_POINTS, PROVINCE_GOODS, BonusTile


def reshuffled(seed: int, reshuffles: int, cards: list[int]) -> list[int]:
    """W12: ``cards``, the discard pile in id order, shuffled into a new deck (top
    first) by the ``reshuffles``-th reshuffle of the game dealt from ``seed``."""
    random.Random(f"tajmahal/{seed}/{reshuffles}").shuffle(cards)
    return cards


class DraftSeat:
    """A mutable scratch copy of one :class:`PlayerState`, frozen once per step."""

    __slots__ = (
        "bonus_tiles",
        "color",
        "hand",
        "influence",
        "palaces",
        "played",
        "province_tiles",
        "revealed",
        "score",
        "withdrawn",
    )

    def __init__(self, p: PlayerState) -> None:
        self.hand = p.hand
        self.played = p.played
        self.color = p.color
        self.withdrawn = p.withdrawn
        self.palaces = p.palaces
        self.influence = p.influence
        self.province_tiles = p.province_tiles
        self.bonus_tiles = p.bonus_tiles
        self.score = p.score
        self.revealed = p.revealed

    def freeze(self) -> PlayerState:
        return player_of(
            self.hand,
            self.played,
            self.color,
            self.withdrawn,
            self.palaces,
            self.influence,
            self.province_tiles,
            self.bonus_tiles,
            self.score,
            self.revealed,
        )


class Draft:
    """A private, mutable copy of a state used while one action is resolved.

    Seats are copied into :class:`DraftSeat` scratch objects only when changed, and
    everything is frozen into a new :class:`State` once, at the end of the step.
    """

    def __init__(self, state: State, log: list[Event] | None) -> None:
        self.base = state
        self.log = log
        self.visit = state.visit
        self.province = state.province
        self.start_player = state.start_player
        self.to_act = state.to_act
        self.players: list[PlayerState | DraftSeat] = list(state.players)
        # Collections stay the state's tuples until first changed (see mutable()).
        self.deck: Sequence[int] = state.deck
        self.discard: Sequence[int] = state.discard
        self.display: Sequence[int] = state.display
        self.supply: Sequence[int] = state.supply
        self.court: Sequence[str] = state.court
        self.reserve: Sequence[int] = state.reserve
        self.palaces: Sequence[int] = state.palaces
        self.moguls: Sequence[int] = state.moguls
        self.bonus: Sequence[BonusTile | None] = state.bonus
        self.pending = state.pending
        self.dummy = state.dummy
        self.reshuffles = state.reshuffles

    def mutable(self, name: str) -> list[Any]:
        """The collection ``name`` as a list of this draft's own, copied on first use."""
        value = getattr(self, name)
        if type(value) is not list:
            value = list(value)
            setattr(self, name, value)
        return value

    def freeze(self) -> State:
        return state_of(
            self.base.setup,
            self.visit,
            self.province,
            self.start_player,
            self.to_act,
            tuple([p.freeze() if isinstance(p, DraftSeat) else p for p in self.players]),
            tuple(self.deck),
            tuple(self.discard),
            tuple(self.display),
            tuple(self.supply),
            tuple(self.court),
            tuple(self.reserve),
            tuple(self.palaces),
            tuple(self.moguls),
            tuple(self.bonus),
            self.pending,
            self.dummy,
            self.reshuffles,
        )

    # -- small helpers

    def seat(self, index: int) -> DraftSeat:
        """The scratch copy of seat ``index``, made on first use."""
        player = self.players[index]
        if isinstance(player, DraftSeat):
            return player
        scratch = self.players[index] = DraftSeat(player)
        return scratch

    def emit(self, kind: Callable[..., Event], *fields: Any) -> None:
        """Log the event ``kind(*fields)``, built only when events are wanted."""
        if self.log is not None:
            self.log.append(kind(*fields))

    def score(self, seat: int, source: str, points: int, reason: str) -> None:
        player = self.seat(seat)
        player.score = _add_score(player.score, source, points)
        self.emit(Scored, seat, source, points, reason)

    def draw(self) -> int | None:
        """W12: the top card of the deck, reshuffling the discard pile if it is empty."""
        if not self.deck:
            if not self.discard:
                return None
            cards = reshuffled(self.base.setup.seed, self.reshuffles, sorted(self.discard))
            self.reshuffles += 1
            self.deck = cards
            self.discard = ()
            self.emit(Reshuffled, len(cards))
        card: int = self.mutable("deck").pop(0)
        return card

    def draw_to_hand(self, seat: int, reason: str) -> None:
        card = self.draw()
        if card is None:
            return
        player = self.seat(seat)
        player.hand = _with(player.hand, card)
        self.emit(CardDrawn, seat, card, reason)

    # -- W1-W3: withdrawal

    def withdraw(self, seat: int) -> None:
        player = self.seat(seat)
        rivals = rival_counts(self.players, self.dummy, seat)
        won = majorities(symbol_counts(player.played), rivals, self.court)
        if won:
            court = self.mutable("court")
            influence = list(player.influence)
            for symbol in won:
                court.remove(symbol)
                if symbol in CHARACTERS:
                    influence[CHARACTERS.index(symbol)] += 1
            player.influence = tuple(influence)
        player.withdrawn = True
        self.emit(Withdrew, seat, won)
        characters = sum(1 for s in won if s in CHARACTERS)
        self.pending = pending_of(characters, "mogul" in won, False, "elephant" in won, 0)
        self.settle(seat)

    # -- W4-W6: palaces

    def build(self, seat: int, city: int, mogul: bool) -> None:
        pending = self.pending
        assert pending is not None
        board = self.base.setup.board
        cities = board.province_cities[self.province]
        name = board.cities[city].name if 0 <= city < len(board.cities) else f"city {city}"
        rule = "W5" if mogul else "W4"
        if mogul and not pending.mogul:
            raise IllegalAction("W5", "you did not win the grand mogul: no mogul palace to place")
        if not mogul and not pending.palaces:
            raise IllegalAction("W4", "you have no normal palace left to place")
        if city not in cities:
            raise IllegalAction(
                rule, f"{name} is not in {board.provinces[self.province]}, the current province"
            )
        own = self.mutable("moguls" if mogul else "palaces")
        if own[city] != NOBODY:
            what = "mogul palace" if mogul else "palace"
            raise IllegalAction(rule, f"{name} already holds a {what}")
        own[city] = seat
        player = self.seat(seat)
        player.palaces -= 1
        self.pending = pending_of(
            pending.palaces - (not mogul),
            pending.mogul and not mogul,
            True,
            pending.province_tile,
            pending.takes,
        )
        self.emit(PalaceBuilt, seat, city, mogul)
        tile = self.bonus[city]
        if tile is not None and not mogul:
            self.mutable("bonus")[city] = None
            self.take_bonus(seat, city, tile)

    def take_bonus(self, seat: int, city: int, tile: BonusTile) -> None:
        """W6: score a bonus tile the moment it is taken."""
        player = self.seat(seat)
        player.bonus_tiles = (*player.bonus_tiles, tile)
        self.emit(BonusTaken, seat, city, tile)
        if tile.kind in BONUS_POINTS:
            reason = "Taj Mahal" if tile.kind == "taj_mahal" else "bonus tile"
            self.score(seat, "bonus", BONUS_POINTS[tile.kind], reason)
        elif tile.kind == "card":
            self.draw_to_hand(seat, "bonus tile")
        else:
            assert tile.good is not None
            self.score_goods(seat, (tile.good,))

    def score_goods(self, seat: int, goods: tuple[str, ...]) -> None:
        """W7: each good on a new tile scores the number of that good now held."""
        player = self.seat(seat)
        for good in goods:
            held = sum(good in PROVINCE_GOODS[t] for t in player.province_tiles)
            held += sum(tile.good == good for tile in player.bonus_tiles)
            self.score(seat, "goods", held, good)

    def settle(self, seat: int) -> None:
        """Resolve every step of a withdrawal that leaves no choice, in rule order.

        A pending withdrawal is in one of three stages: palaces to place (W4/W5),
        palaces done but not yet scored (``takes == 0``: W7-W11 run now), or display
        cards to take (W11).  Stops where the seat has a real choice.
        """
        while (pending := self.pending) is not None:
            if pending.palaces or pending.mogul:
                if not self.place_forced(seat, pending):
                    return
            elif pending.takes == 0:
                self.after_palaces(seat, pending)
            elif pending.takes >= len(self.display):
                for card in list(self.display):  # no choice: take what remains
                    self.take(seat, card)
            else:
                return

    def place_forced(self, seat: int, pending: Pending) -> bool:
        """Place palaces that leave no choice; False when the seat must choose."""
        left = self.seat(seat).palaces
        if left == 0:  # W4: no palace left
            self.pending = pending_of(0, False, pending.built, pending.province_tile, 0)
            return True
        normal, mogul = _palace_cities(
            self.base.setup.board, self.province, self.palaces, self.moguls, seat
        )
        if pending.palaces and not normal:  # W4: no free city
            self.pending = pending_of(0, pending.mogul, pending.built, pending.province_tile, 0)
            return True
        if pending.mogul and not mogul:
            self.pending = pending_of(
                pending.palaces, False, pending.built, pending.province_tile, 0
            )
            return True
        options = len(normal) * (pending.palaces > 0) + len(mogul) * pending.mogul
        if options == 1:
            if pending.palaces:
                self.build(seat, normal[0], False)
            else:
                self.build(seat, mogul[0], True)
            return True
        if not pending.mogul and pending.palaces >= len(normal) and left >= len(normal):
            for city in normal:  # every free city gets one: only the order is open
                self.build(seat, city, False)
            return True
        return False

    def after_palaces(self, seat: int, pending: Pending) -> None:
        """W7-W11 once the palaces stand: province tile, palace score, discard, draw."""
        player = self.seat(seat)
        if pending.province_tile:
            tile = self.visit
            player.province_tiles = (*player.province_tiles, tile)
            self.emit(ProvinceTileTaken, seat, tile)
            self.score_goods(seat, PROVINCE_GOODS[tile])
        if pending.built:
            board = self.base.setup.board
            others = connected_provinces(board, self.province, seat, self.palaces, self.moguls)
            joined = f"palace joined to {plural(others, 'other province')}"
            self.score(seat, "palaces", 1 + others, joined)
        played = player.played
        specials = tuple([c for c in played if c >= FIRST_SPECIAL])
        gone = tuple([c for c in played if c < FIRST_SPECIAL])
        if gone:
            self.mutable("discard").extend(gone)
        player.played = ()
        if specials:
            player.hand = tuple(sorted(player.hand + specials))
        if gone:
            self.emit(Discarded, seat, gone)
        if not played:
            self.draw_to_hand(seat, "withdrew without playing")
        takes = min(2, len(self.display))
        if takes == 0:
            self.pending = None
            self.end_turn(seat)
        else:
            self.pending = _TAKES[takes]

    # -- W11: display

    def take(self, seat: int, card: int) -> None:
        pending = self.pending
        assert pending is not None
        if card not in self.display:
            raise IllegalAction("W11", f"card {card} is not in the display")
        self.mutable("display").remove(card)
        player = self.seat(seat)
        player.hand = _with(player.hand, card)
        player.revealed = _with(player.revealed, card)
        self.emit(CardTaken, seat, card)
        if pending.takes == 1 or not self.display:
            self.pending = None
            self.end_turn(seat)
        else:
            self.pending = _TAKES[pending.takes - 1]

    def end_turn(self, seat: int) -> None:
        nxt = _next_in(self.players, seat)  # type: ignore[arg-type]
        if self.dummy is not None and self.dummy.bidding:
            self.dummy_turn()  # D2: after every real turn, the last withdrawal included
        if nxt is None:
            self.end_visit()
            return
        self.to_act = nxt

    # -- D2/D3: the dummy

    def dummy_turn(self) -> None:
        dummy = self.dummy
        assert dummy is not None
        card = self.draw()
        if card is None:
            return
        self.emit(DummyTurned, card)
        color = CARD_COLOR[card]
        if not any(CARD_COLOR[c] == color for c in dummy.cards):
            self.dummy = Dummy(cards=(*dummy.cards, card), bidding=True)
            return
        rivals = [symbol_counts(p.played) for p in self.players if not p.withdrawn]
        won = majorities(symbol_counts(dummy.cards), rivals, self.court)
        for symbol in won:
            self.mutable("court").remove(symbol)
            if symbol in CHARACTERS:
                self.mutable("reserve")[CHARACTERS.index(symbol)] += 1
        self.emit(DummyWithdrew, card, won)
        self.mutable("discard").extend((card, *dummy.cards))
        self.emit(Discarded, None, (card, *dummy.cards))
        self.dummy = Dummy(cards=(), bidding=False)

    # -- E1-E5: end of a visit

    def end_visit(self) -> None:
        if self.dummy is not None:
            if self.dummy.cards:
                self.mutable("discard").extend(self.dummy.cards)
                self.emit(Discarded, None, self.dummy.cards)
            self.dummy = Dummy()
        self.exchange_special_cards()
        self.emit(VisitEnded, self.visit)
        if self.visit == VISITS:
            self.final_scoring()
            return
        n = len(self.players)
        self.visit += 1
        self.province = self.base.setup.visit_provinces[self.visit - 1]
        self.start_player = (self.start_player + 1) % n
        self.refill_court()
        display = []
        for _ in range(display_size(n)):
            card = self.draw()
            if card is not None:
                display.append(card)
        self.display = sorted(display)
        for seat, p in enumerate(self.players):
            if isinstance(p, DraftSeat):
                p.played, p.color, p.withdrawn = (), None, False
            else:  # W10 already emptied the table: only the visit's flags reset
                self.players[seat] = _holding(p, p.hand, (), None, False)
        self.to_act = self.start_player
        self.emit(VisitBegan, self.visit, self.province, self.start_player, tuple(self.display))

    def exchange_special_cards(self) -> None:
        """E2: two influence tiles of a kind buy that character's special card."""
        for seat in range(len(self.players)):
            for k, character in enumerate(CHARACTERS):
                if self.players[seat].influence[k] < 2:
                    continue
                player = self.seat(seat)
                influence = list(player.influence)
                influence[k] -= 2
                player.influence = tuple(influence)
                self.mutable("reserve")[k] += 2
                card = SPECIAL_CARDS[character]
                holder = None
                if card in self.supply:
                    self.mutable("supply").remove(card)
                else:
                    holder = next(s for s, p in enumerate(self.players) if card in p.hand)
                    old = self.seat(holder)
                    old.hand = tuple(c for c in old.hand if c != card)
                player.hand = _with(player.hand, card)
                self.emit(SpecialCardTaken, seat, character, card, holder)

    def refill_court(self) -> None:
        """E3: one influence tile of each missing kind from the reserve, the ring, the tile."""
        court = set(self.court) | {"elephant", "mogul"}
        for k, character in enumerate(CHARACTERS):
            if character not in court and self.reserve[k] > 0:
                self.mutable("reserve")[k] -= 1
                court.add(character)
        self.court = [s for s in SYMBOLS if s in court]

    def final_scoring(self) -> None:
        """F1: special and white cards score 1 each, and each card of the main colour."""
        for seat, player in enumerate(self.players):
            hand = player.hand
            specials = sum(1 for c in hand if c >= FIRST_SPECIAL)
            whites = sum(1 for c in hand if CARD_COLOR[c] == "white")
            most = max(sum(1 for c in hand if CARD_COLOR[c] == col) for col in COLORS)
            points = specials + whites + most
            if points:
                self.score(seat, "hand", points, "final hand")
        self.to_act = None
        totals = tuple([_total(p.score) for p in self.players])
        self.emit(GameOver, totals, ranks(totals))
