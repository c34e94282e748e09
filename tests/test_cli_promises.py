"""What the command line promises in docs/cli.md and its help, each kept: NAME=BOT
everywhere, names told apart in every table and record, the "did you mean" one
folder down, tables that fit, folders checked before they are made, a folder of
records verified and viewed whole, Elo bounds, the play command's output, show's
colours, and the package's own names."""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import orjson
import pytest
from referee_support import cli, faulty

import tajmahal


def test_match_takes_name_equals_bot_and_tells_alike_seats_apart(tmp_path: Path) -> None:
    record = tmp_path / "g.jsonl"
    code, out, err = cli(
        "match", "me=greedy", "random", "random", "--seed", "1", "--record", str(record)
    )
    assert code == 0, err
    rows = [line.split() for line in out.splitlines()[2:5]]
    assert [row[:2] for row in rows] == [["0", "me"], ["1", "random#1"], ["2", "random#2"]]
    # the bot column (or the lines under the table) says how the named seat was started
    assert "greedy" in rows[0] or "seat 0: greedy" in out
    assert "seat 1: random" not in out  # random#1 is plainly the bot random
    header = orjson.loads(record.read_text().splitlines()[0])
    # the record keeps each bot's own name from its hello, and the name given
    assert [(p["name"], p.get("named")) for p in header["players"]] == [
        ("greedy", "me"), ("random", None), ("random", None)
    ]
    code, out, err = cli("replay", str(record))
    assert code == 0, err
    assert "seat 0 me, seat 1 random#1, seat 2 random#2" in out.splitlines()[0]
    data = orjson.loads(cli("match", "--json", "a=first", "b=first", "--seed", "2")[1])
    assert [s["name"] for s in data["seats"]] == ["a", "b"]


def test_a_name_given_twice_is_refused_in_every_command(tmp_path: Path) -> None:
    for command in (["match"], ["tournament", "--out", str(tmp_path / "t")]):
        code, _, err = cli(*command, "x=greedy", "x=random")
        assert code == 2 and "named 'x'" in err, (command, err)
    code, _, err = cli("play", "x=human", "x=greedy")
    assert code == 2 and "two seats are named 'x'" in err


def test_a_bot_one_folder_down_is_suggested(tmp_path: Path, monkeypatch: Any) -> None:
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "random_bot.py").write_text("print('hi')\n")
    monkeypatch.chdir(tmp_path)
    code, _, err = cli("match", "random_bot.py", "random")
    assert code == 2
    assert "no such file 'random_bot.py'; did you mean 'bots/random_bot.py'?" in err
    monkeypatch.chdir(tmp_path / "bots")
    (tmp_path / "bots" / "random_bot.py").unlink()  # an example bot, nowhere here
    code, _, err = cli("match", "random_bot.py", "random")
    assert code == 2 and "`tajmahal bots --copy .` writes them into bots" in err
    assert "then give bots/random_bot.py" in err


def test_the_fault_column_is_never_cut_at_80_columns() -> None:
    # five seats, a name of 20 characters, a fault at the end ("timeout (end)")
    code, out, err = cli(
        "match", "random", f"abcdefghijklmnopqrst={faulty('garbage', 'text')}", "random",
        "random", faulty("ignore_end"), "--seed", "1", "--grace", "0.2", columns=80,
    )
    assert code == 0, err
    table = out.splitlines()[1:7]
    assert all(len(line.rstrip()) <= 80 for line in out.splitlines())
    kinds = {row.split()[-1] for row in table[1:] if row.split()[-1].isalpha()}
    assert "malformed" in table[2] and "timeout (end)" in table[5], table
    assert kinds <= {"malformed", "(end)"}


def test_bots_copy_refuses_a_missing_parent_as_record_does(tmp_path: Path) -> None:
    deep = tmp_path / "no" / "x"
    code, _, err = cli("bots", "--copy", str(deep))
    assert code == 2 and f"--copy {deep}: no folder {tmp_path / 'no'}" in err
    assert not (tmp_path / "no").exists()
    assert cli("bots", "--copy", str(tmp_path / "x"))[0] == 0  # one missing folder: made


def tampered_tournament(tmp_path: Path) -> tuple[Path, Path]:
    out = tmp_path / "t"
    code, _, err = cli("tournament", "greedy", "random", "--games", "4", "--seed", "3",
                       "--jobs", "1", "-q", "--out", str(out))
    assert code == 0, err
    bad = out / "games" / "000002.jsonl"
    lines = bad.read_text().splitlines()
    step = next(k for k, line in enumerate(lines) if '"type":"action"' in line)
    lines[step] = lines[step].replace('"seat":', '"seat":7,"was":', 1)
    bad.write_text("\n".join(lines) + "\n")
    return out, bad


def test_replay_verifies_a_folder_and_names_the_bad_record(tmp_path: Path) -> None:
    out, bad = tampered_tournament(tmp_path)
    code, stdout, err = cli("replay", "--verify", str(out))
    assert code == 1
    assert err.startswith(f"{bad}: MISMATCH: "), err
    assert stdout.strip() == f"{out}: 1 of 4 records do not replay (named above); 3 OK"
    bad.unlink()
    code, stdout, err = cli("replay", "--verify", str(out))
    assert code == 0 and err == ""
    assert stdout.startswith(f"{out}: OK: 3 records replayed, ")
    code, _, err = cli("replay", str(out))  # telling a game needs one record
    assert code == 2 and "--verify, --html for a folder of records" in err


def test_a_folder_page_is_written_without_the_bad_record(tmp_path: Path) -> None:
    out, bad = tampered_tournament(tmp_path)
    page = tmp_path / "all.html"
    code, stdout, err = cli("replay", str(out), "--html", str(page))
    assert code == 1  # the page is written, and the bad record named
    assert f"{bad}: MISMATCH: " in err and "left out of the page" in err
    assert stdout.strip() == (
        f"{page}: the viewer of 3 games from {out}; 1 record left out (named above)"
    )
    html = page.read_text()
    assert "000001.jsonl" in html and "000002.jsonl" not in html


def test_play_takes_name_equals_human_and_prints_what_match_prints(tmp_path: Path) -> None:
    record = tmp_path / "play.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "tajmahal", "play", "alice=human", "random", "random",
         "--seed", "5", "--port", "0", "--no-browser", "--pace", "0", "--linger", "0",
         "--record", str(record)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=os.environ | {"COLUMNS": "100"},
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()  # the address, on stdout
        assert first.startswith("the game is at http://127.0.0.1:"), first
        base, token = first.split(" at ", 1)[1].split()[0].split("#token=", 1)
        answered = 0
        while process.poll() is None and answered < 2000:
            state = api(base, token, "api/state?since=0")
            pending = state.get("pending")
            if pending and pending.get("seat") == 0:
                api(base, token, "api/act", {"seat": 0, "decision": pending["decision"],
                                             "choice": 0})
                answered += 1
            else:
                time.sleep(0.02)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Taj Mahal, 3 players (standard), seed 5: "), lines
    assert lines[0].endswith(f"; record {record}")
    rows = [line.split()[:2] for line in lines[2:5]]
    assert rows == [["0", "alice"], ["1", "random#1"], ["2", "random#2"]]
    header = orjson.loads(record.read_text().splitlines()[0])
    assert header["players"][0]["name"] == "alice"
    code, replayed, err = cli("replay", str(record))
    assert code == 0 and "seat 0 alice, seat 1 random#1, seat 2 random#2" in replayed


def api(base: str, token: str, path: str, data: dict[str, Any] | None = None) -> Any:
    request = urllib.request.Request(
        base + path,
        json.dumps(data).encode() if data is not None else None,
        {"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as e:
        return json.loads(e.read())
    except (urllib.error.URLError, OSError, http.client.HTTPException):
        return {}  # the game is over and the server gone (or going: a reset, a cut answer)


def test_a_port_in_use_says_to_try_port_0() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, _, err = cli("play", "human", "random", "--port", str(port), "--no-browser")
    assert code == 2
    assert f"cannot serve on 127.0.0.1:{port}: " in err and "--port 0 takes any free port" in err


@pytest.mark.once
def test_the_ladder_s_server_takes_port_0_and_says_so_when_a_port_is_taken(
    tmp_path: Path,
) -> None:
    pytest.importorskip("sqlalchemy")
    pytest.importorskip("uvicorn")
    where = tmp_path / "lad"
    assert cli("ladder", "init", str(where), "--players", "2")[0] == 0
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, _, err = cli("ladder", "serve", "--ladder", str(where), "--port", str(port))
    assert code == 2
    assert f"cannot serve on 127.0.0.1:{port}: " in err and "--port 0 takes any free port" in err
    serving = subprocess.Popen(
        [sys.executable, "-m", "tajmahal", "ladder", "serve", "--ladder", str(where),
         "--port", "0"], stdout=subprocess.PIPE, text=True,
    )
    try:
        assert serving.stdout is not None
        first = serving.stdout.readline()
        assert first.startswith("the ladder on http://127.0.0.1:"), first
        address = first.split("its API on ", 1)[1].split()[0]
        assert not address.startswith("http://127.0.0.1:0/")  # the port it was given
        for _ in range(200):  # the line comes as uvicorn starts: until it answers
            try:
                with urllib.request.urlopen(address + "standings", timeout=10) as answer:
                    assert answer.status == 200
                    break
            except urllib.error.URLError:
                time.sleep(0.05)
        else:
            raise AssertionError(f"nothing answered at {address}")
    finally:
        serving.terminate()
        serving.wait(timeout=30)


def test_show_keeps_its_colours_through_a_pipe_when_asked(tmp_path: Path) -> None:
    record = tmp_path / "g.jsonl"
    code, _, err = cli("match", "greedy", "random", "--seed", "1", "--record", str(record))
    assert code == 0, err
    plain = cli("show", str(record), "--step", "5")[1]
    assert "\x1b[" not in plain
    coloured = cli("show", str(record), "--step", "5", "--color", "always")[1]
    assert "\x1b[" in coloured
    forced = subprocess.run(  # rich's FORCE_COLOR, for auto
        [sys.executable, "-m", "tajmahal", "show", str(record), "--step", "5"],
        capture_output=True, text=True, env=os.environ | {"FORCE_COLOR": "1"}, check=True,
    )
    assert "\x1b[" in forced.stdout
    never = subprocess.run(
        [sys.executable, "-m", "tajmahal", "show", str(record), "--step", "5", "--color",
         "never"], capture_output=True, text=True, env=os.environ | {"FORCE_COLOR": "1"},
        check=True,
    )
    assert "\x1b[" not in never.stdout


def test_the_package_shows_its_own_names_only() -> None:
    names = dir(tajmahal)
    for name in ("Any", "TYPE_CHECKING", "annotations", "importlib", "ModuleType"):
        assert name not in names
    for name in ("COMPILED", "ENGINE", "__version__", "new_game", "Setup", "apply"):
        assert name in names


def test_the_help_tells_the_three_games_and_the_browser_game() -> None:
    code, out, _ = cli("--help")
    assert code == 0
    text = " ".join(out.split())
    assert "Taj Mahal, Tikal and Java" in text and "web browser" in text
    assert "tajmahal play human greedy mcts" in text
    code, out, _ = cli("play", "--help")
    text = " ".join(out.split())
    assert "Play a game in the web browser against bots" in text and "alice=human" in text


def test_play_without_seats_tells_its_random_players_apart() -> None:
    code, out, _ = cli("play", "--players", "3", "--seed", "4")
    assert code == 0
    assert [line.split()[1] for line in out.splitlines()[4:7]] == [
        "random#1", "random#2", "random#3"
    ]


@pytest.mark.parametrize("args", [["first", "first"], ["x=first", "first"]])
def test_the_names_of_a_tournament_game_are_its_entrants(tmp_path: Path, args: list[str]) -> None:
    out = tmp_path / "t"
    code, _, err = cli("tournament", *args, "--games", "2", "--seed", "1", "--jobs", "1", "-q",
                       "--out", str(out))
    assert code == 0, err
    standings = orjson.loads((out / "standings.json").read_bytes())
    entrants = sorted(e["name"] for e in standings["entrants"])
    record = next((out / "games").glob("*.jsonl"))
    header = orjson.loads(record.read_text().splitlines()[0])
    code, told, _ = cli("replay", str(record))
    assert code == 0
    seats = told.splitlines()[0].split(": ", 1)[1]
    assert sorted(s.split(" ", 2)[2] for s in seats.split(", ")) == entrants
    assert len({p.get("named", p["name"]) for p in header["players"]}) == 2


def test_a_tournament_prints_a_line_per_finished_game(tmp_path: Path) -> None:
    args = ["tournament", "greedy", "x=random", "--games", "4", "--seed", "2", "--jobs", "1"]
    code, out, err = cli(*args, "--out", str(tmp_path / "t"))
    assert code == 0, err
    lines = sorted(line for line in out.splitlines() if line.startswith("game "))
    assert [line.split(":")[0] for line in lines] == ["game 0", "game 1", "game 2", "game 3"]
    games = orjson.loads((tmp_path / "t" / "standings.json").read_bytes())["entrants"]
    assert sum(e["games"] for e in games) == 8  # two seats a game
    for line in lines:  # best first, each entrant with its score
        places = line.split(": ", 1)[1].split(", ")
        assert sorted(p.split()[1] for p in places) == ["greedy", "x"]
        assert places[0].startswith("1. ")
    code, out, err = cli(*args, "-q", "--out", str(tmp_path / "q"))
    assert code == 0 and not any(line.startswith("game ") for line in out.splitlines())


def test_every_help_points_at_docs_an_installed_package_has() -> None:
    """A wheel's user has no docs/ folder: the help names `tajmahal docs TOPIC`,
    and each topic it names is one that command shows."""
    import click
    from click.testing import CliRunner

    from tajmahal.cli import main
    from tajmahal.shipped import docs

    def helps(command: click.Command, path: list[str]) -> list[tuple[str, str]]:
        found = [(" ".join(path), CliRunner().invoke(main, [*path, "--help"]).output)]
        if isinstance(command, click.Group):
            for name, sub in sorted(command.commands.items()):
                found += helps(sub, [*path, name])
        return found

    texts = helps(main, [])
    assert len(texts) > 20  # the commands and the ladder's and tournament's own
    topics = set(docs())
    for where, text in texts:
        assert "docs/" not in " ".join(text.split()), (where, text)
        assert ".md" not in text, (where, text)
        for named in re.findall(r"tajmahal docs ([a-z][\w-]*)", text):
            assert named in topics, (where, named)
