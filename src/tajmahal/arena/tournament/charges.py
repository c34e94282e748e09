"""What a tournament believes about a game, and what it charges when it cannot.

A result counts only when the game's record is on disk where the tournament put
it and replays to that result (:func:`check_result`): a worker's pipe is not
trusted, since a bot running as the same user may write into it or take the
worker over.  A game that could not be finished (its worker died, was stopped,
wrote something that is not its outcome, or its result did not match its
record) is *lost*: it is charged, as a fault of kind :data:`LOST` and a loss, to
every seat that could have caused it (:func:`suspects`: the seats played by a
separate program outside the sandbox; a built-in bot runs inside the referee,
and a sandboxed one sees no process but its own: neither can).  The other seats
share the win.  A lost game is journaled like any other, so it is never played
again: a bot that spoils its game whenever it is losing cannot draw again, and
it is listed under :func:`lost_games` in the standings.  A game that no bot can
have spoiled is played again instead.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any, Final

from ..game import AnyGame
from ..record import SETUP_SEED, RecordError, record_ends
from ..replayer import replay
from ..text import printable, quote
from .journal import Finished, TournamentDir
from .plan import Plan
from .schedule import Slot

#: The fault kind of a seat charged with a game that could not be finished.
LOST: Final = "lost"
#: What a record that did not match its result is renamed to (kept for a look).
REJECTED_SUFFIX: Final = ".rejected"


def suspects(plan: Plan, slot: Slot, builtins: Collection[str]) -> tuple[int, ...]:
    """The seats of ``slot`` whose bot could have killed, stopped or spoiled the
    game's worker: those played by a separate program (not one of the game's
    ``builtins``, which run inside the referee), unless the plan sandboxes them
    (a sandboxed bot sees no process but its own: the game is then played again,
    as when no bot is suspect)."""
    if plan.sandbox:
        return ()
    return tuple(
        seat
        for seat, entrant in enumerate(slot.seating)
        if plan.entrants[entrant].bot not in builtins
    )


def lost_result(players: int, charged: Sequence[int], why: str) -> dict[str, Any]:
    """The result journaled for a game that could not be finished: each ``charged``
    seat has a :data:`LOST` fault and the last rank; the others share rank 1 (and
    the win).  There are no scores and no decisions to count."""
    last = players
    detail = f"the game could not be finished: {printable(why, limit=300)}"
    return {
        "lost": detail,
        "scores": [None] * players,
        "ranks": [last if seat in charged else 1 for seat in range(players)],
        "faults": [
            {"seat": seat, "kind": LOST, "phase": "game", "decision": 0, "at": 0.0,
             "detail": detail}
            for seat in charged
        ],
        "seats": [
            {"seat": seat, "decisions": 0, "fallback_decisions": 0, "time_used": 0.0}
            for seat in range(players)
        ],
        "record": None,
        "logs": [],
    }


def charged_seats(result: dict[str, Any]) -> set[int]:
    """The seats a lost game is charged to (none for a game played to its end)."""
    if not result.get("lost"):
        return set()
    return {f["seat"] for f in result["faults"] if f.get("kind") == LOST}


def is_lost(game: Finished) -> bool:
    return bool(game.result.get("lost"))


def lost_games(games: Sequence[Finished], names: Sequence[str]) -> list[dict[str, Any]]:
    """The lost games among ``games``, in schedule order: number, the entrants
    charged, and why (for ``standings.json``)."""
    listed = []
    for game in sorted(games, key=lambda g: g.number):
        if is_lost(game):
            charged = sorted(charged_seats(game.result))
            listed.append(
                {
                    "game": game.number,
                    "charged": [names[game.seating[seat]] for seat in charged],
                    "why": game.result["lost"],
                }
            )
    return listed


def audit(game: AnyGame, store: TournamentDir) -> dict[int, str]:
    """Settle the journal's unsealed lines (see :mod:`.journal`): each game played
    to its end whose record replays to its line is counted (and sealed again);
    the others, and every unsealed lost game (it has no record to replay), are
    taken out of the journal, to be played again.  Returns those (number: why)."""
    if not store.unsealed:
        return {}
    doubted = {}
    for entry in list(store.unsealed):
        if entry.result.get("lost"):
            doubted[entry.number] = "a lost game whose line is not sealed"
            continue
        problem = check_result(game, store, entry.slot, entry.result)
        if problem is None:
            store.vouch(entry)
        else:
            doubted[entry.number] = problem
    store.settle(doubted)
    return doubted


def check_result(
    game: AnyGame,
    store: TournamentDir,
    slot: Slot,
    result: dict[str, Any],
    replayed: bool = True,
) -> str | None:
    """Why ``result`` (as a worker reported it) cannot be believed for ``slot``;
    None when the game's record is where this tournament put it and says the
    same (:func:`record_mismatch`; ``replayed``: the record is replayed too).  A
    record that does not match is renamed aside (``.rejected``)."""
    path = store.record_path(slot.number)
    bots = [store.plan.entrants[e].bot for e in slot.seating]
    problem = record_mismatch(
        game, path, slot.seed, bots, store.plan.variant, result, replayed,
        setup_seed=store.setup_seed(slot.seed),
    )
    if problem is not None and path.exists():
        with contextlib.suppress(OSError):
            os.replace(path, path.with_name(path.name + REJECTED_SUFFIX))
    return problem


def record_mismatch(
    game: AnyGame,
    path: Path,
    seed: int,
    bots: Sequence[str],
    variant: str | None,
    result: dict[str, Any],
    replayed: bool = True,
    setup_seed: int | None = None,
) -> str | None:
    """Why the record at ``path`` is not that of a game of ``seed`` between ``bots``
    (in seat order; ``variant`` None: any) that ended in ``result`` (as the referee
    reports it); None when it is.  ``replayed``: every action of the record is
    replayed too (:func:`~tajmahal.arena.replayer.replay`); else its header and
    result lines alone are read (what a worker that no bot can reach wrote).
    ``setup_seed``: the seed its setup was drawn from (None: ``seed`` itself)."""
    if not path.is_file():
        return f"a result came, but no record {path.name} is on disk"
    try:
        if replayed:
            done = replay(game, path, describe=False)
            header, recorded = done.header, done.result
        else:
            header, recorded = record_ends(path)
    except RecordError as e:
        return f"its record {path.name} does not replay: {e}"
    claimed_faults = result.get("faults")
    expected = {
        "seed": (header.get("seed"), seed),
        "setup seed": (
            header.get(SETUP_SEED, header.get("seed")), seed if setup_seed is None else setup_seed
        ),
        "bots": ([p.get("bot") for p in header.get("players", ())], list(bots)),
        "scores": (recorded.get("scores"), result.get("scores")),
        "ranks": (recorded.get("ranks"), result.get("ranks")),
        "decisions": (recorded.get("decisions"), result.get("decisions")),
        "faults": (_fault_keys(recorded.get("faults")), _fault_keys(claimed_faults)),
        "seats": (_seat_counts(recorded.get("players")), _seat_counts(result.get("seats"))),
    }
    if variant is not None:
        expected["variant"] = (header.get("variant"), variant)
    for what, (on_disk, reported) in expected.items():
        if on_disk != reported:
            return (
                f"the reported {what} {quote(reported, 120)} are not its record's "
                f"{quote(on_disk, 120)}"
            )
    return None


def _fault_keys(faults: Any) -> Any:
    """What the standings take from the faults: (seat, kind) pairs, sorted."""
    if not isinstance(faults, list) or not all(isinstance(f, dict) for f in faults):
        return faults
    return sorted((str(f.get("seat")), str(f.get("kind"))) for f in faults)


def _seat_counts(seats: Any) -> Any:
    """What the standings take from each seat: decisions, fallback decisions and
    time used (to the record's 4 decimals)."""
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        return seats
    counts = []
    for s in seats:
        used = s.get("time_used")
        used = round(used, 4) if isinstance(used, (int, float)) else used
        counts.append((s.get("decisions"), s.get("fallback_decisions"), used))
    return counts
