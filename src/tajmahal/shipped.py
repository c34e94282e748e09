"""The example bots and the protocol's spec and schemas, wherever they are.

Their one home is the repository's ``bots/`` and ``protocol/``; a wheel carries a
copy in ``tajmahal/_shipped/`` (``setup.py`` puts it there), since a ``pip install``
has no checkout.  ``tajmahal bots --copy DIR`` writes them out, so that the
README's ``tajmahal match bots/greedy_bot.py ...`` works after a ``pip install``
too.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Final

PACKAGE: Final = Path(__file__).resolve().parent
#: The folders copied, and the files of each.
FOLDERS: Final = {
    "bots": ("*.py", "*.js"),
    "protocol": ("README.md", "example.jsonl"),
    "protocol/schema": ("*.json",),
}


class NotShipped(LookupError):
    """Neither a wheel's copy nor a checkout is there (an editable install whose
    checkout lost its folders)."""


def root() -> Path:
    """The folder holding ``bots/`` and ``protocol/``: the wheel's copy, else the
    checkout this package runs from (an editable install)."""
    for candidate in (PACKAGE / "_shipped", PACKAGE.parent.parent):
        if (candidate / "bots").is_dir() and (candidate / "protocol" / "README.md").is_file():
            return candidate
    raise NotShipped(f"no example bots beside {PACKAGE}: reinstall tajmahal")


def files(base: Path | None = None) -> Iterator[Path]:
    """The shipped files, relative to :func:`root` (or ``base``), in a stable order."""
    base = root() if base is None else base
    for folder, patterns in FOLDERS.items():
        found = {p for pattern in patterns for p in (base / folder).glob(pattern) if p.is_file()}
        for path in sorted(found):
            yield path.relative_to(base)


def example_bots() -> list[Path]:
    """The example bots, relative to :func:`root` (``bots/random_bot.py`` ...)."""
    return [p for p in files() if p.parts[0] == "bots"]


def summary(path: Path) -> str:
    """The first sentence of a bot's own description: its module docstring (Python)
    or its first comment (JavaScript)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        doc = ast.get_docstring(ast.parse(text)) or ""
    else:
        comments = []
        for line in text.splitlines()[1:]:
            if not line.startswith("//"):
                break
            comments.append(line.removeprefix("//").strip())
        doc = " ".join(comments)
    first = " ".join(doc.split("\n\n")[0].split())
    return first.split(". ")[0].rstrip(".")


def copy(destination: Path, overwrite: bool = False) -> list[Path]:
    """Write the shipped files under ``destination`` (made if missing), keeping their
    folders; the files written.  Raises :class:`FileExistsError` naming the files
    that exist with other content, unless ``overwrite`` (then nothing is written)."""
    base = root()
    wanted = list(files(base))
    clashes = [
        p
        for p in wanted
        if (destination / p).exists() and (destination / p).read_bytes() != (base / p).read_bytes()
    ]
    if clashes and not overwrite:
        raise FileExistsError(", ".join(str(destination / p) for p in clashes))
    for p in wanted:
        target = destination / p
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((base / p).read_bytes())
        if p.parts[0] == "bots":  # they start with #!: runnable as ./bots/x.py too
            os.chmod(target, 0o755)
    return [destination / p for p in wanted]
