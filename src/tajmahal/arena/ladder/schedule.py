"""The rated schedule: planned round by round, the same for the same ladder seed.

Rated games are numbered by their *slot* in the schedule.  They are planned in
rounds of ``round_games`` slots; round ``r`` is planned once every game of the
rounds before ``r - 1`` is finished and rated, from the ratings as they were
after slot ``(r - 1) * round_games``, the games planned before it (who met
whom, who sat where: :class:`~.matchmaking.Tally`), each version's clock, and
the ladder seed (deal seeds, and the draws that break ties).  So round ``r`` is
planned while round ``r - 1`` plays, and it does not depend on which game
ended first, nor on whether the runner was stopped and started again: an
uninterrupted run and one killed at any moment plan the same games, and rate
them alike (ratings are applied in slot order).  Bots added or retired change
the rounds planned after.

With ``duplicate`` deals, each meeting of bots is a deal played once per seat
rotation (consecutive slots, one deal seed); otherwise every slot has a deal of
its own and the matchmaker balances the seats.

A game's seed (the one it is dealt from, written in its row and its record) is
its deal's seed keyed with the ladder's secret (:func:`game_seed`): no bot can
deal the cards of a typed ``--seed`` (``1``) and find its own among them.
"""

from __future__ import annotations

import hmac
import random
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from attrs import define, field, frozen
from sqlalchemy import Connection, and_, bindparam, func, select, update

from ..terms import reproducible, setup_seed
from ..text import printable
from ..tournament.schedule import deal_seed, seating
from .database import Database, LadderError, inserted_id, now
from .matchmaking import Candidate, Tally, advance, choose, start_clock
from .rating import INITIAL, Totals
from .schema import (
    RATED,
    REQUESTED,
    SCHEDULED,
    bots,
    games,
    ladder,
    owners,
    rating_history,
    requests,
    seats,
    versions,
)

#: New games, their ids returned in the order given; and the versions' clocks.
_NEW_GAMES = games.insert().returning(games.c.id, sort_by_parameter_order=True)
_PASSES = update(versions).where(versions.c.id == bindparam("v")).values(passes=bindparam("p"))


@frozen
class Planned:
    """A game to play: its ``id``, rated ``slot`` (None: requested), deal seed and
    the version at each seat."""

    id: int
    slot: int | None
    seed: int
    seating: tuple[int, ...]


@define
class Planner:
    """Plans the rated rounds (see the module's text)."""

    seed: int
    players: int
    max_players: int
    round_games: int
    placement: int
    duplicate: bool
    planned_rounds: int
    tally: Tally
    passes: dict[int, float]
    #: The ladder's secret (hex), which the games' seeds are keyed with.
    secret: str = field(default="", repr=False)
    #: Ratings (mu, sigma) after the first ``slot`` slots, for the rounds to plan.
    snapshots: dict[int, dict[int, tuple[float, float]]] = field(factory=dict)

    @classmethod
    def load(cls, conn: Connection, settings: Mapping[str, Any]) -> Planner:
        """The planner as the database has it: the rated games planned so far."""
        tally = Tally()
        rows = conn.execute(
            select(seats.c.game_id, seats.c.seat, seats.c.version_id)
            .join(games, games.c.id == seats.c.game_id)
            .where(games.c.kind == RATED)
            .order_by(seats.c.game_id, seats.c.seat)
        ).all()
        game_seats: dict[int, list[int]] = {}
        for game_id, _, version in rows:
            game_seats.setdefault(game_id, []).append(version)
        for seating_ in game_seats.values():
            tally.add(seating_)
        passes = {
            int(v): float(p)
            for v, p in conn.execute(
                select(versions.c.id, versions.c.passes).where(versions.c.passes.is_not(None))
            )
        }
        return cls(
            seed=settings["seed"],
            players=settings["players"],
            max_players=settings["max_players"],
            round_games=settings["round_games"],
            placement=settings["placement"],
            duplicate=settings["duplicate"],
            planned_rounds=settings["planned_rounds"],
            tally=tally,
            passes=passes,
            secret=settings["secret"],
        )

    def game_seed(self, deal: int) -> int:
        """The seed the games of ``deal`` are dealt from (see :func:`game_seed`)."""
        return game_seed(self.secret, deal_seed(self.seed, deal))

    def basis(self) -> int:
        """The slot whose ratings the next round is planned from (every slot below it
        must be rated first)."""
        return max(0, (self.planned_rounds - 1) * self.round_games)

    def remember(self, slot: int, totals: Mapping[int, Totals]) -> None:
        """Keep the ratings after ``slot`` slots, if a round will be planned from them."""
        if slot % self.round_games == 0 and slot >= self.basis():
            self.snapshots[slot] = {v: (t.mu, t.sigma) for v, t in totals.items()}
            for old in [s for s in self.snapshots if s < self.basis()]:
                del self.snapshots[old]

    def plan_round(self, conn: Connection) -> list[Planned]:
        """Plan the next round (its games and seats written, the clocks moved); its
        games in slot order (none: fewer active versions than seats)."""
        basis = self.basis()
        ratings = self.snapshots.get(basis)
        if ratings is None:
            ratings = ratings_after(conn, basis)
        active = active_versions(conn)
        for version in active:
            if version not in self.passes:
                self.passes[version] = start_clock(self.passes, active)
        sizes = [n for n in range(self.players, self.max_players + 1) if n <= len(active)]
        if not sizes:
            return []
        first = self.planned_rounds * self.round_games
        games_: list[dict[str, Any]] = []
        seatings: list[tuple[int, ...]] = []
        slot = first
        while slot < first + self.round_games:
            placing = {v for v in active if self.tally.games(v) < self.placement}
            candidates = [
                Candidate(v, *ratings.get(v, INITIAL), self.passes[v], v in placing)
                for v in active
            ]
            rng = random.Random(f"tajmahal-ladder:{self.seed}:{slot}")
            size = sizes[slot % len(sizes)]  # a range of sizes: each in turn
            chosen = choose(candidates, self.tally, rng, size)
            assert chosen is not None
            rotations = size if self.duplicate else 1
            deal = slot // rotations
            for rotation in range(rotations):
                order = seating(size, rotation)
                seated = tuple(chosen[order[s]] for s in range(size))
                games_.append({"slot": slot, "kind": RATED, "seed": self.game_seed(deal),
                               "deal": deal, "rotation": rotation, "status": SCHEDULED,
                               "created": now(), "tries": 0})
                seatings.append(seated)
                self.tally.add(seated)
                slot += 1
            advance(self.passes, chosen, placing)
        ids = conn.execute(_NEW_GAMES, games_).scalars().all()
        conn.execute(seats.insert(), [
            {"game_id": i, "seat": s, "version_id": v}
            for i, seated in zip(ids, seatings, strict=True) for s, v in enumerate(seated)])
        conn.execute(_PASSES, [{"v": v, "p": self.passes[v]} for v in sorted(
            {v for seated in seatings for v in seated} | set(active))])
        self.planned_rounds += 1
        conn.execute(update(ladder).values(planned_rounds=self.planned_rounds))
        return [Planned(int(i), g["slot"], g["seed"], seated)
                for i, g, seated in zip(ids, games_, seatings, strict=True)]


def game_seed(secret: str, seed: int) -> int:
    """The seed a game of the deal seed ``seed`` is dealt from: keyed with the
    ladder's ``secret`` (:func:`~tajmahal.arena.terms.setup_seed`), or ``seed``
    itself where :data:`~tajmahal.arena.terms.REPRODUCIBLE_SEEDS` asks for it
    (when the round is planned: the row keeps it, for replays and runs after)."""
    if reproducible():
        return seed
    return setup_seed(hmac.new(bytes.fromhex(secret), b"setup seeds", "sha256").digest(), seed)


def rated_prefix(conn: Connection) -> int:
    """The number of rated slots: every game below the first slot still scheduled
    is finished (or void) and rated (a game's end is rated in the transaction that
    writes it, with every later finished one the prefix then reaches)."""
    waiting = conn.execute(
        select(func.min(games.c.slot)).where(games.c.status == SCHEDULED,
                                             games.c.slot.is_not(None))).scalar()
    if waiting is not None:
        return int(waiting)
    planned = conn.execute(select(func.max(games.c.slot))).scalar()
    return 0 if planned is None else int(planned) + 1


def active_versions(conn: Connection) -> list[int]:
    """The versions in matchmaking: the current one of each bot not retired."""
    rows = conn.execute(
        select(versions.c.id)
        .join(bots, bots.c.id == versions.c.bot_id)
        .where(versions.c.current, bots.c.retired.is_(None))
        .order_by(versions.c.id)
    )
    return [int(v) for v, in rows]


def ratings_after(conn: Connection, slot: int) -> dict[int, tuple[float, float]]:
    """Each version's rating (mu, sigma) after the rated games of the slots below
    ``slot`` (versions that had none then are left out)."""
    latest = (
        select(rating_history.c.version_id, func.max(rating_history.c.slot).label("slot"))
        .where(rating_history.c.slot < slot)
        .group_by(rating_history.c.version_id)
        .subquery()
    )
    rows = conn.execute(
        select(rating_history.c.version_id, rating_history.c.mu, rating_history.c.sigma).join(
            latest,
            and_(latest.c.version_id == rating_history.c.version_id,
                 latest.c.slot == rating_history.c.slot),
        )
    )
    return {int(v): (float(mu), float(sigma)) for v, mu, sigma in rows}


def make_request(
    db: Database,
    settings: Mapping[str, Any],
    names: Sequence[str],
    count: int,
    owner_name: str | None = None,
    owner_id: int | None = None,
) -> list[int]:
    """Write ``count`` unrated games between the current versions of the bots
    ``names`` (one a seat; the seats rotate from game to game), played ahead of
    the schedule; their ids.  ``owner_id`` (an API request): one of the bots must
    be the owner's."""
    if not settings["players"] <= len(names) <= settings["max_players"]:
        seats_ = settings["players"] if settings["players"] == settings["max_players"] else (
            f"{settings['players']} to {settings['max_players']}")
        raise LadderError(f"a game of this ladder has {seats_} players: name that many bots")
    if len(set(names)) != len(names):
        raise LadderError("name each bot once")
    with db.write() as conn:
        found = {
            r.name: r for r in conn.execute(
                select(bots.c.name, bots.c.owner_id, versions.c.id)
                .join(versions, and_(versions.c.bot_id == bots.c.id, versions.c.current))
                .where(bots.c.name.in_(list(names)))
            )
        }
        missing = [n for n in names if n not in found]
        if missing:
            raise LadderError(f"no bot {printable(missing[0], limit=80)!r} in this ladder")
        if owner_name is not None:
            owner_id = conn.execute(select(owners.c.id).where(owners.c.name == owner_name)
                                    ).scalar()
            if owner_id is None:
                raise LadderError(f"no owner {printable(owner_name, limit=80)!r}")
        elif owner_id is not None and not any(found[n].owner_id == owner_id for n in names):
            raise LadderError("a request names one of your own bots at least")
        request_id = inserted_id(conn.execute(requests.insert().values(
            owner_id=owner_id, created=now(), games=count)))
        order = [found[n].id for n in names]
        ids = []
        for rotation in range(count):
            seated = [order[e] for e in seating(len(order), rotation % len(order))]
            game_id = inserted_id(conn.execute(games.insert().values(
                slot=None, kind=REQUESTED, request_id=request_id, seed=secrets.randbits(63),
                deal=None, rotation=rotation, status=SCHEDULED, created=now(), tries=0,
            )))
            conn.execute(seats.insert(), [
                {"game_id": game_id, "seat": s, "version_id": v} for s, v in enumerate(seated)])
            ids.append(game_id)
    return ids
