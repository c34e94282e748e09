"""The ladder through its commands, each test on SQLite and on a real PostgreSQL
server (the ``ladder_db`` fixture): a class's ladder end to end, versions and
owners, requested games, verify both ways, and bad input in one line."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from typing import Any

import orjson
import pytest
from ladder_support import sibling_database
from referee_support import BOTS, cli
from sqlalchemy import select, text, update

from tajmahal.arena.ladder import queries
from tajmahal.arena.ladder.database import open_database
from tajmahal.arena.ladder.schedule import rated_prefix
from tajmahal.arena.ladder.schema import (
    REVISION,
    bots,
    games,
    ladder,
    meetings,
    owners,
    rating_history,
    ratings,
    seats,
    versions,
)
from tajmahal.arena.ladder.store import find
from tajmahal.arena.sandbox import unavailable
from tajmahal.arena.terms import REPRODUCIBLE_SEEDS
from tajmahal.arena.tournament.standings import ahead
from tajmahal.arena.tournament.stats import clustered_mean

pytestmark = pytest.mark.once  # the ladder's logic does not depend on the engine


def init(root: Path, db: str | None, *args: str) -> Path:
    where = root / "lad"
    extra = ["--db", db] if db is not None else []
    code, _, err = cli("ladder", "init", str(where), "--game", "tajmahal", *extra, *args)
    assert code == 0, err
    return where


def lad(where: Path, *args: str) -> tuple[int, str, str]:
    return cli("ladder", *args, "--ladder", str(where))


def ok(where: Path, *args: str) -> str:
    code, out, err = lad(where, *args)
    assert code == 0, err + out
    return out


def as_json(where: Path, *args: str) -> Any:
    return orjson.loads(ok(where, *args, "--json"))


def database(where: Path) -> Any:
    place = find(where, None)
    assert place is not None
    return open_database(place.url)


def copy_bot(root: Path, name: str = "random_bot.py") -> Path:
    """A bot's folder: an example bot and its bot.json."""
    folder = root / f"folder-{name}"
    folder.mkdir()
    shutil.copy(BOTS / name, folder / name)
    (folder / "bot.json").write_text(orjson.dumps({"command": name}).decode())
    return folder


def test_a_class_ladder_end_to_end(tmp_path: Path, ladder_db: str | None) -> None:
    where = init(tmp_path, ladder_db, "--players", "3", "--seed", "5", "--round", "4")
    for name in ("greedy", "random", "first"):
        assert f"{name}: version 1" in ok(where, "add", name, name)
    programs = unavailable() is None
    if programs:  # a program bot, in the sandbox (CI has bubblewrap)
        out = ok(where, "add", "alice", str(copy_bot(tmp_path)), "--owner", "alice")
        assert "API token tjl_" in out
    out = ok(where, "run", "--games", "8", "-j", "2")
    assert "8 games finished" in out
    table = as_json(where, "standings")
    bots = 4 if programs else 3
    assert len(table) == bots and [r["place"] for r in table] == list(range(1, bots + 1))
    # 8 games of 3 seats: 24 seats, each counted once in a version's games
    assert sum(r["games"] for r in table) == 24
    lows = [r["rating"]["low"] for r in table]
    assert lows == sorted(lows, reverse=True)
    for r in table:
        rating = r["rating"]
        assert rating["low"] == pytest.approx(rating["mu"] - 1.96 * rating["sigma"], abs=0.01)
    listed = as_json(where, "games", "--limit", "100")
    assert [g["game"] for g in listed] == list(range(8, 0, -1))
    assert all(len(g["seats"]) == 3 and g["kind"] == "rated" for g in listed)
    db = database(where)
    with db.read() as conn:
        assert rated_prefix(conn) == 8
        assert len(conn.execute(select(rating_history)).all()) == 24
        record = conn.execute(select(games.c.record).where(games.c.id == 3)).scalar()
    db.close()
    code, out, _ = cli("replay", "--verify", str(where / record))
    assert code == 0 and "OK" in out
    shown = as_json(where, "show", "3")
    assert shown["status"] == "finished" and shown["record"] == "games/000003.jsonl"
    assert all(s["rating_after"] is not None for s in shown["seats"])
    assert ok(where, "verify").strip().endswith("8 records replayed, 8 rated games re-rated: OK")
    pair = as_json(where, "head-to-head", "greedy", "random")
    assert pair["games"] == pair["ahead_games"] + pair["behind_games"] + pair["tied_games"] > 0
    db = database(where)
    with db.read() as conn:  # a bot's page: against every other bot in one query, the same
        for name in ("greedy", "random", "first"):
            met = queries.head_to_heads(conn, name)
            others = [r["bot"] for r in table if r["bot"] != name]
            pairs = [queries.head_to_head(conn, name, other) for other in sorted(others)]
            assert met == [{**{k: v for k, v in p.items() if k != "last_games"},
                            "last_game": p["last_games"][0]} for p in pairs if p["games"]]
            assert met
    db.close()


def test_versions_replace_in_matchmaking_and_keep_history(
    tmp_path: Path, ladder_db: str | None
) -> None:
    if unavailable() is not None:
        pytest.skip(unavailable())
    where = init(tmp_path, ladder_db, "--players", "2", "--round", "2")
    folder = copy_bot(tmp_path)
    ok(where, "add", "bob", str(folder), "--owner", "bob")
    assert "nothing added" in ok(where, "add", "bob", str(folder), "--owner", "bob")
    ok(where, "add", "house", "random")
    ok(where, "run", "--games", "2", "-j", "1", "-q")
    (folder / "notes.txt").write_text("a change: a new version\n")
    assert "bob: version 2" in ok(where, "add", "bob", str(folder), "--owner", "bob")
    ok(where, "run", "--games", "2", "-j", "1", "-q")
    detail = as_json(where, "bots", "bob")
    assert [v["version"] for v in detail["versions"]] == [1, 2]
    assert [v["current"] for v in detail["versions"]] == [False, True]
    assert detail["versions"][0]["games"] == 2 and detail["versions"][1]["games"] == 2
    assert {(r["bot"], r["version"]) for r in as_json(where, "standings")} == {
        ("bob", 2), ("house", 1)}
    assert len(as_json(where, "standings", "--all")) == 3
    history = as_json(where, "bots", "bob", "--history")
    assert [h["version"] for h in history] == [1, 1, 2, 2]
    # The stored copy is the folder's, read-only, under its digest
    digest = detail["versions"][1]["digest"]
    stored = where / "versions" / digest
    assert (stored / "notes.txt").read_text() == "a change: a new version\n"
    assert not (stored / "random_bot.py").stat().st_mode & 0o222
    code, _, err = lad(where, "add", "bob", str(folder), "--owner", "carol")
    assert code == 1 and "belongs to bob" in err


def test_retire_and_owner_tokens(tmp_path: Path, ladder_db: str | None) -> None:
    where = init(tmp_path, ladder_db, "--players", "2", "--round", "2")
    out = ok(where, "owners", "add", "dana")
    token = out.split("API token ")[1].split()[0]
    for name in ("a", "b", "c"):
        ok(where, "add", name, "random")
    ok(where, "retire", "c")
    assert sorted(r["bot"] for r in as_json(where, "standings")) == ["a", "b"]
    code, _, err = lad(where, "retire", "c")
    assert code == 1 and err.strip() == "Error: the bot 'c' is retired already"
    ok(where, "add", "c", "greedy")  # a new version brings it back
    assert sorted(r["bot"] for r in as_json(where, "standings")) == ["a", "b", "c"]
    db = database(where)
    with db.read() as conn:
        kept = conn.execute(select(owners.c.token_sha256)).scalar()
        dump = "\n".join(str(r) for t in ("owners", "bots", "versions")
                         for r in conn.execute(text(f"SELECT * FROM {t}")))
    db.close()
    assert kept == hashlib.sha256(token.encode()).hexdigest() and token not in dump
    new = ok(where, "owners", "token", "dana").split("API token ")[1].split()[0]
    assert new != token
    assert as_json(where, "owners") == [
        {"owner": "dana", "created": as_json(where, "owners")[0]["created"], "bots": []}]


def test_requested_games_are_played_first_and_unrated(
    tmp_path: Path, ladder_db: str | None
) -> None:
    where = init(tmp_path, ladder_db, "--players", "2", "--round", "2")
    for name in ("a", "b", "c"):
        ok(where, "add", name, "random")
    out = ok(where, "request", "a", "b", "--games", "2")
    assert "games 1, 2" in out
    lines = ok(where, "run", "--games", "4", "-j", "1").splitlines()
    played = [line.split(":")[0] for line in lines if line.startswith("game ")]
    assert played == ["game 1 (requested)", "game 2 (requested)", "game 3 (slot 0)",
                      "game 4 (slot 1)"]
    listed = as_json(where, "games", "--limit", "10")
    by_id = {g["game"]: g for g in listed}
    assert [by_id[i]["kind"] for i in (1, 2)] == ["requested", "requested"]
    assert [s["bot"] for s in by_id[1]["seats"]] == ["a", "b"]
    assert [s["bot"] for s in by_id[2]["seats"]] == ["b", "a"]  # the seats rotate
    db = database(where)
    with db.read() as conn:
        rated = conn.execute(select(rating_history.c.game_id)).scalars().all()
        total = conn.execute(select(ratings.c.games)).scalars().all()
    db.close()
    assert 1 not in rated and 2 not in rated and sum(total) == 2 * 2
    code, _, err = lad(where, "request", "a", "nobody")
    assert code == 1 and err.strip() == "Error: no bot 'nobody' in this ladder"


def test_verify_finds_what_was_changed_either_side(tmp_path: Path, ladder_db: str | None) -> None:
    where = init(tmp_path, ladder_db, "--players", "2", "--round", "2", "--seed", "3")
    for name in ("a", "b"):
        ok(where, "add", name, "random")
    ok(where, "run", "--games", "4", "-j", "1", "-q")
    record = where / "games" / "000002.jsonl"
    kept = record.read_bytes()
    record.write_bytes(kept.replace(b'"seed":', b'"seed": ', 1))
    code, _, err = lad(where, "verify")
    assert code == 1 and "game 2: its record games/000002.jsonl is not the one" in err
    record.write_bytes(kept)
    (where / "games" / "000099.jsonl").write_bytes(kept)
    code, _, err = lad(where, "verify")
    assert code == 1 and "games/000099.jsonl: a record that no finished game" in err
    (where / "games" / "000099.jsonl").unlink()
    db = database(where)
    with db.write() as conn:
        kept_mu = conn.execute(select(ratings.c.mu).where(ratings.c.version_id == 1)).scalar()
        conn.execute(update(ratings).where(ratings.c.version_id == 1).values(mu=99.0))
    db.close()
    code, _, err = lad(where, "verify")
    assert code == 1 and "version 1: its rating and totals are not what re-rating" in err
    db = database(where)
    with db.write() as conn:
        conn.execute(update(ratings).where(ratings.c.version_id == 1).values(mu=kept_mu))
        conn.execute(update(meetings).where(meetings.c.bot_id == 2)
                     .values(ahead=meetings.c.ahead + 0.5))
    db.close()
    code, _, err = lad(where, "verify")
    assert code == 1 and "the head-to-head sums of 1 pairs of bots are not those of their " \
        "games (first: bot 2 against bot 1)" in err
    assert "re-rating" not in err


def test_the_seed_fixes_the_schedule_and_the_ratings(
    tmp_path: Path, ladder_db: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two ladders of one seed and the same bots play the same games and rate them
    alike, whatever order their games end in (2 jobs against 1).  (The deals of
    two ladders are the same under TAJMAHAL_REPRODUCIBLE_SEEDS; else each keys
    them with its own secret.)"""
    monkeypatch.setenv(REPRODUCIBLE_SEEDS, "1")
    results = []
    for jobs, sub in (("1", "one"), ("2", "two")):
        (tmp_path / sub).mkdir()
        db = ladder_db
        if db is not None and sub == "two":
            db = sibling_database(db, "2")
        where = init(tmp_path / sub, db, "--players", "3", "--round", "3", "--seed", "11")
        for name in ("greedy", "random", "first", "random2"):
            ok(where, "add", name, name.rstrip("2"))
        ok(where, "run", "--games", "9", "-j", jobs, "-q")
        results.append(_schedule_and_ratings(where))
    assert results[0] == results[1]


def _schedule_and_ratings(where: Path) -> Any:
    db = database(where)
    with db.read() as conn:
        schedule = [tuple(r) for r in conn.execute(text(
            "SELECT g.slot, g.seed, s.seat, s.version_id, s.rank FROM games g "
            "JOIN seats s ON s.game_id = g.id ORDER BY g.slot, s.seat"))]
        history = [tuple(r) for r in conn.execute(text(
            "SELECT slot, version_id, mu, sigma FROM rating_history ORDER BY slot, version_id"))]
    db.close()
    return schedule, history


def test_bad_input_gets_one_line(tmp_path: Path, ladder_db: str | None) -> None:
    where = init(tmp_path, ladder_db, "--players", "2")
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = lad(where, "add", "x", str(empty))
    assert code == 1 and err.startswith("Error: no bot.json in the bot's folder")
    (empty / "bot.json").write_text('{"command": "python3 missing.py"}')
    code, _, err = lad(where, "add", "x", str(empty))
    assert code == 1 and "cannot start the bot: no such file 'missing.py'" in err
    code, _, err = lad(where, "add", "x", "not-a-bot --fast")
    assert code == 2 and "is neither a built-in bot" in err
    code, _, err = lad(where, "show", "7")
    assert code == 1 and err.strip() == "Error: no game 7 in this ladder"
    code, _, err = lad(where, "bots", "ghost")
    assert code == 1 and err.strip().startswith("Error: no bot 'ghost' in this ladder")
    code, _, err = cli("ladder", "standings", "--ladder", str(tmp_path / "nowhere"))
    assert code == 1 and "no ladder in" in err and len(err.strip().splitlines()) == 1
    if ladder_db is not None:
        code, _, err = cli("ladder", "init", str(tmp_path / "again"), "--db", ladder_db)
        assert code == 1 and f"already holds a ladder (schema {REVISION})" in err
        assert not (tmp_path / "again").exists()  # nothing half-made left behind
    db = database(where)
    with db.write() as conn:
        conn.execute(update(ladder).values(game="no-such-game"))
    with db.write() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    db.close()
    code, _, err = lad(where, "standings")
    assert code == 1 and "has the ladder schema '9999', which this tajmahal (schema " \
        f"{REVISION}) does not know" in err
    db = database_unchecked(where)
    with db.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = :v"), {"v": REVISION})
    db.dispose()
    code, _, err = lad(where, "standings")
    assert code == 1 and "the ladder's game is not installed here: no game" in err
    assert len(err.strip().splitlines()) == 1


def test_head_to_heads_are_kept_as_games_finish(tmp_path: Path, ladder_db: str | None) -> None:
    """Duplicate deals (a deal a cluster of three games), finished out of order by
    two workers: the sums kept give what the games give, worked out here from
    the seats, deal by deal, as the tournament's standings work them out."""
    where = init(tmp_path, ladder_db, "--players", "3", "--round", "6", "--duplicate",
                 "--seed", "4")
    names = ("greedy", "random", "first")
    for name in names:
        ok(where, "add", name, name)
    ok(where, "run", "--games", "12", "-j", "2", "-q")
    assert ok(where, "verify").strip().endswith("12 rated games re-rated: OK")
    db = database(where)
    with db.read() as conn:
        rows = conn.execute(
            select(games.c.id, games.c.deal, bots.c.name, seats.c.rank)
            .join(seats, seats.c.game_id == games.c.id)
            .join(versions, versions.c.id == seats.c.version_id)
            .join(bots, bots.c.id == versions.c.bot_id)
            .where(games.c.status == "finished", games.c.kind == "rated")).all()
        for name in names:
            for other in names:
                if other == name:
                    continue
                deals: dict[int, list[float]] = {}
                played: list[int] = []
                for game in {r.id for r in rows}:
                    seated = {r.name: r for r in rows if r.id == game}
                    share = ahead(seated[name].rank, seated[other].rank)
                    cluster = deals.setdefault(seated[name].deal, [0.0, 0])
                    cluster[0] += share
                    cluster[1] += 1
                    played.append(game)
                assert len(deals) == 4 and {n for _, n in deals.values()} == {3}
                met = queries.head_to_head(conn, name, other)
                expected = clustered_mean([(s, int(n)) for s, n in deals.values()], (0.0, 1.0))
                assert met["ahead"] == expected.to_data() and met["games"] == 12
                assert met["last_games"] == sorted(played, reverse=True)
    db.close()


def database_unchecked(where: Path) -> Any:
    from sqlalchemy import create_engine

    from tajmahal.arena.ladder.database import engine_url

    place = find(where, None)
    assert place is not None
    return create_engine(engine_url(place.url))


def test_the_schema_is_alembics_newest_and_upgrade_keeps_it(
    tmp_path: Path, ladder_db: str | None
) -> None:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from tajmahal.arena.ladder import database
    from tajmahal.arena.ladder.schema import REVISIONS

    config = Config()
    config.set_main_option("script_location", str(Path(database.__file__).with_name("migrations")))
    script = ScriptDirectory.from_config(config)
    assert script.get_current_head() == REVISION == REVISIONS[-1]
    assert [r.revision for r in script.walk_revisions()][::-1] == list(REVISIONS)
    where = init(tmp_path, ladder_db, "--players", "2", "--round", "2")
    assert ok(where, "upgrade").strip() == f"schema {REVISION}: up to date"
    assert ok(where, "standings", "--json").strip() == "[]"
    for name in ("a", "b"):
        ok(where, "add", name, "random")
    ok(where, "run", "--games", "4", "-j", "1", "-q")
    made = database_unchecked(where)
    with made.connect() as conn:
        tables = schema_of(conn)
        pair = queries.head_to_head(conn, "a", "b")
    with made.begin() as conn:  # the ladder as schema 0001 made it
        conn.execute(text("DROP TABLE meetings"))
        conn.execute(text("DROP INDEX games_by_deal"))
        conn.execute(text("UPDATE alembic_version SET version_num = '0001'"))
    code, _, err = lad(where, "standings")
    assert code == 1 and "has the ladder schema 0001, older than this tajmahal's" in err
    assert ok(where, "upgrade").strip() == f"schema 0001 -> {REVISION}"
    with made.connect() as conn:  # the same schema as a new ladder's, its sums counted
        assert schema_of(conn) == tables
        assert queries.head_to_head(conn, "a", "b") == pair and pair["games"] == 4
    made.dispose()
    assert ok(where, "verify").strip().endswith("OK")


def schema_of(conn: Any) -> dict[str, Any]:
    """Each table's columns (name, type, nullable, key), foreign keys and indexes."""
    from sqlalchemy import inspect

    seen = inspect(conn)
    return {
        table: (
            [(c["name"], str(c["type"]), c["nullable"], c.get("primary_key"))
             for c in seen.get_columns(table)],
            sorted((tuple(f["constrained_columns"]), f["referred_table"])
                   for f in seen.get_foreign_keys(table)),
            sorted((i["name"], tuple(i["column_names"])) for i in seen.get_indexes(table)),
            seen.get_pk_constraint(table)["constrained_columns"],
        )
        for table in sorted(seen.get_table_names())
    }


class Failing:
    """An executor that loses every game's first ``losses`` tries (as a worker or a
    Ray node lost in the middle of the game), then plays it."""

    def __init__(self, losses: int) -> None:
        from tajmahal.arena.tournament import InlineExecutor
        from tajmahal.tajmahal.adapter import TAJMAHAL

        self.inline = InlineExecutor(TAJMAHAL)
        self.losses = losses
        self.tries: dict[int, int] = {}

    def run(self, tasks: Any) -> Any:
        from tajmahal.arena.tournament import GameOutcome

        for task in tasks:
            if task is None:
                return
            self.tries[task.number] = self.tries.get(task.number, 0) + 1
            if self.tries[task.number] <= self.losses:
                yield GameOutcome(task.number, error="the worker process ended", transient=True)
            else:
                yield from self.inline.run([task])


@pytest.mark.parametrize("losses", [2, 3])
def test_a_lost_game_is_played_again_then_void(
    tmp_path: Path, ladder_db: str | None, losses: int
) -> None:
    """A game lost twice is played a third time and counts once; one lost three
    times (the retries spent) is void: kept with its error, skipped by the ratings,
    and the schedule goes on."""
    from tajmahal.arena.ladder.runner import Ladder, run_ladder
    from tajmahal.arena.tournament.runner import RETRIES
    from tajmahal.tajmahal.adapter import TAJMAHAL

    where = init(tmp_path, ladder_db, "--players", "2", "--round", "2")
    for name in ("a", "b"):
        ok(where, "add", name, "random")
    place = find(where, None)
    assert place is not None and RETRIES == 2
    db = open_database(place.url)
    try:
        executor = Failing(losses)
        report = run_ladder(Ladder.load(db, place, TAJMAHAL), executor, limit=2)
    finally:
        db.close()
    assert executor.tries == {1: min(losses + 1, 3), 2: min(losses + 1, 3)}
    if losses == 2:
        assert (report.finished, report.failed, report.void) == (2, 4, 0)
        assert [g["status"] for g in as_json(where, "games", "--limit", "9")] == ["finished"] * 2
    else:
        assert (report.finished, report.failed, report.void) == (0, 4, 2)
        shown = as_json(where, "show", "1")
        assert shown["status"] == "void" and shown["tries"] == 3
        assert shown["error"] == "the worker process ended"
        assert as_json(where, "bots", "a", "--history") == []
    assert ok(where, "verify").strip().endswith("OK")
