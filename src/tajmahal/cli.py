"""The ``tajmahal`` command line."""

from __future__ import annotations

import random

import click

from . import __version__
from .actions import action_text
from .rules import apply, breakdown, is_over, legal_actions, new_game, ranks, scores
from .setups import Setup
from .state import SCORE_SOURCES, State


def score_table(state: State, names: list[str]) -> str:
    """A plain-text table of each seat's score by source, with totals and ranks."""
    rows = [["seat", "player", *SCORE_SOURCES, "total", "rank"]]
    totals = scores(state)
    for seat, (score, rank) in enumerate(zip(breakdown(state), ranks(totals), strict=True)):
        parts = [str(getattr(score, s)) for s in SCORE_SOURCES]
        rows.append([str(seat), names[seat], *parts, str(score.total), str(rank)])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(
            c.rjust(w) if i != 1 else c.ljust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        )
        for r in rows
    ]
    lines.insert(1, "-" * len(lines[0]))
    return "\n".join(lines)


@click.group()
@click.version_option(__version__, prog_name="tajmahal")
def main() -> None:
    """Taj Mahal: rules engine, referee and tournaments for bots."""


@main.command()
@click.option("--players", "-n", type=click.IntRange(2, 5), default=4, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the deal.")
@click.option("--verbose", "-v", is_flag=True, help="Print every action.")
def play(players: int, seed: int, verbose: bool) -> None:
    """Play one game between in-process random players and print the scores."""
    setup = Setup.random(players, seed)
    state = new_game(setup)
    rng = random.Random(seed)
    names = ["random"] * players
    board = setup.board
    actions = 0
    while not is_over(state):
        action = rng.choice(legal_actions(state))
        if verbose:
            province = board.provinces[state.province]
            text = action_text(action, tuple(c.name for c in board.cities))
            click.echo(f"visit {state.visit:2} {province:10} seat {state.to_act}: {text}")
        state = apply(state, action)
        actions += 1
    click.echo(f"{players} players, seed {seed}: {actions} actions, 12 visits\n")
    click.echo(score_table(state, names))


def _register() -> None:
    """The referee's commands (implemented in :mod:`tajmahal.arena.commands`)."""
    from .arena.commands import match_command, replay_command
    from .arena.tournament.command import tournament_command
    from .games import GAMES

    main.add_command(match_command(GAMES))
    main.add_command(replay_command(GAMES))
    main.add_command(tournament_command(GAMES))


_register()
