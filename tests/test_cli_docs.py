"""The console examples of docs/cli.md, run as written: the output shown must be
what the command prints (times aside; a ``...`` line stands for lines left out)."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "cli.md"
TAMPERED = "tampered.jsonl"  # the doc says: runs/g.jsonl with line 12's seat 0 made 2
SECONDS = re.compile(r"\d+\.\d+ ?s\b")


def examples(text: str) -> list[tuple[str, list[str]]]:
    """Each ``$ tajmahal ...`` line of the console blocks, with the lines shown under it."""
    out: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                out.append((line[2:], []))
            elif out:
                out[-1][1].append(line)
    return out


def normal(line: str) -> str:
    """A line without its timings and its column padding."""
    return " ".join(SECONDS.sub("T", line).split())


def missing_line(shown: list[str], printed: list[str]) -> str | None:
    """The first line of ``shown`` not found, in order, in ``printed``."""
    rest = iter(normal(p) for p in printed)
    for line in shown:
        if line.strip() == "...":
            continue
        if normal(line) not in rest:
            return line
    return None


def tamper(record: Path, out: Path) -> None:
    """The doc's hand edit: line 12 (decision 11, seat 0's) claims seat 2 acted."""
    lines = record.read_text().splitlines()
    action = json.loads(lines[11])
    assert (action["decision"], action["seat"]) == (11, 0)
    action["seat"] = 2
    lines[11] = json.dumps(action, separators=(",", ":"))
    out.write_text("\n".join(lines) + "\n")


def test_the_parser_and_the_comparison() -> None:
    text = "x\n```console\n$ tajmahal a\n1\n...\n3\n$ tajmahal b\n```\n"
    assert examples(text) == [("tajmahal a", ["1", "...", "3"]), ("tajmahal b", [])]
    assert missing_line(["a 1.17 s", "...", "c  0.39s"], ["a 0.90 s", "b", "c 0.01s  "]) is None
    assert missing_line(["c", "a"], ["a", "b", "c"]) == "a"


def test_every_console_example_prints_what_the_doc_shows(tmp_path: Path) -> None:
    for name in ("bots", "tests"):
        (tmp_path / name).symlink_to(ROOT / name)
    (tmp_path / "runs").mkdir()
    ran = 0
    for command, shown in examples(DOC.read_text()):
        args = shlex.split(command)
        assert args[0] == "tajmahal", command
        if shutil.which("node") is None and any(a.endswith(".js") for a in args):
            continue
        if args[-1] == TAMPERED and (tmp_path / "runs" / "g.jsonl").exists():
            tamper(tmp_path / "runs" / "g.jsonl", tmp_path / TAMPERED)
        if args[1] == "replay" and not (tmp_path / args[-1]).exists():
            continue  # the match that writes it needed node
        done = subprocess.run(
            [sys.executable, "-c", "from tajmahal.cli import main; main()", *args[1:]],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
            env=os.environ | {"COLUMNS": "200"},
        )
        assert done.returncode == (1 if "MISMATCH" in " ".join(shown) else 0), (
            command,
            done.stderr,
        )
        printed = (done.stdout + done.stderr).splitlines()
        missing = missing_line(shown, printed)
        assert missing is None, f"{command}\nshown but not printed: {missing!r}\n" + "\n".join(
            printed[:40]
        )
        ran += 1
    assert ran == (3 if shutil.which("node") is None else 7)  # fault, Tikal: no node needed
