"""Live games: what a spectator is sent while a game is played (the public view
only, never a hand, a secret or the seed), the live files of watched and
unwatched games, and one channel for any number of spectators."""

from __future__ import annotations

import gzip
import http.client
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import orjson
import pytest
from referee_support import cli

from tajmahal.arena.live import LiveFeed, LiveFolder, LiveWriter
from tajmahal.arena.referee import BotSpec, run_match
from tajmahal.arena.registry import GAMES
from tajmahal.arena.replayer import replay
from tajmahal.arena.terms import MatchConfig
from tajmahal.arena.viewer import seat_lines
from tajmahal.arena.watch import Watch, paced

pytest.importorskip("uvicorn")
pytest.importorskip("jinja2")

#: The keys a spectator's events may hold (anything else would be news): the
#: unchanging pictures (the board, the document, the legend) only by name.
KEYS = {"type", "title", "names", "sources", "started", "ready", "pictures", "log", "scores",
        "picture", "last", "result", "decision", "seat", "text", "lines", "by", "part", "told",
        "ranks", "breakdown", "faults", "kind", "detail", "game"}


def fetched(port: int, path: str, headers: dict[str, str]) -> tuple[int, bytes, dict[str, str]]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("GET", path, headers=headers)
        answer = connection.getresponse()
        return answer.status, answer.read(), {k.lower(): v for k, v in answer.getheaders()}
    finally:
        connection.close()


def events_of(port: int, path: str, token: str | None, into: list[tuple[str, Any]]) -> int:
    """Read the server-sent events at ``path`` into ``into`` until the stream ends;
    the status."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    connection.request("GET", path, headers=headers)
    answer = connection.getresponse()
    if answer.status != 200:
        answer.read()
        return answer.status
    kind = ""
    for raw in answer:
        line = raw.decode().rstrip("\n")
        if line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: "):
            into.append((kind, orjson.loads(line[6:])))
    connection.close()
    return 200


def watching(*args: str) -> tuple[subprocess.Popen[str], int, str]:
    """``tajmahal ARGS --watch`` started (no browser opened): the process, its
    page's port and token."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tajmahal", *args, "--watch"], stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True, env={**os.environ, "BROWSER": "true"})
    assert process.stderr is not None
    line = process.stderr.readline()
    url = line.split("watch at ", 1)[1].split()[0]
    return process, int(url.split(":")[2].split("/")[0]), url.split("#token=")[1]


def keys_in(data: Any) -> set[str]:
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in keys_in(v)}
    if isinstance(data, list):
        return {k for v in data for k in keys_in(v)}
    return set()


@pytest.mark.parametrize(("name", "bots"), [("tajmahal", ["greedy", "random", "random"]),
                                            ("java", ["greedy", "random"])])
def test_a_spectator_is_sent_the_public_view_only_while_the_game_is_played(
    tmp_path: Path, name: str, bots: list[str],
) -> None:
    game = GAMES.by_id(name)
    seed = 8_123_456_789_012_345
    setup = game.random_setup(len(bots), seed)
    specs = [BotSpec.parse(b, list(game.builtin_players())) for b in bots]
    live, record = tmp_path / "live" / "g.jsonl", tmp_path / "g.jsonl"
    writer = LiveWriter(game, setup, bots, live, every=0.0, watched=True)
    received: list[tuple[str, Any]] = []
    with Watch(tmp_path / "live", "test", lambda key: None, game, open_browser=False) as page:
        port, token = page.server.port, page.server.token
        assert events_of(port, "/api/live/g/events", None, []) == 403  # the page's own only
        reader = threading.Thread(target=events_of,
                                  args=(port, "/api/live/g/events", token, received))
        reader.start()
        while not page.hub.channels:  # the spectator is there before the first move
            time.sleep(0.01)
        hook = paced(writer.on_step, 0.003)  # a game that takes a few looks of the server
        result = run_match(game, setup, specs, MatchConfig(record=record, on_step=hook), seed)
        writer.finish(result)
        reader.join(timeout=60)
        named = {data["pictures"] for _, data in received if data.get("pictures")}
        assert len(named) == 1  # made once for the game, fetched apart
        path = f"/api/live/pictures/{named.pop()}"
        assert fetched(port, path, {})[0] == 403  # the page's own only
        auth = {"Authorization": f"Bearer {token}"}
        status, body, headers = fetched(port, path, auth)
        pictures = orjson.loads(body)
        assert status == 200 and set(pictures) == {"legend", "board", "document"}
        assert "<svg" in pictures["document"] and pictures["board"] and pictures["legend"]
        assert "immutable" in headers["cache-control"] and path.endswith(headers["etag"].strip('"'))
        packed = fetched(port, path, {**auth, "Accept-Encoding": "gzip"})
        assert packed[2]["content-encoding"] == "gzip" and gzip.decompress(packed[1]) == body
        assert fetched(port, path, {**auth, "If-None-Match": headers["etag"]})[0] == 304
        assert fetched(port, "/api/live/pictures/" + "0" * 64, auth)[0] == 404
    kinds = [kind for kind, _ in received]
    assert kinds[0] == "view" and kinds[-1] == "end" and kinds.count("end") == 1
    during = [data for kind, data in received if kind != "end"]
    assert len(during) > 3  # the game came in parts as it was played
    assert keys_in(received) <= KEYS
    text = orjson.dumps([during, pictures]).decode()
    assert str(seed) not in text and "setup" not in text
    assert 'class="hand"' not in text and 'id="hand-' not in text  # no seat's hand drawn
    # every line only a seat was told (its draws, its secret cards) never reached them
    entries = [entry for data in during for entry in data.get("log", [])]
    told = {line for entry in entries for line in [entry["text"], *entry["lines"]]}
    secrets = set()

    def step(before: Any, action: Any, after: Any, events: Any) -> None:
        views = seat_lines(game, after, events, bots)
        if views is not None:
            secrets.update(line for seat_view in views[:-1] for line in seat_view
                           if line not in views[-1])

    done = replay(game, record, on_step=step)
    assert told and not told & secrets
    if name == "tajmahal":
        assert secrets  # the test saw secrets to keep: Taj Mahal's draws are private
        # a withdrawal is told once, as the browser game tells it ("withdraws and wins ...")
        assert any(entry["told"] for entry in entries)
    # the spectator's log is the whole game, decision by decision
    logged = [e["decision"] for data in during for e in data.get("log", [])]
    assert logged == list(range(len(done.steps) + 1))


def test_an_unwatched_game_writes_its_begin_and_end_and_catches_up_when_watched(
    tmp_path: Path,
) -> None:
    game = GAMES.by_id("tajmahal")
    setup = game.random_setup(3, 5)
    bots = ["greedy", "random", "random"]
    specs = [BotSpec.parse(b, list(game.builtin_players())) for b in bots]
    path = tmp_path / "000007.jsonl"
    writer = LiveWriter(game, setup, bots, path, every=0.0)
    steps = []

    def hook(*step: Any) -> None:
        steps.append(step)
        writer.on_step(*step)
        if len(steps) == 40:  # a server starts watching: its mark appears
            (tmp_path / "000007.abc.watch").touch()
            writer.looked = 0.0

    result = run_match(game, setup, specs, MatchConfig(on_step=hook), 5)
    writer.finish(result)
    lines = [orjson.loads(line) for line in path.read_bytes().splitlines()]
    assert [line["type"] for line in lines[:2]] == ["begin", "start"]
    assert lines[1]["log"][-1]["decision"] >= 39  # the game so far, at once
    feed = LiveFeed(path)
    assert feed.poll() is not None and feed.ended
    assert feed.view is not None
    assert [e["decision"] for e in feed.view["log"]] == list(range(len(steps) + 1))
    assert feed.view["result"]["ranks"] == [s.rank for s in result.seats]

    nobody = tmp_path / "000008.jsonl"
    writer = LiveWriter(game, setup, bots, nobody)
    writer.finish(run_match(game, setup, specs, MatchConfig(on_step=writer.on_step), 5))
    assert [orjson.loads(x)["type"] for x in nobody.read_bytes().splitlines()] == ["begin", "end"]


def test_a_live_file_written_anew_or_removed_ends_its_feed(tmp_path: Path) -> None:
    game = GAMES.by_id("tajmahal")
    setup, names = game.random_setup(2, 1), ["a", "b"]
    path = tmp_path / "000001.jsonl"
    LiveWriter(game, setup, names, path).close()
    feed = LiveFeed(path)
    assert [c["type"] for c in feed.poll() or []] == ["begin"]
    assert feed.poll() == []
    for _ in range(3):  # played again, begun the same: a file of its own all the same
        LiveWriter(game, setup, names, path).close()
        assert feed.poll() is None
        feed = LiveFeed(path)
        assert [c["type"] for c in feed.poll() or []] == ["begin"]
    path.unlink()
    assert feed.poll() is None
    folder = LiveFolder(tmp_path)
    (tmp_path / "000001.x.watch").touch()
    folder.clear()
    assert not list(tmp_path.iterdir())


@pytest.mark.once
def test_match_watch_serves_the_game_to_its_page_and_the_page_only(tmp_path: Path) -> None:
    process, port, token = watching(
        "match", "me=greedy", "random", "random", "--pace", "0.02", "--seed", "4"
    )
    try:
        received: list[tuple[str, Any]] = []
        assert events_of(port, "/api/live/match/events", token, received) == 200
        assert received[-1][0] == "end"
        # the seats' names as the record and the replay give them
        assert next(data["names"] for _, data in received if "names" in data) == [
            "me", "random#1", "random#2"
        ]
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", "/api/replay/match", headers={"Authorization": f"Bearer {token}"})
        answer = connection.getresponse()
        assert answer.status == 200 and b'id="data"' in answer.read()
        connection.request("GET", "/api/replay/match")
        refused = connection.getresponse()
        assert refused.status == 403 and b"only for the person" in refused.read()
    finally:
        process.terminate()
        process.wait(timeout=20)
    code, _, err = cli("match", "greedy", "random", "--pace", "0.1")
    assert code == 0 and not err  # --pace alone changes nothing


@pytest.mark.once
def test_tournament_watch_lists_its_games_and_serves_each_to_its_end(tmp_path: Path) -> None:
    out = tmp_path / "tour"
    process, port, token = watching("tournament", "greedy", "random", "--games", "40", "-j", "1",
                                    "--seed", "3", "--out", str(out), "-q")
    try:
        assert process.stderr is not None
        headers = {"Authorization": f"Bearer {token}"}
        listed: list[Any] = []
        while not listed:  # a game under way (or just ended: its file stays a while)
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("GET", "/api/live", headers=headers)
            listed = orjson.loads(connection.getresponse().read())
            connection.close()
            if not listed:
                assert process.poll() is None, "the tournament ended with no game listed"
                time.sleep(0.01)
        key = listed[0]["game"]
        assert sorted(listed[0]["names"]) == ["greedy", "random"]
        received: list[tuple[str, Any]] = []
        assert events_of(port, f"/api/live/{key}/events", token, received) == 200
        assert received[0][0] == "view" and received[-1][0] == "end"
        assert keys_in(received) <= KEYS
        assert len(received[-1][1]["result"]["ranks"]) == 2
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", "/api/live")
        refused = connection.getresponse()
        assert refused.status == 403  # the page's own only
        connection.close()
        for line in process.stderr:  # the tournament ends; its page stays until Ctrl-C
            if "stays open until Ctrl-C" in line:
                break
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert len(list((out / "games").glob("*.jsonl"))) == 40  # every game played, watched
    # stopped in the middle (a signal), it exits: there is nothing more to watch
    stopped, _, _ = watching("tournament", "greedy", "random", "--games", "400", "-j", "1",
                             "--seed", "3", "--out", str(tmp_path / "stopped"), "-q")
    try:
        assert stopped.stderr is not None
        while not list((tmp_path / "stopped" / "games").glob("*.jsonl")):  # under way
            assert stopped.poll() is None
            time.sleep(0.05)
        stopped.terminate()
        stopped.wait(timeout=60)
        assert "interrupted" in stopped.stderr.read()
    finally:
        if stopped.poll() is None:
            stopped.kill()
            stopped.wait()
