"""The ladder's HTTP JSON API on a real uvicorn server (127.0.0.1, a free port),
on SQLite and on PostgreSQL: every answer valid against its JSON Schema, an
owner's uploads and requests, and hostile uploads refused before anything runs."""

from __future__ import annotations

import http.client
import io
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import orjson
import pytest
from ladder_support import Served, bot_archive, served_ladder
from referee_support import cli

from tajmahal.arena.ladder.api import SCHEMAS
from tajmahal.arena.ladder.folders import MAX_ARCHIVE, MAX_BYTES
from tajmahal.arena.sandbox import unavailable

pytestmark = pytest.mark.once
pytest.importorskip("uvicorn")


def valid(data: Any, schema: str) -> Any:
    jsonschema.validate(data, orjson.loads((SCHEMAS / f"{schema}.schema.json").read_bytes()))
    return data


@pytest.fixture
def served(tmp_path: Path, ladder_db: str | None) -> Iterator[tuple[Served, Path, dict[str, str]]]:
    with served_ladder(tmp_path / "lad", ladder_db) as served_one:
        yield served_one


def test_reading_the_ladder(served: tuple[Served, Path, dict[str, str]]) -> None:
    api, where, _ = served
    assert cli("ladder", "run", "--games", "2", "-j", "1", "-q", "--ladder", str(where))[0] == 0
    status, summary = api.call("/")
    assert status == 200 and valid(summary, "summary")["games"]["finished"] == 2
    table = valid(api.call("/standings")[1], "standings")
    assert [r["bot"] for r in table] == sorted((r["bot"] for r in table),
                                               key=lambda b: -next(
                                                   x["rating"]["low"] for x in table
                                                   if x["bot"] == b))
    valid(api.call("/bots")[1], "bots")
    valid(api.call("/bots/house")[1], "bot")
    assert len(valid(api.call("/bots/house/ratings")[1], "ratings")) == 2
    listed = valid(api.call("/games")[1], "games")
    assert [g["game"] for g in listed] == [2, 1]
    game = valid(api.call("/games/1")[1], "game")
    assert game["record"] == "games/000001.jsonl"
    status, record = api.call("/games/1/record")
    assert status == 200 and record == (where / "games" / "000001.jsonl").read_bytes()
    valid(api.call("/head-to-head/house/other")[1], "head-to-head")
    status, error = api.call("/games/99")
    assert status == 404 and valid(error, "error")["error"] == "no game 99 in this ladder"
    status, _ = api.call("/schemas/standings")
    assert status == 200


def test_an_owner_uploads_requests_and_reads_their_logs(
    served: tuple[Served, Path, dict[str, str]],
) -> None:
    if unavailable() is not None:
        pytest.skip(unavailable())
    api, where, tokens = served
    status, added = api.call("/bots/annbot/versions", bot_archive(), tokens["ann"],
                             "application/gzip")
    assert status == 201, added
    assert valid(added, "version") | {"digest": ""} == {
        "bot": "annbot", "version": 1, "digest": "", "command": "random_bot.py",
        "new_bot": True, "unchanged": False}
    status, again = api.call("/bots/annbot/versions", bot_archive(zipped=True), tokens["ann"],
                             "application/zip")
    assert status == 200 and again["unchanged"] and again["digest"] == added["digest"], again
    status, error = api.call("/bots/annbot/versions", bot_archive(), tokens["ben"],
                             "application/gzip")
    assert status == 422 and "belongs to ann" in error["error"]
    status, error = api.call("/requests", orjson.dumps({"bots": ["house", "other"]}),
                             tokens["ann"])
    assert status == 422 and error["error"] == "a request names one of your own bots at least"
    status, made = api.call("/requests", orjson.dumps({"bots": ["annbot", "house"],
                                                       "games": 2}), tokens["ann"])
    assert status == 201 and valid(made, "requested") == {"games": [1, 2]}
    mine = valid(api.call("/me/requests", token=tokens["ann"])[1], "my-requests")
    assert [(r["request"], [(g["game"], g["status"], g["tries"], _bots(g)) for g in r["games"]])
            for r in mine] == [(1, [(1, "scheduled", 0, ["annbot", "house"]),
                                    (2, "scheduled", 0, ["house", "annbot"])])]  # seats rotate
    assert api.call("/me/requests", token=tokens["ben"]) == (200, [])  # ann's are hers only
    assert api.call("/me/requests")[0] == 401
    # A request of ann's (as the organiser makes it) whose record cannot be written:
    # tried again, then void, with why
    assert cli("ladder", "request", "house", "other", "--owner", "ann", "--ladder",
               str(where))[0] == 0
    (where / "games" / "000003.jsonl").mkdir(parents=True)
    assert cli("ladder", "run", "--games", "3", "-j", "1", "-q", "--ladder", str(where))[0] == 0
    mine = valid(api.call("/me/requests", token=tokens["ann"])[1], "my-requests")
    assert [r["request"] for r in mine] == [2, 1]  # newest first
    void, = mine[0]["games"]
    assert (void["game"], void["status"], void["tries"]) == (3, "void", 3)
    assert void["error"].startswith("IsADirectoryError") and "000003.jsonl" in void["error"]
    played = mine[1]["games"]
    assert [g["status"] for g in played] == ["finished", "finished"]
    assert all(s["rank"] in (1, 2) for g in played for s in g["seats"]) and all(
        g["finished"] and g["error"] is None for g in played)
    me = valid(api.call("/me", token=tokens["ann"])[1], "me")
    assert [b["bot"] for b in me["bots"]] == ["annbot"]
    game = api.call("/games/1")[1]
    seat = next(s["seat"] for s in game["seats"] if s["bot"] == "annbot")
    status, log = api.call(f"/games/1/logs/{seat}", token=tokens["ann"])
    assert status == 200 and isinstance(log, bytes)
    status, error = api.call(f"/games/1/logs/{seat}", token=tokens["ben"])
    assert status == 403 and "owner's only" in error["error"]
    status, error = api.call(f"/games/1/logs/{seat}")
    assert status == 401 and "Authorization: Bearer TOKEN" in error["error"]


def _bots(game: dict[str, Any]) -> list[str]:
    return [s["bot"] for s in game["seats"]]


def _tar(members: list[tarfile.TarInfo], data: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w") as archive:
        for info in members:
            content = data.get(info.name, b"")
            info.size = len(content) if info.isfile() else 0
            archive.addfile(info, io.BytesIO(content) if info.isfile() else None)
    return out.getvalue()


def _member(name: str, kind: bytes = tarfile.REGTYPE, link: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = link
    return info


def _zip_bomb() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bot.json", orjson.dumps({"command": "a.py"}))
        with archive.open("a.py", "w") as f:
            block = b"\0" * (1 << 20)
            for _ in range((MAX_BYTES >> 20) + 1):
                f.write(block)
    return out.getvalue()


def test_hostile_uploads_are_refused_before_anything_runs(
    served: tuple[Served, Path, dict[str, str]],
) -> None:
    api, where, tokens = served
    manifest = {"bot.json": orjson.dumps({"command": "a.py"}), "a.py": b"print()\n"}
    cases = {
        "a path out of the bot's folder": _tar(
            [_member("bot.json"), _member("a.py"), _member("../escape.py")], manifest),
        "a link out of the folder": _tar(
            [_member("bot.json"), _member("a.py"),
             _member("secret", tarfile.SYMTYPE, "/etc/shadow")], manifest),
        "neither a file, a folder nor a link": _tar(
            [_member("bot.json"), _member("a.py"), _member("fifo", tarfile.FIFOTYPE)],
            manifest),
        "no bot.json": _tar([_member("a.py")], manifest),
        "cannot start the bot: no such file 'missing.py'": bot_archive(command="missing.py"),
        "unpacks to more than": _zip_bomb(),
    }
    for why, data in cases.items():
        status, error = api.call("/bots/evil/versions", data, tokens["ben"], "application/x-tar")
        assert status == 422 and why in error["error"], (why, error)
    # Too large: refused (413) from its Content-Length, before the body is read
    connection = http.client.HTTPConnection(api.base.split("/")[2], timeout=60)
    connection.putrequest("POST", "/api/v1/bots/evil/versions")
    for header, value in (("Content-Type", "application/zip"), ("Authorization",
                          f"Bearer {tokens['ben']}"), ("Content-Length", str(MAX_ARCHIVE + 1))):
        connection.putheader(header, value)
    connection.endheaders(b"PK")
    answer = connection.getresponse()
    assert answer.status == 413 and b"larger than" in answer.read()
    connection.close()
    status, error = api.call("/bots/evil/versions", bot_archive(), tokens["ben"], "text/plain")
    assert status == 415
    status, error = api.call("/bots/evil/versions", bot_archive(), "tjl_not-a-token",
                             "application/gzip")
    assert status == 401
    status, error = api.call("/bots/../versions", bot_archive(), tokens["ben"], "application/gzip")
    assert status in (404, 405, 422)
    assert not list((where / "versions").iterdir())  # nothing stored
    assert not list((where / "incoming").iterdir())  # nothing left unpacked
