"""Final results as every game of the kit reads them: the totals by seat and
their ranks, where a tie is a shared place, and the event that announces them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from attrs import frozen

__all__ = ["GameOver", "ranks", "scores"]


@frozen
class GameOver:
    """The game is over (as its rules say when): each seat's final total and rank
    (1 is best; equal totals share a rank)."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]


def scores(state: Any) -> list[int]:
    """Each seat's total, by seat: its player record's ``score``."""
    return [p.score for p in state.players]


def ranks(totals: Sequence[int]) -> list[int]:
    """1 is best; equal totals share a rank, the next one skips (1, 1, 3): a tie is
    a shared win."""
    return [1 + sum(other > mine for other in totals) for mine in totals]
