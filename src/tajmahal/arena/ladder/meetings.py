"""The head-to-head of every pair of bots, added up as their games finish.

A bot's page shows its head-to-head against each other bot: how often it
finished ahead of the other in the rated games where both sat (a tie counts
1/2), with a 95% interval that takes the deal as the unit
(:func:`~..tournament.stats.clustered_mean`).  Worked out from the seats at
each look, that was a join of about a fifth of the games' seats for every page;
instead the table ``meetings`` keeps, for each ordered pair of bots (any
versions), the sums the interval needs (:class:`~..tournament.stats.Moments`):
games, deals, the shares ahead and their per-deal squares and products,
games ahead and behind, and the last game.  :func:`count_game` adds a game to
it in the transaction that records the game's end; :func:`counted` works the
same sums out from every finished game (``ladder verify`` compares the two;
the migration that made the table filled it so).

Every share is 0, 1/2 or 1, so every sum is held exactly (binary fractions):
the sums of the table equal those of a count from scratch, whatever the order
the games finished in.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any, Final

from sqlalchemy import Connection, and_, bindparam, case, select
from sqlalchemy.dialects import postgresql, sqlite

from ..tournament.standings import ahead
from ..tournament.stats import Moments
from .schema import FINISHED, RATED, games, meetings, seats, versions

#: The sums of a pair, in the table's order (then ``last_game``).
SUMS: Final = ("games", "deals", "ahead", "ahead_squares", "ahead_by_games", "games_squares",
               "ahead_games", "behind_games")

Pair = tuple[int, int]


def _seat_pairs(*where: Any) -> Any:
    """Each ordered pair of seats of two different bots in the finished rated
    games ``where`` picks: (game, its deal, bot, other bot, bot's rank, other's
    rank)."""
    mine, theirs = seats.alias("mine"), seats.alias("theirs")
    va, vb = versions.alias("va"), versions.alias("vb")
    return (
        select(games.c.id, games.c.deal, va.c.bot_id, vb.c.bot_id, mine.c.rank, theirs.c.rank)
        .select_from(games)
        .join(mine, mine.c.game_id == games.c.id)
        .join(theirs, and_(theirs.c.game_id == games.c.id, theirs.c.seat != mine.c.seat))
        .join(va, va.c.id == mine.c.version_id)
        .join(vb, vb.c.id == theirs.c.version_id)
        .where(games.c.status == FINISHED, games.c.kind == RATED, va.c.bot_id != vb.c.bot_id,
               *where)
    )


def summed(rows: Iterable[Sequence[Any]]) -> dict[Pair, list[Any]]:
    """The :data:`SUMS` and the last game of each ordered pair of bots in
    ``rows`` (as :func:`_seat_pairs` gives them).  A deal's games are one
    cluster; a game without a deal is one of its own."""
    by_deal: dict[tuple[int, int, int], list[Any]] = {}
    last: dict[Pair, int] = {}
    for game, deal, bot, other, mine, theirs in rows:
        share = ahead(mine, theirs)
        cluster = by_deal.setdefault((bot, other, -game if deal is None else deal),
                                     [0.0, 0, 0, 0])
        cluster[0] += share
        cluster[1] += 1
        cluster[2] += share == 1.0
        cluster[3] += share == 0.0
        last[bot, other] = max(last.get((bot, other), game), game)
    out: dict[Pair, list[Any]] = {}
    for (bot, other, _), (s, n, wins, losses) in by_deal.items():
        sums = out.setdefault((bot, other), [0, 0, 0.0, 0.0, 0.0, 0, 0, 0, 0])
        for k, value in enumerate((n, 1, s, s * s, s * n, n * n, wins, losses)):
            sums[k] += value
    for pair, sums in out.items():
        sums[-1] = last[pair]
    return out


def counted(conn: Connection) -> dict[Pair, list[Any]]:
    """Every pair's sums, worked out from every finished rated game."""
    return summed(conn.execute(_seat_pairs()))


def kept(conn: Connection) -> dict[Pair, list[Any]]:
    """Every pair's sums as the table holds them."""
    return {(r.bot_id, r.other_id): [*(r._mapping[k] for k in SUMS), r.last_game]
            for r in conn.execute(select(meetings))}


def recount(conn: Connection) -> None:
    """Fill the table anew from the games (:func:`counted`)."""
    conn.execute(meetings.delete())
    rows = [_row(pair, sums) for pair, sums in counted(conn).items()]
    if rows:
        conn.execute(meetings.insert(), rows)


# The statements of every game's end, built once (SQLAlchemy then reuses their
# compiled form: building them anew for each game cost more than the rest).
_DEAL: Final = select(games.c.deal).where(games.c.id == bindparam("g"))
_OF_GAME: Final = _seat_pairs(games.c.id == bindparam("g"))
_OF_DEAL: Final = _seat_pairs(games.c.deal == bindparam("d"))


def count_game(conn: Connection, game_id: int) -> None:
    """Add the finished rated game ``game_id`` to its pairs' sums (call it in the
    transaction that records its end).  A deal already met by a pair grows its
    cluster: what the game adds is the sums of its deal's games with it less
    those without it."""
    deal = conn.execute(_DEAL, {"g": game_id}).scalar()
    rows = conn.execute(_OF_GAME if deal is None else _OF_DEAL,
                        {"g": game_id, "d": deal}).all()
    with_it = summed(rows)
    without = summed(r for r in rows if r[0] != game_id)
    added = []
    for pair in sorted({(r[2], r[3]) for r in rows if r[0] == game_id}):
        now = with_it[pair][:-1]  # (the sums, less the last game: this one)
        before = without.get(pair, [0] * (len(now) + 1))[:-1]
        added.append(_row(pair, [*(a - b for a, b in zip(now, before, strict=True)), game_id]))
    if added:
        conn.execute(_add(conn), added)


def _row(pair: Pair, sums: Sequence[Any]) -> dict[str, Any]:
    return {"bot_id": pair[0], "other_id": pair[1], **dict(zip(SUMS, sums, strict=False)),
            "last_game": sums[-1]}


def _add(conn: Connection) -> Any:
    return _adding(conn.dialect.name)


@functools.cache
def _adding(dialect: str) -> Any:
    """An insert of a pair's row that adds to the row already there (both
    dialects say it alike)."""
    insert = (postgresql if dialect == "postgresql" else sqlite).insert(meetings)
    now = insert.excluded
    return insert.on_conflict_do_update(
        index_elements=[meetings.c.bot_id, meetings.c.other_id],
        set_={**{k: meetings.c[k] + now[k] for k in SUMS},
              "last_game": case((now.last_game > meetings.c.last_game, now.last_game),
                                else_=meetings.c.last_game)},
    )


def estimate(row: Any) -> Any:
    """The share of games ahead, with its interval, of a pair's row."""
    return Moments(int(row.deals), int(row.games), float(row.ahead), float(row.ahead_squares),
                   float(row.ahead_by_games), int(row.games_squares)).estimate((0.0, 1.0))
