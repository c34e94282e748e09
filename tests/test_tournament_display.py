"""The tournament's terminal output: live display, plain lines, number formats."""

from __future__ import annotations

import io
import math

from rich.console import Console
from tournament_support import hand_games, make_plan

from tajmahal.arena.tournament.display import (
    LiveDisplay,
    PlainDisplay,
    count,
    interval,
    plus_minus,
)
from tajmahal.arena.tournament.standings import Standings
from tajmahal.arena.tournament.stats import Estimate


def test_number_formats() -> None:
    e = Estimate(0.4123, 0.3712, 0.4534, 0.0411)
    assert interval(e, 3) == "0.412 [0.371, 0.453]"
    assert plus_minus(e, 3) == "0.412±0.041"
    assert interval(Estimate(1.5, None, None), 2) == "1.50"
    assert plus_minus(Estimate(math.nan, None, None), 1) == "-"
    assert (count(1, "deal"), count(3, "deal")) == ("1 deal", "3 deals")


def test_the_live_display_draws_a_bar_and_the_standings() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=100, color_system=None)
    plan = make_plan()
    standings = Standings(plan.entrants)
    with LiveDisplay(console) as live:
        live.started(plan, standings, resumed=0)
        for game in hand_games():
            standings.add(game)
            live.finished(game, standings)
        live._show(standings)
        live.failed(7, "Traceback ...\nOSError: disk full")
    text = out.getvalue()
    assert "6/6" in text and "games/min" in text
    assert "win share" in text and "0.750±0.621" in text  # the hand example's A
    assert "game 7 could not be played: OSError: disk full" in text
    assert "game 0: 1. a 50, 2. b 40" in text  # each finished game, above the bar


def test_plain_lines_about_ten_times_then_at_the_end() -> None:
    out, err = io.StringIO(), io.StringIO()
    plan = make_plan(deals=12)  # 24 games: a line every 3 games
    standings = Standings(plan.entrants)
    plain = PlainDisplay(Console(file=out, width=160), Console(file=err, width=160))
    plain.started(plan, standings, resumed=4)
    games = hand_games()
    for n in range(20):
        standings.add(games[n % 6])
        plain.finished(games[n % 6], standings)
    printed = out.getvalue().splitlines()
    lines = [line for line in printed if line.startswith("[")]
    assert [line[:7] for line in lines] == [
        "[ 6/24]", "[ 9/24]", "[12/24]", "[15/24]", "[18/24]", "[21/24]", "[24/24]"]
    # and a line per game, before the progress line it completes (the hand
    # example's game 3: B, at seat 0, wins 55 to 35 but times out)
    finished = [line for line in printed if line.startswith("game ")]
    assert len(finished) == 20 and printed[printed.index(lines[0]) - 1] == finished[1]
    assert finished[3] == "game 3: 1. a 55, 2. b 35; b timeout"
    assert "win share: a 0.750, b 0.250" in lines[-1]
    plain.failed(3, "boom")
    assert err.getvalue() == "game 3 could not be played: boom\n"
