"""Taj Mahal's texts for people: cards by colour and symbols, cities and provinces
by name, and the line of each event (what ``tajmahal show``, the replay viewer
and the browser game print); an action's text is :func:`~tajmahal.tajmahal.actions.action_text`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from ..kit.adapter import Words
from ..kit.svg import plural
from . import events as ev
from .cards import CARDS
from .rules import scores

__all__ = ["EVENT_TEXTS", "TajMahalWords", "cards_text"]


class TajMahalWords(Words):
    """Taj Mahal's names for things: cards by colour and symbols, cities by name."""

    def city(self, city: int) -> str:
        return str(self.state.setup.board.cities[city].name)

    def province(self, province: int) -> str:
        return str(self.state.setup.board.provinces[province])

    def visit_ended(self, visit: int) -> str:
        if any(isinstance(x, ev.GameOver) for x in self.events):
            return f"visit {visit} ends; final scoring of the hands"
        totals = ", ".join(f"{self.who(s)} {t}" for s, t in enumerate(scores(self.state)))
        return f"visit {visit} ends; totals: {totals}"


def cards_text(cards: Sequence[int]) -> str:
    return ", ".join(str(CARDS[c]) for c in cards) or "empty"


def _won(prizes: Sequence[str]) -> str:
    return ", ".join(prizes) if prizes else "nothing"


EVENT_TEXTS: Final[Mapping[type, Callable[[Any, TajMahalWords], str | None]]] = {
    ev.Played: lambda e, w: (
        f"{w.who(e.seat)} plays {CARDS[e.card]}"
        + ("" if e.extra is None else f" with {CARDS[e.extra]}")
    ),
    ev.Withdrew: lambda e, w: f"{w.who(e.seat)} withdraws and wins {_won(e.prizes)}",
    ev.PalaceBuilt: lambda e, w: (
        f"{w.who(e.seat)} builds a {'mogul palace' if e.mogul else 'palace'} in {w.city(e.city)}"
    ),
    ev.BonusTaken: lambda e, w: f"{w.who(e.seat)} takes the bonus tile {e.tile}",
    ev.ProvinceTileTaken: lambda e, w: f"{w.who(e.seat)} takes province tile {e.tile}",
    ev.Scored: lambda e, w: f"{w.who(e.seat)} scores {e.points} ({e.source}: {e.reason})",
    ev.CardDrawn: lambda e, w: (
        f"{w.who(e.seat)} draws {'a card' if e.card is None else CARDS[e.card]} ({e.reason})"
    ),
    ev.CardTaken: lambda e, w: f"{w.who(e.seat)} takes {CARDS[e.card]} from the display",
    ev.Reshuffled: lambda e, w: (
        f"the discard pile ({plural(e.cards, 'card')}) is shuffled into a new deck"
    ),
    ev.SpecialCardTaken: lambda e, w: f"{w.who(e.seat)} takes the {CARDS[e.card]}",
    ev.DummyTurned: lambda e, w: f"the dummy turns {CARDS[e.card]}",
    ev.DummyWithdrew: lambda e, w: f"the dummy stops on {CARDS[e.card]} and wins {_won(e.prizes)}",
    ev.VisitEnded: lambda e, w: w.visit_ended(e.visit),
    ev.VisitBegan: lambda e, w: (
        f"# Visit {e.visit} of 12 in {w.province(e.province)}; {w.who(e.start_player)} starts\n"
        f"display: {cards_text(e.display)}"
    ),
    ev.GameOver: lambda e, w: f"game over: totals {list(e.scores)}, ranks {list(e.ranks)}",
    ev.Discarded: lambda e, w: None,
}
