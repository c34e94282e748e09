"""Helpers for scenario tests: a table that plays stacked setups step by step.

Card ids used in the tests (see ``tajmahal.tajmahal.cards.card_ids``):
red 0-1 elephant+elephant, 2-4 elephant+vizier, 5-7 elephant+general,
8-10 elephant+monk, 11-13 elephant+princess, 14-15 elephant+mogul,
16 monk+vizier, 17 vizier+princess, 18 princess+mogul, 19 general+monk,
20 vizier+mogul; yellow 21-41 and green 42-62 and purple 63-83 in the same
pattern; white 84-90 elephant, 91 vizier, 92 general, 93 monk, 94 princess,
95 mogul; special 96 vizier's, 97 general's, 98 monk's, 99 princess's card.

Default stacked board order (Setup.stacked): visit 1 Kabul (cities 0 Kabul*,
1 Ghazni, 2 Jalalabad, 3 Peshawar), visit 2 Kashmir (4 Srinagar*, 5 Baramulla,
6 Anantnag, 7 Muzaffarabad), visit 3 Lahore (8 Lahore*, 9 Sialkot,
10 Jalandhar, 11 Rohtas*); * = fortress.
"""

from __future__ import annotations

from attrs import evolve

from tajmahal import (
    Action,
    BuildMogulPalace,
    BuildPalace,
    Play,
    PlayerState,
    State,
    TakeCard,
    Withdraw,
    check_state,
    legal_actions,
    step,
)
from tajmahal.tajmahal.events import Event


class Table:
    """A game in progress; each method acts for a seat that must be the one to act."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def act(self, seat: int, action: Action) -> tuple[Event, ...]:
        check_state(self.state)  # hand-built positions must be consistent
        assert self.state.to_act == seat, f"seat {self.state.to_act} is to act, not {seat}"
        assert action in legal_actions(self.state), f"{action} not legal"
        self.state, events = step(self.state, action)
        self.events.extend(events)
        return events

    def play(self, seat: int, card: int, extra: int | None = None) -> tuple[Event, ...]:
        return self.act(seat, Play(card, extra))

    def withdraw(self, seat: int) -> tuple[Event, ...]:
        return self.act(seat, Withdraw())

    def build(self, seat: int, city: int) -> tuple[Event, ...]:
        return self.act(seat, BuildPalace(city))

    def build_mogul(self, seat: int, city: int) -> tuple[Event, ...]:
        return self.act(seat, BuildMogulPalace(city))

    def take(self, seat: int, *cards: int) -> None:
        for card in cards:
            self.act(seat, TakeCard(card))

    def player(self, seat: int) -> PlayerState:
        return self.state.players[seat]


def with_player(state: State, seat: int, **changes: object) -> State:
    """``state`` with seat ``seat``'s PlayerState fields changed (for puzzle positions)."""
    players = list(state.players)
    players[seat] = evolve(players[seat], **changes)  # type: ignore[arg-type]
    return evolve(state, players=tuple(players))


def give_special(state: State, seat: int, card: int) -> State:
    """Move special card ``card`` from the supply into ``seat``'s hand."""
    hand = tuple(sorted((*state.players[seat].hand, card)))
    state = with_player(state, seat, hand=hand)
    return evolve(state, supply=tuple(c for c in state.supply if c != card))


def at_visit(state: State, visit: int) -> State:
    """``state`` moved to the start of visit ``visit`` (province from the setup's tiles)."""
    return evolve(state, visit=visit, province=state.setup.visit_provinces[visit - 1])


def with_palaces(
    state: State, owners: dict[int, int], moguls: dict[int, int] | None = None
) -> State:
    """``state`` with normal (and mogul) palaces already standing: city -> seat."""
    palaces = list(state.palaces)
    mogul_list = list(state.moguls)
    for city, seat in owners.items():
        palaces[city] = seat
    for city, seat in (moguls or {}).items():
        mogul_list[city] = seat
    for seat in range(len(state.players)):
        used = sum(1 for s in palaces if s == seat) + sum(1 for s in mogul_list if s == seat)
        state = with_player(state, seat, palaces=20 - used)
    return evolve(state, palaces=tuple(palaces), moguls=tuple(mogul_list))
