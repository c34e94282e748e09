"""The ladder's HTTP JSON API on a real uvicorn server (127.0.0.1, a free port),
on SQLite and on PostgreSQL: every answer valid against its JSON Schema, an
owner's uploads and requests, and hostile uploads refused before anything runs."""

from __future__ import annotations

import http.client
import io
import socket
import tarfile
import threading
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import orjson
import pytest
from referee_support import BOTS, cli

from tajmahal.arena.ladder.api import SCHEMAS, Context, make_app
from tajmahal.arena.ladder.database import open_database
from tajmahal.arena.ladder.folders import MAX_ARCHIVE, MAX_BYTES
from tajmahal.arena.ladder.store import find
from tajmahal.arena.registry import GAMES
from tajmahal.arena.sandbox import unavailable

pytestmark = pytest.mark.once
uvicorn = pytest.importorskip("uvicorn")


class Served:
    """The API of the ladder in ``where``, served in a thread."""

    def __init__(self, where: Path) -> None:
        place = find(where, None)
        assert place is not None
        self.db = open_database(place.url)
        settings = self.db.settings()
        app = make_app(Context(self.db, place, GAMES.by_id(settings["game"]), settings))
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.base = f"http://127.0.0.1:{self.sock.getsockname()[1]}/api/v1"
        config = uvicorn.Config(app, log_level="warning", lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       daemon=True)
        self.thread.start()
        while not self.server.started:
            time.sleep(0.02)

    def call(self, path: str, body: bytes | None = None, token: str | None = None,
             kind: str = "application/json") -> tuple[int, Any]:
        headers = {"Content-Type": kind} if body is not None else {}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.base + path, data=body, headers=headers,
                                         method="POST" if body is not None else "GET")
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                status, data, media = answer.status, answer.read(), answer.headers["content-type"]
        except urllib.error.HTTPError as e:
            status, data, media = e.code, e.read(), e.headers["content-type"]
        parsed = media.startswith("application/json")
        return status, orjson.loads(data) if parsed else data

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.db.close()


def valid(data: Any, schema: str) -> Any:
    jsonschema.validate(data, orjson.loads((SCHEMAS / f"{schema}.schema.json").read_bytes()))
    return data


@pytest.fixture
def served(tmp_path: Path, ladder_db: str | None) -> Iterator[tuple[Served, Path, dict[str, str]]]:
    where = tmp_path / "lad"
    extra = ["--db", ladder_db] if ladder_db is not None else []
    assert cli("ladder", "init", str(where), "--players", "2", "--round", "2", *extra)[0] == 0
    tokens = {}
    for owner in ("ann", "ben"):
        code, out, err = cli("ladder", "owners", "add", owner, "--ladder", str(where))
        assert code == 0, err
        tokens[owner] = out.split("API token ")[1].split()[0]
    for name in ("house", "other"):
        assert cli("ladder", "add", name, "random", "--ladder", str(where))[0] == 0
    api = Served(where)
    try:
        yield api, where, tokens
    finally:
        api.stop()


def bot_archive(extra: dict[str, bytes] | None = None, command: str = "random_bot.py",
                zipped: bool = False) -> bytes:
    files = {"random_bot.py": (BOTS / "random_bot.py").read_bytes(),
             "bot.json": orjson.dumps({"command": command}), **(extra or {})}
    out = io.BytesIO()
    if zipped:
        with zipfile.ZipFile(out, "w") as archive:
            for name, data in files.items():
                archive.writestr(name, data)
    else:
        with tarfile.open(fileobj=out, mode="w:gz") as archive:
            for name, data in files.items():
                info = tarfile.TarInfo(name)
                info.size = len(data)
                archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


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
    assert cli("ladder", "run", "--games", "2", "-j", "1", "-q", "--ladder", str(where))[0] == 0
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
