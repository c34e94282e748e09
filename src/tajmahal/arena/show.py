"""``tajmahal show RECORD --step N``: one position of a game record, in the terminal.

The record is replayed (and checked) up to decision N; the command prints what
happened in that step and the position after it.  A game draws the position
through an optional ``terminal(state, names, seat)`` method returning a rich
renderable; without it the command prints the scores.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Final

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .game import AnyGame
from .options import game_option, load_game_option
from .record import RecordError, read_game_id, read_lines
from .registry import GameRegistry, UnknownGame, registry_of
from .replayer import replay
from .text import printable

#: ``--color``: rich's choice (a terminal; FORCE_COLOR, NO_COLOR), always, never.
COLOR_CHOICES: Final = ("auto", "always", "never")


def state_at(game: AnyGame, path: Path, step: int) -> tuple[Any, Any]:
    """The record's :class:`~tajmahal.arena.replayer.Replay` and its state after
    decision ``step`` (0: the start)."""
    done = replay(game, path)
    state = game.new_game(game.setup_from_data(done.header["setup"]))
    actions = [data for _, data in read_lines(path) if data.get("type") == "action"]
    for data in actions[:step]:
        legal = game.legal_actions(state)
        choice = data.get("choice")
        if choice is None:
            wanted = game.action_from_data(data["action"])
            choice = next(i for i, a in enumerate(legal) if a == wanted)
        state, _ = game.step(state, legal[choice])
    return done, state


def show_command(games: GameRegistry | AnyGame) -> click.Command:
    registry = registry_of(games)

    @click.command(name="show")
    @click.argument("record", type=click.Path(exists=True, dir_okay=False, path_type=Path))
    @click.option(
        "--step",
        "-s",
        type=int,
        help="The decision after which to show the game (0: the start; negative: "
        "from the end) [default: the end].",
    )
    @click.option("--seat", type=int, help="Show only what this seat saw (its hand, no other).")
    @game_option(registry, "the one named in the record")
    @click.option(
        "--color",
        type=click.Choice(COLOR_CHOICES),
        default="auto",
        show_default=True,
        help="Colours (the cards'): on a terminal only (auto, which also follows the "
        "FORCE_COLOR and NO_COLOR variables), or always (through a pipe: less -R), or never.",
    )
    def show(
        record: Path, step: int | None, seat: int | None, game_name: str | None, color: str
    ) -> None:
        """Show the position of a game record after one decision, in the terminal.

        \b
        Example:
          tajmahal show runs/g.jsonl --step 40 --seat 1
          tajmahal show runs/g.jsonl --color always | less -R
        """
        try:
            game = (
                registry.by_id(read_game_id(record))
                if game_name is None
                else load_game_option(registry, game_name)
            )
            done = replay(game, record, describe=True)
        except (UnknownGame, RecordError) as e:
            click.echo(printable(f"{record}: MISMATCH: {e}"), err=True)
            sys.exit(1)
        total = len(done.steps)
        chosen = total if step is None else (step if step >= 0 else total + 1 + step)
        if not 0 <= chosen <= total:
            raise click.BadParameter(
                f"the record has decisions 0 to {total}, not {step}", param_hint="--step"
            )
        names = [printable(n) for n in done.names]
        if seat is not None and not 0 <= seat < len(names):
            raise click.BadParameter(f"no seat {seat} among {len(names)}", param_hint="--seat")
        _, state = state_at(game, record, chosen)
        console = Console(
            highlight=False,
            markup=False,
            emoji=False,
            force_terminal={"always": True, "never": False}.get(color),
            color_system=None if color == "never" else "auto",
        )
        header = done.header
        console.print(
            Text(
                f"{game.title}, {len(names)} players ({header.get('variant')}), seed "
                f"{header.get('seed')}: decision {chosen} of {total}",
                style="bold",
            )
        )
        if chosen:
            taken = done.steps[chosen - 1]
            tag = " [fallback]" if taken.by == "fallback" else ""
            console.print(f"{names[taken.seat]} (seat {taken.seat}): {taken.action_text}{tag}")
            if taken.fault is not None:
                console.print(
                    printable(
                        f"!! seat {taken.fault.get('seat')} faulted ({taken.fault.get('kind')}): "
                        f"{taken.fault.get('detail')}"
                    ),
                    style="bold red",
                )
            for line in taken.lines:
                console.print("  " + printable(line.removeprefix("# ")), style="dim")
        position = game.terminal(state, names, seat)
        if position is not None:
            console.print(position)
            return
        table = Table(box=None, pad_edge=False, header_style="bold")
        table.add_column("seat", justify="right")
        table.add_column("player")
        table.add_column("score", justify="right")
        for k, (name, score) in enumerate(zip(names, game.scores(state), strict=True)):
            table.add_row(str(k), name, str(score))
        console.print(table)

    return show
