"""``ladder verify``: the database and the records, each checked against the other.

- every finished game's record is where the database says, with the SHA-256 it
  holds, and replays (as ``replay --verify`` does) to the seed, the bots'
  commands and the seats' scores, ranks, faults and decisions in the database;
- every record in ``games/`` belongs to a finished game (a record of a game
  still scheduled was left by a run that was stopped: noted, not a problem);
- the ratings: the rated games re-rated from scratch in slot order give exactly
  the rating history and the ratings the database holds, and no slot below
  the rated ones is missing;
- the head-to-head sums the database keeps for each pair of bots
  (:mod:`.meetings`) are those of its finished rated games.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from attrs import define, field
from sqlalchemy import select

from ..game import AnyGame
from ..tournament.charges import record_mismatch
from .database import Database
from .meetings import counted, kept
from .rating import INITIAL, Totals, game_credits, rate
from .schedule import rated_prefix
from .schema import FINISHED, SCHEDULED, VOID, games, rating_history, ratings, seats, versions
from .store import LadderDir


@define
class Verified:
    records: int = 0
    rated: int = 0
    problems: list[str] = field(factory=list)
    notes: list[str] = field(factory=list)

    def to_data(self) -> dict[str, Any]:
        return {"ok": not self.problems, "records": self.records, "rated": self.rated,
                "problems": self.problems, "notes": self.notes}


def verify(db: Database, place: LadderDir, game: AnyGame, settings: Mapping[str, Any]
           ) -> Verified:
    found = Verified()
    with db.read() as conn:
        commands = dict(conn.execute(select(versions.c.id, versions.c.command)).all())
        rows = conn.execute(select(games).order_by(games.c.id)).all()
        seated: dict[int, list[Any]] = {}
        for s in conn.execute(select(seats).order_by(seats.c.game_id, seats.c.seat)):
            seated.setdefault(s.game_id, []).append(s)
        history = {(h.slot, h.version_id): h for h in conn.execute(select(rating_history))}
        stored = {r.version_id: r for r in conn.execute(select(ratings))}
        rated_slots = rated_prefix(conn)
        _check_meetings(found, kept(conn), counted(conn))
    known: dict[str, Any] = {}
    for row in rows:
        if row.record is not None:
            known[row.record] = row
        if row.status == FINISHED:
            _check_record(found, place, game, settings, row, seated.get(row.id, []), commands)
    for path in sorted(place.games_dir.glob("*.jsonl")):
        relative = f"{place.games_dir.name}/{path.name}"
        if relative in known:
            continue
        owner = next((r for r in rows if f"{r.id:06d}" == path.stem), None)
        if owner is not None and owner.status == SCHEDULED:
            found.notes.append(f"{relative}: left by a run that was stopped; game {owner.id} is "
                               "played again and replaces it")
        else:
            found.problems.append(f"{relative}: a record that no finished game of the database "
                                  "has")
    _check_ratings(found, rows, seated, history, stored, rated_slots)
    return found


def _check_record(found: Verified, place: LadderDir, game: AnyGame, settings: Mapping[str, Any],
                  row: Any, seated: list[Any], commands: Mapping[int, str]) -> None:
    where = f"game {row.id}"
    if not row.record:
        found.problems.append(f"{where}: finished, but the database has no record for it")
        return
    path = place.root / row.record
    found.records += 1
    try:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as e:
        found.problems.append(f"{where}: its record {row.record} cannot be read "
                              f"({e.strerror or e})")
        return
    if digest != row.record_sha256:
        found.problems.append(f"{where}: its record {row.record} is not the one the database "
                              "holds (its SHA-256 differs)")
        return
    result = {
        "scores": [s.score for s in seated],
        "ranks": [s.rank for s in seated],
        "decisions": row.decisions,
        "faults": [{"seat": s.seat, "kind": s.fault} for s in seated if s.fault],
        "seats": [{"decisions": s.decisions, "fallback_decisions": s.fallback_decisions,
                   "time_used": s.time_used} for s in seated],
    }
    bots = [commands[s.version_id] for s in seated]
    problem = record_mismatch(game, path, row.seed, bots, settings["variant"], result)
    if problem is not None:
        found.problems.append(f"{where}: {problem}")


def _check_ratings(found: Verified, rows: Sequence[Any], seated: Mapping[int, list[Any]],
                   history: Mapping[tuple[int, int], Any], stored: Mapping[int, Any],
                   rated_slots: int) -> None:
    by_slot = {r.slot: r for r in rows if r.slot is not None}
    totals: dict[int, Totals] = {}
    expected_history: set[tuple[int, int]] = set()
    for slot in range(rated_slots):
        row = by_slot.get(slot)
        if row is None or row.status not in (FINISHED, VOID):
            found.problems.append(f"slot {slot} is counted as rated, but its game is not "
                                  "finished")
            return
        if row.status == VOID:
            continue
        found.rated += 1
        game_seats = seated[row.id]
        ranks = [s.rank for s in game_seats]
        credits = game_credits({"ranks": ranks, "faults": [
            {"seat": s.seat, "kind": s.fault} for s in game_seats if s.fault]})
        before = [totals.setdefault(s.version_id, Totals(*INITIAL)) for s in game_seats]
        after = rate([(t.mu, t.sigma) for t in before], ranks)
        for seat, (s, (mu, sigma)) in enumerate(zip(game_seats, after, strict=True)):
            t = totals[s.version_id]
            t.mu, t.sigma, t.games, t.last_game = mu, sigma, t.games + 1, row.id
            t.wins += credits[seat]
            t.rank_sum += s.rank
            t.faults += s.fault is not None
            kept = history.get((slot, s.version_id))
            expected_history.add((slot, s.version_id))
            if kept is None or (kept.mu, kept.sigma, kept.game_id) != (mu, sigma, row.id):
                found.problems.append(
                    f"slot {slot} (game {row.id}): the rating history of version "
                    f"{s.version_id} is not what re-rating the games gives")
    extra = sorted(set(history) - expected_history)
    if extra:
        found.problems.append(f"the rating history has {len(extra)} entries for games not "
                              f"rated (first: slot {extra[0][0]})")
    for version, kept in stored.items():
        t = totals.get(version, Totals(*INITIAL))
        now = (kept.mu, kept.sigma, kept.games, kept.wins, kept.rank_sum, kept.faults,
               kept.last_game)
        if now != (t.mu, t.sigma, t.games, t.wins, t.rank_sum, t.faults, t.last_game):
            found.problems.append(f"version {version}: its rating and totals are not what "
                                  "re-rating the games gives")


def _check_meetings(found: Verified, kept: Mapping[tuple[int, int], list[Any]],
                    counted: Mapping[tuple[int, int], list[Any]]) -> None:
    wrong = sorted(p for p in set(kept) | set(counted) if kept.get(p) != counted.get(p))
    if wrong:
        bot, other = wrong[0]
        found.problems.append(
            f"the head-to-head sums of {len(wrong)} pairs of bots are not those of their "
            f"games (first: bot {bot} against bot {other})")
