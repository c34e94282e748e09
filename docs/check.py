"""The figures of the docs, checked against the commands that print them.

A figure is what a doc shows a command printing; the doc names the command, and
this script runs it and compares.  ``make docs-check`` runs every figure,
``make docs-update`` rewrites those that drifted (review the diff), and the test
suite runs the fast ones (``tests/test_doc_figures.py``).

- Every ```` ```console ```` block is a figure: each ``$ COMMAND`` line runs
  (bash), and the lines under it must be what it prints (stdout and stderr, as a
  terminal shows them).
- Any other block is one when the line just before its fence is
  ``<!-- figure: COMMAND -->``: its content must be COMMAND's stdout.  Content
  that is not fenced (a markdown table) ends at ``<!-- figure end -->``.
- Options go in brackets: ``<!-- figure [slow, status=1]: COMMAND -->``, or
  ``<!-- figure [slow] -->`` before a console block.  ``slow``: only
  ``make docs-check`` runs it; ``measured``: numbers are measurements and are not
  compared; ``status=N``: the exit status of the block's last command (the others
  exit 0); ``file=PATH``: the command writes PATH
  (an image: it must be written, and ``--update`` copies it into the repository);
  ``skip=REASON``: not run; ``save=PATH`` (before a block of code, with no
  command): the block is saved as PATH, for the figures after it to run.

Where each example runs: the docs are read by people with a clone of the
repository and by people with a ``pip install tajmahal`` (a wheel) only, who
get the example bots and the protocol with ``tajmahal bots --copy .``.  So a
figure runs where only ``bots/`` and ``protocol/`` are (as that command writes
them), unless the line ``<!-- clone -->`` comes before it (before its figure
comment, or its fence): then ``tests/``, ``examples/`` and ``benchmarks/`` of
the repository are there too.  Every block of commands (``sh``, ``console``)
that uses what only a clone has (those folders, ``src/``, ``make``, ``python -m
benchmarks``) must be so marked, and the text just before it must say so (the
word "clone"): :func:`place_problems` lists the blocks that do not.

Lines are compared with runs of whitespace as one space and timings (``0.55 s``,
``12 ms``, ``281.7 games/min``, JSON's ``"duration"``, ``"time_used"`` ...)
masked; a shown line ``...`` stands for any number of lines.  The commands of
one doc run in order in one scratch directory (later ones see what earlier ones
wrote under ``runs/``), where ``bots``, ``tests``, ``examples``, ``protocol`` and
``benchmarks`` of the repository are linked, with this Python's ``bin`` first on
the PATH, ``COLUMNS=80`` and ``TAJMAHAL_REPRODUCIBLE_SEEDS=1`` (bot programs are
told seeds that follow from the match seed, so they play the same in every run).

Usage: ``python docs/check.py [--update] [--fast] [-k TEXT] [FILE...]``
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: What a wheel's user has after ``tajmahal bots --copy .``, and what only a clone has.
WHEEL = ("bots", "protocol")
CLONE = ("tests", "examples", "benchmarks")
LINKED = (*WHEEL, *CLONE)
ELLIPSIS = "..."
TIMEOUT = 1800.0

_FENCE = re.compile(r"^(?P<fence>`{3,})(?P<language>[\w-]*)\s*$")
_FIGURE = re.compile(r"^<!-- figure(?: \[(?P<options>[^\]]*)\])?(?:: (?P<command>.*?))? -->\s*$")
_END = "<!-- figure end -->"
_CLONE_MARK = "<!-- clone -->"
#: What only a clone has, in a command: its folders, make, the benchmarks.
_CLONE_ONLY = re.compile(
    r"(?<![\w/.-])(?:tests|examples|benchmarks|src)/|(?:^|[\s;&|(])make\b|-m benchmarks\b"
    r"|docs/check\.py"
)
_SAYS_CLONE = re.compile(r"\bclone\b", re.IGNORECASE)
_COMMAND_BLOCKS = ("sh", "console", "bash", "shell")
_TIMING = re.compile(
    r"\d+\.\d+ ?s\b|\d+(?:\.\d+)? ?(?:ms|µs|us)\b|\d+(?:\.\d+)? games/min"
    r'|"(?:duration|at|time_used|time_max|time_per_decision|seconds)": ?[-\d.e]+'
)
_NUMBER = re.compile(r"[-+]?\d+(?:[.,]\d+)*(?:e[-+]?\d+)?")
_OPTIONS = ("slow", "measured", "status", "file", "skip", "save")


def doc_files() -> list[Path]:
    """The docs whose figures are checked."""
    return [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md", ROOT / "protocol/README.md"]


@dataclass
class Command:
    """A command of a figure: its text as written (continuation lines joined) and
    the output lines the doc shows."""

    text: str
    shown: list[str]
    raw: list[str] = field(default_factory=list)  # the doc's lines of the command


@dataclass
class Figure:
    """A figure of ``path``: its ``commands``, its options, and where its content
    lies (``start``: index of its first content line, ``end``: one past the last)."""

    path: Path
    start: int
    end: int
    console: bool
    commands: list[Command]
    options: dict[str, str]
    clone: bool = False  # needs the clone's folders (the line <!-- clone --> before it)
    code: list[str] = field(default_factory=list)  # a block to save (option save=PATH)

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.start + 1}"

    @property
    def slow(self) -> bool:
        return "slow" in self.options


def parse_options(text: str | None, where: str) -> dict[str, str]:
    options: dict[str, str] = {}
    for part in (text or "").split(","):
        key, _, value = part.strip().partition("=")
        if not key:
            continue
        if key not in _OPTIONS:
            raise ValueError(f"{where}: unknown figure option {key!r} (known: {_OPTIONS})")
        options[key] = value.strip()
    return options


def console_commands(lines: Sequence[str]) -> list[Command]:
    """The ``$ COMMAND`` lines of a console block, each with the lines under it."""
    commands: list[Command] = []
    continued = False
    for line in lines:
        if continued:
            commands[-1].raw.append(line)
            commands[-1].text = commands[-1].text[:-1] + " " + line.strip()
        elif line.startswith("$ "):
            commands.append(Command(line[2:], [], [line]))
        elif commands:
            commands[-1].shown.append(line)
        continued = bool(commands) and not commands[-1].shown and line.endswith("\\")
    return commands


def figures(path: Path) -> list[Figure]:
    """Every figure of the doc at ``path``, in order."""
    lines = path.read_text("utf-8").splitlines()
    found: list[Figure] = []
    pending: re.Match[str] | None = None
    clone = False
    i = 0
    while i < len(lines):
        line = lines[i]
        where = f"{path.relative_to(ROOT)}:{i + 1}"
        if line.strip() == _CLONE_MARK:
            clone = True
            i += 1
            continue
        comment = _FIGURE.match(line)
        if comment:
            pending = comment
            i += 1
            if comment.group("command") and not _FENCE.match(lines[i] if i < len(lines) else ""):
                end = next((k for k in range(i, len(lines)) if lines[k].strip() == _END), None)
                if end is None:
                    raise ValueError(f"{where}: a figure that is not fenced needs {_END!r}")
                options = parse_options(comment.group("options"), where)
                command = Command(comment.group("command"), lines[i:end])
                found.append(Figure(path, i, end, False, [command], options, clone))
                pending = None
                clone = False
                i = end + 1
            continue
        fence = _FENCE.match(line)
        if fence is None:
            pending = None
            clone = clone and not line.strip()
            i += 1
            continue
        close = next(
            (k for k in range(i + 1, len(lines)) if lines[k].strip() == fence.group("fence")),
            len(lines),
        )
        content = lines[i + 1 : close]
        options = parse_options(pending.group("options") if pending else None, where)
        command = pending.group("command") if pending else None
        if command:
            found.append(
                Figure(path, i + 1, close, False, [Command(command, content)], options, clone)
            )
        elif "save" in options:
            found.append(Figure(path, i + 1, close, False, [], options, clone, content))
        elif fence.group("language") == "console":
            found.append(
                Figure(path, i + 1, close, True, console_commands(content), options, clone)
            )
        pending = None
        clone = False
        i = close + 1
    return found


def place_problems(path: Path) -> list[str]:
    """The blocks of commands in the doc at ``path`` that use what only a clone
    has but are not marked ``<!-- clone -->``, or are marked but the text just
    before them (three lines) does not say "clone"; each as ``FILE:LINE: why``."""
    lines = path.read_text("utf-8").splitlines()
    problems = []
    i = 0
    while i < len(lines):
        fence = _FENCE.match(lines[i])
        if fence is None:
            i += 1
            continue
        close = next(
            (k for k in range(i + 1, len(lines)) if lines[k].strip() == fence.group("fence")),
            len(lines),
        )
        before = [line for line in lines[max(0, i - 12) : i] if line.strip()]
        marked = any(line.strip() == _CLONE_MARK for line in before[-3:])
        said = [line for line in before if not line.startswith("<!--")][-3:]
        where = f"{path.relative_to(ROOT)}:{i + 1}"
        if fence.group("language") in _COMMAND_BLOCKS:
            text = "\n".join(lines[i + 1 : close])
            needs = _CLONE_ONLY.search(text)
            if needs and not marked:
                problems.append(
                    f"{where}: uses {needs.group().strip()!r}, which only a clone has: mark "
                    f"the block {_CLONE_MARK} and say so before it"
                )
        if marked and not any(_SAYS_CLONE.search(line) for line in said):
            problems.append(f'{where}: marked {_CLONE_MARK}, but the text before it does '
                            'not say "clone"')
        i = close + 1
    return problems


# --- Comparing -------------------------------------------------------------------


def normal(line: str, measured: bool = False) -> str:
    """A line as compared: timings masked (and every number, if ``measured``),
    runs of whitespace as one space."""
    line = _TIMING.sub("T", line)
    if measured:
        line = _NUMBER.sub("#", line)
    return " ".join(line.split())


def matches(shown: Sequence[str], printed: Sequence[str], measured: bool = False) -> bool:
    """Whether ``printed`` is what ``shown`` shows, a line ``...`` standing for any
    number of lines."""
    want = [None if s.strip() == ELLIPSIS else normal(s, measured) for s in shown]
    have = [normal(p, measured) for p in printed]
    # reach[j]: the first i shown lines can match the first j printed ones
    reach = [True] + [False] * len(have)
    for w in want:
        if w is None:
            for j in range(1, len(have) + 1):
                reach[j] = reach[j] or reach[j - 1]
        else:
            reach = [False] + [reach[j - 1] and have[j - 1] == w for j in range(1, len(have) + 1)]
    return reach[len(have)]


def updated(shown: Sequence[str], printed: Sequence[str], measured: bool = False) -> list[str]:
    """``shown`` made to show ``printed``: the same lines left out (each run of lines
    between two ``...`` is placed where it matches best), and a shown line kept as
    written when it compares equal (its timings do not churn)."""
    segments: list[list[str]] = [[]]
    for line in shown:
        if line.strip() == ELLIPSIS:
            segments.append([])
        else:
            segments[-1].append(line)
    if len(segments) == 1:
        return _keep(shown, list(printed), measured)
    windows: list[tuple[int, int]] = []
    at = 0
    last = len(segments) - 1
    for k, segment in enumerate(segments):
        need = sum(len(s) for s in segments[k + 1 :])
        if k == 0:
            start = 0
        elif k == last:
            start = max(at, len(printed) - len(segment))
        else:
            starts = range(at, max(at, len(printed) - need - len(segment)) + 1)
            start = max(starts, key=lambda s: _likeness(segment, printed[s : s + len(segment)]))
        windows.append((start, min(len(printed), start + len(segment))))
        at = windows[-1][1]
    out: list[str] = []
    for k, (segment, (a, b)) in enumerate(zip(segments, windows, strict=True)):
        if k:
            out.append(ELLIPSIS)
        out += _keep(segment, list(printed[a:b]), measured)
    return out


def _likeness(a: Sequence[str], b: Sequence[str]) -> float:
    return sum(difflib.SequenceMatcher(None, x, y).ratio() for x, y in zip(a, b, strict=False))


def _keep(shown: Sequence[str], printed: list[str], measured: bool) -> list[str]:
    """``printed``, where a line that differs from a shown one only in its timings
    (or numbers, if ``measured``) is the shown one: the columns stay as printed."""

    def masked(line: str) -> str:
        line = _TIMING.sub("T", line).rstrip()
        return _NUMBER.sub("#", line) if measured else line

    matcher = difflib.SequenceMatcher(
        None, [masked(s) for s in shown], [masked(p) for p in printed], autojunk=False
    )
    out = [p.rstrip() for p in printed]
    for a, b, size in matcher.get_matching_blocks():
        out[b : b + size] = shown[a : a + size]
    return out


# --- Running -------------------------------------------------------------------


@dataclass
class Outcome:
    figure: Figure
    ok: bool
    seconds: float
    note: str = ""
    new_commands: list[list[str]] = field(default_factory=list)  # shown lines, per command


def environment() -> dict[str, str]:
    """The commands' environment: this Python's bin first on the PATH, 80 columns,
    unbuffered Python (stdout and stderr interleave as on a terminal)."""
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["COLUMNS"] = "80"
    env["PYTHONUNBUFFERED"] = "1"
    env["TAJMAHAL_REPRODUCIBLE_SEEDS"] = "1"  # bot programs play the same in every run
    for name in ("FORCE_COLOR", "CLICOLOR_FORCE", "TERM"):
        env.pop(name, None)
    return env


def scratch(directory: Path, names: Sequence[str] = WHEEL) -> None:
    """Link the repository's folders ``names`` into ``directory`` (by default
    what a wheel's user gets from ``tajmahal bots --copy .``)."""
    for name in names:
        if not (directory / name).exists():
            (directory / name).symlink_to(ROOT / name)
    (directory / "runs").mkdir(exist_ok=True)


def unlink_clone(directory: Path) -> None:
    """Remove the clone's folders from ``directory`` again (after a clone figure)."""
    for name in CLONE:
        if (directory / name).is_symlink():
            (directory / name).unlink()


def run(figure: Figure, directory: Path) -> Outcome:
    options = figure.options
    if "skip" in options:
        return Outcome(figure, True, 0.0, f"skipped: {options['skip']}")
    if "save" in options:
        target = directory / options["save"]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("\n".join(figure.code) + "\n", "utf-8")
        return Outcome(figure, True, 0.0)
    if figure.clone:
        scratch(directory, LINKED)
    try:
        return _run(figure, directory)
    finally:
        unlink_clone(directory)


def _run(figure: Figure, directory: Path) -> Outcome:
    options = figure.options
    texts = " ".join(c.text for c in figure.commands)
    if re.search(r"\.js\b", texts) and shutil.which("node") is None:
        return Outcome(figure, True, 0.0, "skipped: node not found")
    last_status = int(options.get("status", "0"))
    measured = "measured" in options
    started = time.monotonic()
    new: list[list[str]] = []
    problems: list[str] = []
    for k, command in enumerate(figure.commands):
        status = last_status if k == len(figure.commands) - 1 else 0
        done = subprocess.run(
            ["bash", "-c", command.text],
            cwd=directory,
            env=environment(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT if figure.console else subprocess.PIPE,
            text=True,
            errors="replace",
            timeout=TIMEOUT,
        )
        printed = done.stdout.splitlines()
        new.append(updated(command.shown, printed, measured))
        if done.returncode != status:
            problems.append(
                f"$ {command.text}\nexit status {done.returncode}, not {status}\n"
                + "\n".join((printed + (done.stderr or "").splitlines())[-30:])
            )
        elif not matches(command.shown, printed, measured):
            diff = difflib.unified_diff(
                command.shown, new[-1], "shown", "printed", lineterm="", n=2
            )
            problems.append(f"$ {command.text}\n" + "\n".join(diff))
    if "file" in options and not (directory / options["file"]).is_file():
        problems.append(f"{options['file']} was not written")
    seconds = time.monotonic() - started
    return Outcome(figure, not problems, seconds, "\n".join(problems), new)


def check_file(
    path: Path, directory: Path, slow: bool = True, select: str | None = None
) -> list[Outcome]:
    """Run the figures of ``path`` (without ``slow`` ones unless ``slow``; only those
    whose command contains ``select``) in ``directory``."""
    scratch(directory)
    outcomes = []
    for figure in figures(path):
        if figure.slow and not slow:
            continue
        if select is not None and not any(select in c.text for c in figure.commands):
            continue
        outcomes.append(run(figure, directory))
    return outcomes


def rewrite(path: Path, outcomes: Sequence[Outcome], directory: Path) -> int:
    """Write the printed output into the figures of ``path`` that drifted; the
    number rewritten."""
    lines = path.read_text("utf-8").splitlines()
    changed = 0
    for outcome in sorted(outcomes, key=lambda o: -o.figure.start):
        figure = outcome.figure
        if "file" in figure.options and (directory / figure.options["file"]).is_file():
            shutil.copyfile(directory / figure.options["file"], ROOT / figure.options["file"])
        if outcome.ok or not outcome.new_commands:
            continue
        content: list[str] = []
        for command, shown in zip(figure.commands, outcome.new_commands, strict=True):
            content += command.raw + shown
        lines[figure.start : figure.end] = content
        changed += 1
    if changed:
        path.write_text("\n".join(lines) + "\n", "utf-8")
    return changed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="docs to check [default: all]")
    parser.add_argument("--update", action="store_true", help="rewrite figures that drifted")
    parser.add_argument("--fast", action="store_true", help="leave out the slow figures")
    parser.add_argument("-k", dest="select", help="only figures whose command contains this")
    args = parser.parse_args(argv)
    paths = [p.resolve() for p in args.files] or doc_files()
    failed = passed = skipped = 0
    for path in paths:
        with tempfile.TemporaryDirectory(prefix="docs-check-") as tmp:
            outcomes = check_file(path, Path(tmp), slow=not args.fast, select=args.select)
            for problem in place_problems(path):
                failed += 1
                print(f"{problem}: FAILED", flush=True)
            for o in outcomes:
                state = "ok" if o.ok else "FAILED"
                if o.note.startswith("skipped"):
                    state, skipped = o.note, skipped + 1
                elif o.ok:
                    passed += 1
                else:
                    failed += 1
                print(f"{o.figure.where}: {state} ({o.seconds:.1f} s)", flush=True)
                if not o.ok:
                    print(o.note, flush=True)
            if args.update:
                count = rewrite(path, outcomes, Path(tmp))
                if count:
                    print(f"{path.relative_to(ROOT)}: {count} figure(s) rewritten", flush=True)
    print(f"docs-check: {passed} passed, {failed} failed, {skipped} skipped")
    if failed and not args.update:
        print("(make docs-update writes what the commands print into the docs: review the diff)")
    return 1 if failed and not args.update else 0


if __name__ == "__main__":
    sys.exit(main())
