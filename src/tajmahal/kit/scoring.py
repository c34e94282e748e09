"""Final results as every game of the kit reads them: the totals by seat and
their ranks, where a tie is a shared place."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["ranks", "scores"]


def scores(state: Any) -> list[int]:
    """Each seat's total, by seat: its player record's ``score``."""
    return [p.score for p in state.players]


def ranks(totals: Sequence[int]) -> list[int]:
    """1 is best; equal totals share a rank, the next one skips (1, 1, 3): a tie is
    a shared win."""
    return [1 + sum(other > mine for other in totals) for mine in totals]
