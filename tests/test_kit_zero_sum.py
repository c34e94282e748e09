"""The zero-sum outcome of the kit's encodings (``tajmahal.kit.encoding.zero_sum``):
exact for every player count, as OpenSpiel's checks of a game's utilities need."""

from __future__ import annotations

from fractions import Fraction

import pytest

pytest.importorskip("numpy")

from tajmahal.kit.encoding import zero_sum

COUNTS = range(2, 9)


def exact(players: int, winners: int) -> tuple[Fraction, Fraction]:
    """A winner's and a loser's result worked out in fractions: the winners share a
    prize of 1, and each seat gets n/(n-1) * (share - 1/n)."""
    n = Fraction(players)
    share = Fraction(1, winners)
    return n / (n - 1) * (share - 1 / n), n / (n - 1) * (0 - 1 / n)


@pytest.mark.parametrize("players", COUNTS)
def test_a_lone_winner_gets_exactly_one(players: int) -> None:
    totals = [5] * players
    totals[players // 2] = 9
    result = zero_sum(totals)
    assert result[players // 2] == 1.0
    assert result.count(-1 / (players - 1)) == players - 1
    assert max(result) == 1.0  # OpenSpiel's max_utility, not a hair above


@pytest.mark.parametrize("players", COUNTS)
def test_every_split_is_the_float_nearest_the_exact_share(players: int) -> None:
    for winners in range(1, players + 1):
        totals = [3] * winners + [1] * (players - winners)
        won, lost = exact(players, winners)
        assert won * winners + lost * (players - winners) == 0  # zero-sum, exactly
        expected = (float(won),) * winners + (float(lost),) * (players - winners)
        assert zero_sum(totals) == expected


def test_a_tie_of_every_seat_is_all_zero_and_a_lone_seat_gets_zero() -> None:
    for players in COUNTS:
        assert zero_sum([7] * players) == (0.0,) * players
    assert zero_sum([4]) == (0.0,)
