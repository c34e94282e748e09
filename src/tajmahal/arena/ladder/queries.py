"""What the ladder's reading commands and its HTTP API show, as JSON-ready data
(one home for each view: the CLI prints it as a table or as JSON, the API
sends it; the shapes are those of ``schemas/*.schema.json``).

Nothing here reveals what a bot could use against another: a game's seed (it
deals the cards) only once the game is finished, when its record tells it
anyway; the bots' logs are not here at all (their owners read them through the
API).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from sqlalchemy import Connection, bindparam, desc, func, select
from sqlalchemy.sql import Select

from ..text import printable
from ..tournament.standings import RATING_Z
from .charts import thinned
from .database import LadderError
from .meetings import estimate
from .schedule import rated_prefix
from .schema import (
    FINISHED,
    RATED,
    SCHEDULED,
    bots,
    games,
    meetings,
    owners,
    rating_history,
    ratings,
    requests,
    seats,
    versions,
)

#: Games listed at most at once.
MAX_LIMIT: Final = 500


def _interval(mu: float, sigma: float) -> dict[str, float]:
    return {
        "mu": round(mu, 3),
        "sigma": round(sigma, 3),
        "low": round(mu - RATING_Z * sigma, 3),
        "high": round(mu + RATING_Z * sigma, 3),
    }


def summary(conn: Connection, settings: dict[str, Any]) -> dict[str, Any]:
    """The ladder: its game, players, limits, and how many games it has."""
    counts: dict[str, int] = dict(
        conn.execute(select(games.c.status, func.count()).group_by(games.c.status)).all())
    active = conn.execute(
        select(func.count()).select_from(bots).where(bots.c.retired.is_(None))).scalar()
    return {
        "game": settings["game"],
        "players": settings["players"],
        "max_players": settings["max_players"],
        "variant": settings["variant"],
        "duplicate": bool(settings["duplicate"]),
        "round_games": settings["round_games"],
        "placement": settings["placement"],
        "time": {"move": settings["time_move"], "bank": settings["time_bank"]},
        "created": settings["created"],
        "bots": int(active or 0),
        "games": {k: int(counts.get(k, 0)) for k in (FINISHED, SCHEDULED, "void")},
        "rated_slots": rated_prefix(conn),
    }


def _standing_query() -> Select[Any]:
    return (
        select(
            bots.c.name, versions.c.number, versions.c.id, owners.c.name.label("owner"),
            bots.c.retired, versions.c.current, ratings.c.mu, ratings.c.sigma,
            ratings.c.games, ratings.c.wins, ratings.c.rank_sum, ratings.c.faults,
            ratings.c.last_game,
        )
        .select_from(versions)
        .join(bots, bots.c.id == versions.c.bot_id)
        .join(ratings, ratings.c.version_id == versions.c.id)
        .outerjoin(owners, owners.c.id == bots.c.owner_id)
    )


def _standing(row: Any) -> dict[str, Any]:
    games_ = int(row.games)
    return {
        "bot": row.name,
        "version": row.number,
        "owner": row.owner,
        "active": bool(row.current) and row.retired is None,
        "rating": _interval(row.mu, row.sigma),
        "games": games_,
        "win_share": round(row.wins / games_, 4) if games_ else None,
        "mean_rank": round(row.rank_sum / games_, 3) if games_ else None,
        "fault_games": int(row.faults),
        "last_game": row.last_game,
    }


def standings(conn: Connection, every_version: bool = False) -> list[dict[str, Any]]:
    """The current version of each bot in play (``every_version``: every version
    of every bot), best first: by the low end of the rating's interval, then
    its mean, then the name."""
    query = _standing_query()
    if not every_version:
        query = query.where(versions.c.current, bots.c.retired.is_(None))
    rows = [_standing(r) for r in conn.execute(query)]
    rows.sort(key=lambda r: (-r["rating"]["low"], -r["rating"]["mu"], r["bot"], -r["version"]))
    for place, row in enumerate(rows, 1):
        row["place"] = place
    return rows


def bot_list(conn: Connection) -> list[dict[str, Any]]:
    """Every bot: its owner, versions, whether it plays, its current rating."""
    rows = conn.execute(_standing_query().where(versions.c.current).order_by(bots.c.name))
    counts: dict[int, int] = dict(conn.execute(
        select(versions.c.bot_id, func.count()).group_by(versions.c.bot_id)).all())
    ids = dict(conn.execute(select(bots.c.name, bots.c.id)).all())
    return [
        {
            "bot": r.name, "owner": r.owner, "versions": int(counts.get(ids[r.name], 0)),
            "current": r.number, "retired": r.retired, "rating": _interval(r.mu, r.sigma),
            "games": int(r.games),
        }
        for r in rows
    ]


def _bot_row(conn: Connection, name: str) -> Any:
    row = conn.execute(
        select(bots.c.id, bots.c.name, bots.c.created, bots.c.retired,
               owners.c.name.label("owner"))
        .outerjoin(owners, owners.c.id == bots.c.owner_id).where(bots.c.name == name)
    ).first()
    if row is None:
        raise LadderError(f"no bot {name!r} in this ladder (`tajmahal ladder bots` lists them)")
    return row


def bot_detail(conn: Connection, name: str) -> dict[str, Any]:
    """A bot and each of its versions (command, digest, rating, totals)."""
    bot = _bot_row(conn, name)
    listed = []
    for r in conn.execute(_standing_query().where(bots.c.id == bot.id)
                          .order_by(versions.c.number)):
        info = conn.execute(select(versions.c.digest, versions.c.command, versions.c.builtin,
                                   versions.c.created).where(versions.c.id == r.id)).one()
        listed.append({
            **_standing(r), "digest": info.digest, "command": info.command,
            "builtin": bool(info.builtin), "created": info.created, "current": bool(r.current),
        })
    return {"bot": bot.name, "owner": bot.owner, "created": bot.created,
            "retired": bot.retired, "versions": listed}


def rating_history_of(conn: Connection, name: str) -> list[dict[str, Any]]:
    """The bot's rating after each of its rated games, version by version, in
    schedule order."""
    return [_point(r) for r in _history(conn, name)]


def rating_points(conn: Connection, name: str, most: int) -> tuple[int, list[dict[str, Any]]]:
    """How many rated games the bot has played, and at most ``most`` points of its
    :func:`rating_history_of`, evenly spread, the last one kept: what a chart
    draws (:func:`~.charts.thinned`)."""
    rows = _history(conn, name)
    return len(rows), [_point(r) for r in thinned(rows, most)]


def _history(conn: Connection, name: str) -> Sequence[Any]:
    bot = _bot_row(conn, name)
    return conn.execute(
        select(versions.c.number, rating_history.c.slot, rating_history.c.game_id,
               rating_history.c.mu, rating_history.c.sigma)
        .join(versions, versions.c.id == rating_history.c.version_id)
        .where(versions.c.bot_id == bot.id)
        .order_by(rating_history.c.slot)
    ).all()


def _point(row: Any) -> dict[str, Any]:
    return {"version": row.number, "slot": row.slot, "game": row.game_id,
            **_interval(row.mu, row.sigma)}


def owner_list(conn: Connection) -> list[dict[str, Any]]:
    """Every owner and their bots (never their tokens)."""
    out = []
    for owner in conn.execute(select(owners).order_by(owners.c.name)):
        names = conn.execute(select(bots.c.name).where(bots.c.owner_id == owner.id)
                             .order_by(bots.c.name)).scalars().all()
        out.append({"owner": owner.name, "created": owner.created, "bots": list(names)})
    return out


def _seats_of(conn: Connection, ids: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
    found: dict[int, list[dict[str, Any]]] = {i: [] for i in ids}
    if not ids:
        return found
    rows = conn.execute(
        select(seats.c.game_id, seats.c.seat, bots.c.name, versions.c.number, seats.c.score,
               seats.c.rank, seats.c.fault)
        .join(versions, versions.c.id == seats.c.version_id)
        .join(bots, bots.c.id == versions.c.bot_id)
        .where(seats.c.game_id.in_(list(ids)))
        .order_by(seats.c.game_id, seats.c.seat)
    )
    for r in rows:
        found[r.game_id].append({"seat": r.seat, "bot": r.name, "version": r.number,
                                 "score": r.score, "rank": r.rank, "fault": r.fault})
    return found


def _game(row: Any, seated: list[dict[str, Any]]) -> dict[str, Any]:
    done = row.status == FINISHED
    return {
        "game": row.id, "slot": row.slot, "kind": row.kind, "status": row.status,
        "created": row.created, "finished": row.finished,
        "seed": row.seed if done else None,
        "decisions": row.decisions, "duration": row.duration, "seats": seated,
    }


def game_list(
    conn: Connection,
    bot: str | None = None,
    limit: int = 50,
    before: int | None = None,
    status: str | None = FINISHED,
) -> list[dict[str, Any]]:
    """Games, newest first (``before``: with smaller ids only; ``bot``: of that bot,
    any version)."""
    query = select(games).order_by(desc(games.c.id)).limit(max(1, min(limit, MAX_LIMIT)))
    if status is not None:
        query = query.where(games.c.status == status)
    if before is not None:
        query = query.where(games.c.id < before)
    if bot is not None:  # (from the newest games down, each looked for in the bot's seats)
        bot_id = _bot_row(conn, bot).id
        own = conn.execute(select(versions.c.id).where(versions.c.bot_id == bot_id)).scalars()
        query = query.distinct().join(seats, seats.c.game_id == games.c.id).where(
            seats.c.version_id.in_(list(own)))
    rows = conn.execute(query).all()
    seated = _seats_of(conn, [r.id for r in rows])
    return [_game(r, seated[r.id]) for r in rows]


def game_detail(conn: Connection, game_id: int) -> dict[str, Any]:
    """A game: its seats, record, error, and each seat's rating after it."""
    row = conn.execute(select(games).where(games.c.id == game_id)).first()
    if row is None:
        raise LadderError(f"no game {game_id} in this ladder")
    data = _game(row, _seats_of(conn, [game_id])[game_id])
    data["record"] = row.record
    data["record_sha256"] = row.record_sha256
    data["error"] = row.error
    data["tries"] = row.tries
    after = {
        r.version_id: _interval(r.mu, r.sigma)
        for r in conn.execute(select(rating_history).where(rating_history.c.game_id == game_id))
    }
    versions_at = dict(conn.execute(
        select(seats.c.seat, seats.c.version_id).where(seats.c.game_id == game_id)).all())
    for seat in data["seats"]:
        seat["rating_after"] = after.get(versions_at[seat["seat"]])
    return data


#: Last games of two bots a head-to-head lists.
LAST_GAMES: Final = 20


def head_to_head(conn: Connection, a: str, b: str) -> dict[str, Any]:
    """How often bot ``a`` (any version) finished ahead of bot ``b`` in the rated
    games where both sat (a tie counts 1/2), with its 95% interval (the deal as
    the unit, as in the tournament's standings), and their last games."""
    if a == b:
        raise LadderError("a head-to-head takes two different bots")
    first, second = _bot_row(conn, a), _bot_row(conn, b)
    row = conn.execute(_meetings_of(first.id).where(meetings.c.other_id == second.id)).first()
    mine, theirs = seats.alias("mine"), seats.alias("theirs")
    va, vb = versions.alias("va"), versions.alias("vb")
    last = conn.execute(
        select(games.c.id).distinct()
        .join(mine, mine.c.game_id == games.c.id).join(va, va.c.id == mine.c.version_id)
        .join(theirs, theirs.c.game_id == games.c.id).join(vb, vb.c.id == theirs.c.version_id)
        .where(va.c.bot_id == first.id, vb.c.bot_id == second.id, games.c.status == FINISHED,
               games.c.kind == RATED)
        .order_by(desc(games.c.id)).limit(LAST_GAMES)
    ).scalars()
    return {**_meeting(a, b, row), "last_games": list(last)}


def head_to_heads(conn: Connection, name: str) -> list[dict[str, Any]]:
    """The head-to-head of bot ``name`` against each bot it met in a rated game
    (as :func:`head_to_head`, with their last game only), by the other bot's
    name: the sums :mod:`.meetings` keeps, one row a bot."""
    rows = conn.execute(_meetings_of(_bot_row(conn, name).id)).all()
    return [{**_meeting(name, r.name, r), "last_game": int(r.last_game)}
            for r in sorted(rows, key=lambda r: str(r.name))]


def _meetings_of(bot_id: int) -> Select[Any]:
    return (select(meetings, bots.c.name).join(bots, bots.c.id == meetings.c.other_id)
            .where(meetings.c.bot_id == bot_id))


def _meeting(a: str, b: str, row: Any) -> dict[str, Any]:
    """The head-to-head of ``a`` and ``b`` from their row of sums (None: they
    have not met)."""
    if row is None:
        return {"bots": [a, b], "games": 0, "ahead": None, "ahead_games": 0,
                "behind_games": 0, "tied_games": 0}
    played, wins, losses = int(row.games), int(row.ahead_games), int(row.behind_games)
    return {
        "bots": [a, b],
        "games": played,
        "ahead": estimate(row).to_data(),
        "ahead_games": wins,
        "behind_games": losses,
        "tied_games": played - wins - losses,
    }


def version_ids(conn: Connection) -> dict[tuple[str, int], int]:
    """Each version's id, by its bot's name and its number."""
    rows = conn.execute(select(bots.c.name, versions.c.number, versions.c.id)
                        .join(bots, bots.c.id == versions.c.bot_id))
    return {(r.name, r.number): int(r.id) for r in rows}


def recent_ratings(conn: Connection, version_ids: Sequence[int], count: int = 20
                   ) -> dict[int, list[float]]:
    """Each version's ``mu`` after its last ``count`` rated games, oldest first
    (one indexed look a version)."""
    query = (select(rating_history.c.mu)
             .where(rating_history.c.version_id == bindparam("v"))
             .order_by(desc(rating_history.c.slot)).limit(count))
    return {v: [float(mu) for mu in conn.execute(query, {"v": v}).scalars()][::-1]
            for v in version_ids}


def finished_at(conn: Connection, ids: Sequence[int]) -> dict[int, str | None]:
    """When each of the games ``ids`` finished."""
    if not ids:
        return {}
    rows = conn.execute(select(games.c.id, games.c.finished).where(games.c.id.in_(list(ids))))
    return {int(r.id): r.finished for r in rows}


def faults_of_owner(conn: Connection, owner: str, limit: int = 50) -> list[dict[str, Any]]:
    """The latest finished games of ``owner``'s bots, newest first, each with the
    seats of those bots: their rank, fault and whether a log was kept."""
    rows = conn.execute(
        select(games.c.id, games.c.finished, games.c.kind, seats.c.seat, bots.c.name,
               versions.c.number, seats.c.rank, seats.c.fault, seats.c.log)
        .join(seats, seats.c.game_id == games.c.id)
        .join(versions, versions.c.id == seats.c.version_id)
        .join(bots, bots.c.id == versions.c.bot_id)
        .join(owners, owners.c.id == bots.c.owner_id)
        .where(owners.c.name == owner, games.c.status == FINISHED)
        .order_by(desc(games.c.id), seats.c.seat)
        .limit(max(1, min(limit, MAX_LIMIT)))
    ).all()
    return [{"game": r.id, "finished": r.finished, "kind": r.kind, "seat": r.seat,
             "bot": r.name, "version": r.number, "rank": r.rank, "fault": r.fault,
             "log": bool(r.log)} for r in rows]


def error_line(error: str | None) -> str | None:
    """What a game's error says in one line (its last: a traceback's last line is
    the error), control characters shown as escapes; None: no error."""
    lines = (error or "").strip().splitlines()
    return printable(lines[-1], limit=300) if lines else None


def requests_of_owner(conn: Connection, owner_id: int, limit: int = 20
                      ) -> list[dict[str, Any]]:
    """The latest requests of the owner ``owner_id``, newest first, each with its
    games: who sits where, where each stands (scheduled, finished or void), how
    often it failed and why (its error's last line)."""
    rows = conn.execute(
        select(requests.c.id, requests.c.created)
        .where(requests.c.owner_id == owner_id)
        .order_by(desc(requests.c.id))
        .limit(max(1, min(limit, MAX_LIMIT)))
    ).all()
    made: dict[int, list[dict[str, Any]]] = {r.id: [] for r in rows}
    if made:
        found = conn.execute(select(games).where(games.c.request_id.in_(list(made)))
                             .order_by(games.c.id)).all()
        seated = _seats_of(conn, [g.id for g in found])
        for g in found:
            made[g.request_id].append({**_game(g, seated[g.id]), "tries": g.tries,
                                       "error": error_line(g.error)})
    return [{"request": r.id, "requested": r.created, "games": made[r.id]} for r in rows]
