"""``ladder run``: plays the ladder's games through an executor, as the tournament
does, and writes each game's end into the database as one transaction.

Requested games go first, then the rated schedule in slot order
(:mod:`.schedule`).  A game counts once its transaction is committed: its
record is on disk by then (the referee renames it into place, synced), its
result and seats are in the database, and so is every rated game before it in
the schedule, with its ratings.  A game under way when the runner is killed
has no committed end: the next ``ladder run`` plays it again (its half-written
record is discarded).  So nothing is lost or counted twice, and ratings are
those of the schedule, whatever the interruptions.

Every program bot runs in the sandbox: no bot can reach the worker that plays
its game, so the worker's word is believed once the record's header and result
lines say the same (``ladder verify`` replays every record).  A game that could
not be played (its worker lost, a node lost on Ray) is played again, up to
:data:`~.tournament.runner.RETRIES` more times; then it is void (kept, with its
error, and skipped by the ratings) - the tournament plays such a game again
too, since a sandboxed bot cannot have caused the loss.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import time
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final, Protocol

from attrs import define, frozen
from sqlalchemy import Connection, bindparam, select, update

from ..game import AnyGame
from ..live import LiveFolder
from ..terms import TimeControl
from ..tournament.charges import record_mismatch
from ..tournament.executor import Executor, ExecutorLost, GameOutcome, GameTask
from ..tournament.runner import RETRIES
from .database import Database, LadderError, now
from .meetings import count_game
from .rating import INITIAL, Totals, game_credits, rate
from .schedule import Planned, Planner, rated_prefix
from .schema import (
    FINISHED,
    SCHEDULED,
    VOID,
    bots,
    games,
    rating_history,
    ratings,
    seats,
    versions,
)
from .store import LadderDir, relative, remove_partial_records

#: Seconds between two looks for requested games and new bots.
POLL: Final = 1.0

# The statements of every game's end, built once (SQLAlchemy then reuses their
# compiled form: building them anew for each game would cost more than the rest).
_FINISH = update(games).where(games.c.id == bindparam("g"), games.c.status == SCHEDULED).values(
    status=FINISHED, finished=bindparam("finished"), record=bindparam("record"),
    record_sha256=bindparam("sha256"), decisions=bindparam("decisions"),
    duration=bindparam("duration"), error=None,
)
_SEATS = (
    update(seats)
    .where(seats.c.game_id == bindparam("g"), seats.c.seat == bindparam("s"))
    .values(score=bindparam("score"), rank=bindparam("rank"), fault=bindparam("fault"),
            decisions=bindparam("decisions"), fallback_decisions=bindparam("fallbacks"),
            time_used=bindparam("time"), log=bindparam("log"))
)
_HISTORY = rating_history.insert()
_RATINGS = update(ratings).where(ratings.c.version_id == bindparam("v")).values(
    mu=bindparam("mu"), sigma=bindparam("sigma"), games=bindparam("games"),
    wins=bindparam("wins"), rank_sum=bindparam("rank_sum"), faults=bindparam("faults"),
    last_game=bindparam("last_game"),
)


@frozen
class Version:
    """What the runner needs of a version: who it is and how it starts."""

    id: int
    bot: str
    number: int
    command: str
    builtin: bool
    digest: str

    @property
    def label(self) -> str:
        return f"{self.bot}@{self.number}"


@frozen
class GameEnd:
    """A game's end as the runner saw it (for progress displays)."""

    id: int
    slot: int | None
    names: tuple[str, ...]
    ranks: tuple[int, ...] | None
    error: str | None = None
    void: bool = False


class Listener(Protocol):
    def ended(self, end: GameEnd) -> None:
        """A game's end was committed (or it could not be played)."""


@frozen
class RunReport:
    """How a run went: games finished in it, failures (played again), games made
    void, whether it was interrupted, why the executor or database stopped it
    (``lost``), why it waited (``idle``: too few bots), and its seconds."""

    finished: int
    failed: int
    void: int
    interrupted: bool
    lost: str | None
    idle: str | None
    seconds: float


@define
class Ladder:
    """The runner's view of the ladder: what is scheduled, under way, and rated."""

    db: Database
    place: LadderDir
    game: AnyGame
    settings: dict[str, Any]
    planner: Planner
    versions: dict[int, Version]
    totals: dict[int, Totals]
    pending: dict[int, Planned]
    requested: deque[int]
    rated: deque[int]
    under_way: dict[int, Planned]
    #: Rated games finished (or void) whose slot is not rated yet: slot -> (game, ranks).
    done: dict[int, tuple[Planned, tuple[int, ...] | None, list[float], set[int]]]
    rated_slots: int
    last_seen: int
    #: The live files of the games under way (spectators: :mod:`~tajmahal.arena.live`).
    live: LiveFolder

    @classmethod
    def load(cls, db: Database, place: LadderDir, game: AnyGame) -> Ladder:
        settings = db.settings()
        with db.read() as conn:
            planner = Planner.load(conn, settings)
            totals = {
                int(r.version_id): Totals(r.mu, r.sigma, r.games, r.wins, r.rank_sum, r.faults,
                                          r.last_game)
                for r in conn.execute(select(ratings))
            }
            state = cls(
                db, place, game, settings, planner, {}, totals, {}, deque(), deque(), {}, {},
                0, 0, LiveFolder(place.live_dir),
            )
            state.rated_slots = rated_prefix(conn)
            state.refresh_versions(conn)
            state.take_scheduled(conn)
            state.take_unrated(conn)
        return state

    def refresh_versions(self, conn: Connection) -> None:
        rows = conn.execute(
            select(versions.c.id, bots.c.name, versions.c.number, versions.c.command,
                   versions.c.builtin, versions.c.digest)
            .join(bots, bots.c.id == versions.c.bot_id)
        )
        self.versions = {int(r.id): Version(int(r.id), r.name, r.number, r.command,
                                            bool(r.builtin), r.digest) for r in rows}

    def take_scheduled(self, conn: Connection) -> None:
        """Queue the scheduled games not seen yet (those of requests come first)."""
        rows = conn.execute(
            select(games.c.id, games.c.slot, games.c.seed, games.c.tries)
            .where(games.c.status == SCHEDULED, games.c.id > self.last_seen)
            .order_by(games.c.id)
        ).all()
        if not rows:
            return
        seated: dict[int, list[int]] = {}
        for game_id, version in conn.execute(
            select(seats.c.game_id, seats.c.version_id)
            .where(seats.c.game_id >= rows[0].id)
            .order_by(seats.c.game_id, seats.c.seat)
        ):
            seated.setdefault(game_id, []).append(version)
        if any(v not in self.versions for s in seated.values() for v in s):
            self.refresh_versions(conn)
        for row in rows:
            self.queue(Planned(row.id, row.slot, row.seed, tuple(seated[row.id])))
            self.last_seen = max(self.last_seen, row.id)
        self.rated = deque(sorted(self.rated, key=self._slot))

    def queue(self, game: Planned) -> None:
        self.pending[game.id] = game
        (self.requested if game.slot is None else self.rated).append(game.id)

    def take_unrated(self, conn: Connection) -> None:
        """The rated games finished (or void) after a gap in the slots, not rated yet."""
        rows = conn.execute(
            select(games.c.id, games.c.slot, games.c.seed, games.c.status)
            .where(games.c.slot >= self.rated_slots, games.c.status != SCHEDULED)
        ).all()
        for row in rows:
            found = conn.execute(
                select(seats.c.version_id, seats.c.rank, seats.c.fault)
                .where(seats.c.game_id == row.id).order_by(seats.c.seat)
            ).all()
            seating = tuple(int(s.version_id) for s in found)
            game = Planned(row.id, row.slot, row.seed, seating)
            if row.status == VOID:
                self.done[row.slot] = (game, None, [], set())
            else:
                ranks = tuple(int(s.rank) for s in found)
                faulted = {i for i, s in enumerate(found) if s.fault is not None}
                result = {"ranks": list(ranks), "faults": [
                    {"seat": i, "kind": s.fault} for i, s in enumerate(found) if s.fault]}
                self.done[row.slot] = (game, ranks, game_credits(result), faulted)

    # -- what to play next

    def next_game(self) -> Planned | None:
        """The next game to hand out (requested ones first), planning a round when
        the schedule has none ready and may; None if there is none now."""
        for queue in (self.requested, self.rated):
            while queue:
                game_id = queue.popleft()
                if game_id in self.pending:
                    return self.pending.pop(game_id)
        if self.rated_slots >= self.planner.basis():
            with self.db.write() as conn:
                planned = self.planner.plan_round(conn)
                if planned:
                    self.refresh_versions(conn)
            for game in planned:
                self.last_seen = max(self.last_seen, game.id)
                self.queue(game)
            if planned:
                return self.next_game()
        return None

    def task(self, game: Planned) -> GameTask:
        s = self.settings
        seated = [self.versions[v] for v in game.seating]
        homes = tuple(None if v.builtin else str(self.place.version_dir(v.digest))
                      for v in seated)
        return GameTask(
            number=game.id,
            seed=game.seed,
            bots=tuple(v.command for v in seated),
            time=(TimeControl(s["time_move"], s["time_bank"]),) * len(seated),
            variant=s["variant"],
            handshake=s["handshake"],
            grace=s["grace"],
            max_line=s["max_line"],
            max_log=s["max_log"],
            batch_events=True,
            record=str(self.place.record_path(game.id)),
            log_dir=str(self.place.log_dir),
            sandbox=any(h is not None for h in homes),
            memory=s["memory"],
            seat_key=seat_key(s["secret"], game.id).hex(),
            homes=homes,
            live=str(self.place.live_path(game.id)),
            names=self.names(game),
        )

    def names(self, game: Planned) -> tuple[str, ...]:
        return tuple(self.versions[v].label for v in game.seating)

    # -- a game's end

    def settle(self, outcome: GameOutcome) -> GameEnd | None:
        """Write the end of the game of ``outcome`` (one transaction)."""
        game = self.under_way.pop(outcome.number, None)
        if game is None:  # not handed out by this run: never counted
            return None
        self.live.game_ended(self.place.live_path(game.id))
        result = outcome.result
        error = outcome.error if result is None else self.disbelief(game, result)
        with self.db.write() as conn:
            if error is not None:
                return self.failed(conn, game, error)
            assert result is not None
            record = self.place.record_path(game.id)
            digest = hashlib.sha256(record.read_bytes()).hexdigest()
            written = conn.execute(_FINISH, {
                "g": game.id, "finished": now(), "record": self.place.record_relative(game.id),
                "sha256": digest, "decisions": result["decisions"],
                "duration": result["duration"],
            })
            if written.rowcount != 1:  # finished already (by another runner's hand)
                return None
            faults = {f["seat"]: f["kind"] for f in result["faults"]}
            logs = {_seat_of(p): relative(self.place, p) for p in result["logs"]}
            conn.execute(
                _SEATS,
                [
                    {"g": game.id, "s": i, "score": result["scores"][i],
                     "rank": result["ranks"][i], "fault": faults.get(i),
                     "decisions": info["decisions"], "fallbacks": info["fallback_decisions"],
                     "time": info["time_used"], "log": logs.get(i)}
                    for i, info in enumerate(result["seats"])
                ],
            )
            ranks = tuple(result["ranks"])
            if game.slot is not None:
                count_game(conn, game.id)
                self.done[game.slot] = (game, ranks, game_credits(result), set(faults))
                self.rate_prefix(conn)
        return GameEnd(game.id, game.slot, self.names(game), ranks)

    def disbelief(self, game: Planned, result: dict[str, Any]) -> str | None:
        bots_ = [self.versions[v].command for v in game.seating]
        problem = record_mismatch(self.game, self.place.record_path(game.id), game.seed, bots_,
                                  self.settings["variant"], result, replayed=False)
        return None if problem is None else f"its result is not believed: {problem}"

    def failed(self, conn: Connection, game: Planned, error: str) -> GameEnd:
        """A game that could not be played: tried again, or void after the retries."""
        tries = 1 + int(conn.execute(select(games.c.tries).where(games.c.id == game.id)
                                     ).scalar() or 0)
        void = tries > RETRIES
        conn.execute(update(games).where(games.c.id == game.id).values(
            tries=tries, error=error[-4000:], status=VOID if void else SCHEDULED,
            finished=now() if void else None))
        if void:
            if game.slot is not None:
                self.done[game.slot] = (game, None, [], set())
                self.rate_prefix(conn)
        else:
            self.pending[game.id] = game
            (self.requested if game.slot is None else self.rated).appendleft(game.id)
        return GameEnd(game.id, game.slot, self.names(game), None, error, void)

    def rate_prefix(self, conn: Connection) -> None:
        """Rate the finished games of the slots that follow the rated ones."""
        history: list[dict[str, Any]] = []
        changed: set[int] = set()
        while self.rated_slots in self.done:
            game, ranks, credits, faulted = self.done.pop(self.rated_slots)
            if ranks is not None:
                before = [self._totals(v) for v in game.seating]
                after = rate([(t.mu, t.sigma) for t in before], ranks)
                for seat, (version, (mu, sigma)) in enumerate(
                        zip(game.seating, after, strict=True)):
                    t = self.totals[version]
                    t.mu, t.sigma, t.games, t.last_game = mu, sigma, t.games + 1, game.id
                    t.wins += credits[seat]
                    t.rank_sum += ranks[seat]
                    t.faults += seat in faulted
                    changed.add(version)
                    history.append({"slot": self.rated_slots, "version_id": version,
                                    "game_id": game.id, "mu": mu, "sigma": sigma})
            self.rated_slots += 1
            self.planner.remember(self.rated_slots, self.totals)
        if history:
            conn.execute(_HISTORY, history)
            conn.execute(_RATINGS, [self.totals[v].row(v) for v in sorted(changed)])

    def _totals(self, version: int) -> Totals:
        if version not in self.totals:
            self.totals[version] = Totals(*INITIAL)
        return self.totals[version]

    def requeue(self, stopped: list[Planned]) -> None:
        """Games stopped under way: first in line again, in slot order."""
        for game in stopped:
            self.queue(game)
        self.rated = deque(sorted(self.rated, key=self._slot))

    def _slot(self, game_id: int) -> int:
        found = self.pending.get(game_id)
        return -1 if found is None or found.slot is None else found.slot


def seat_key(secret: str, game: int) -> bytes:
    """The secret the seeds told to the bots of ``game`` are made with: from the
    ladder's own secret, so that a game played again (after a stopped run) tells
    the same seeds, and no bot can work them out (see ``MatchConfig.seat_key``)."""
    return hmac.new(bytes.fromhex(secret), f"seat seeds of game {game}".encode(),
                    "sha256").digest()


def _seat_of(log: str) -> int:
    """The seat of a log ``NNNNNN.seatS.log``."""
    return int(Path(log).name.rsplit(".seat", 1)[1].split(".")[0])


def run_ladder(
    state: Ladder,
    executor: Executor,
    listener: Listener | None = None,
    limit: int | None = None,
    wait: bool = False,
) -> RunReport:
    """Play the ladder's games: ``limit`` of them (None: until interrupted).  With
    too few bots to play, wait for more (``wait``) or stop."""
    counts = {"finished": 0, "failed": 0, "void": 0}
    start = time.monotonic()
    interrupted, lost, idle = False, None, None
    remove_partial_records(state.place)
    state.live.clear()
    try:
        with state.db.holding():
            idle = _run(state, executor, listener, limit, wait, counts)
    except KeyboardInterrupt:
        interrupted = True
    except ExecutorLost as e:
        interrupted, lost = True, str(e)
    except LadderError as e:  # the database went away: stop, lose nothing
        interrupted, lost = True, str(e)
    remove_partial_records(state.place)
    return RunReport(counts["finished"], counts["failed"], counts["void"], interrupted, lost,
                     idle, time.monotonic() - start)


def _run(
    state: Ladder,
    executor: Executor,
    listener: Listener | None,
    limit: int | None,
    wait: bool,
    counts: dict[str, int],
) -> str | None:
    """Passes of the executor until the limit; why it stopped short (too few bots)."""
    while True:
        stalled = _play(state, executor, listener, limit, counts)
        if limit is not None and counts["finished"] + counts["void"] >= limit:
            return None
        if stalled is None:
            continue
        if not wait:
            return stalled
        time.sleep(POLL)


def _play(
    state: Ladder,
    executor: Executor,
    listener: Listener | None,
    limit: int | None,
    counts: dict[str, int],
) -> str | None:
    """One pass of the executor; why it ran out of games (None: the limit came)."""
    why: list[str] = []

    def tasks() -> Iterator[GameTask | None]:
        looked = time.monotonic()
        while limit is None or counts["finished"] + counts["void"] + len(state.under_way) < limit:
            if time.monotonic() - looked >= POLL:
                looked = time.monotonic()
                with state.db.read() as conn:
                    state.take_scheduled(conn)
            game = state.next_game()
            if game is None:
                if not state.under_way:
                    why.append(f"fewer than {state.settings['players']} bots to play")
                    return
                yield None
                continue
            state.under_way[game.id] = game
            yield state.task(game)

    try:
        with contextlib.closing(executor.run(tasks())) as outcomes:
            for outcome in outcomes:
                end = state.settle(outcome)
                if end is None:
                    continue
                key = "void" if end.void else "failed" if end.error else "finished"
                counts[key] += 1
                if listener is not None:
                    listener.ended(end)
    finally:
        state.requeue(list(state.under_way.values()))  # stopped: played again first
        state.under_way.clear()
    return why[0] if why else None
