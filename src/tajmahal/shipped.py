"""The example bots, the protocol's spec and schemas, and the docs, wherever
they are.

Their one home is the repository's ``bots/``, ``protocol/``, ``docs/`` and
``README.md``; a wheel carries a copy in ``tajmahal/_shipped/`` (``setup.py`` puts
it there), since a ``pip install`` has no checkout.  ``tajmahal bots --copy DIR``
writes the bots and the protocol out, so that the README's ``tajmahal match
bots/greedy_bot.py ...`` works after a ``pip install`` too; ``tajmahal docs``
shows the docs (:func:`docs`).
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Final

PACKAGE: Final = Path(__file__).resolve().parent
#: The folders ``bots --copy`` writes, and the files of each.
FOLDERS: Final = {
    "bots": ("*.py", "*.js"),
    "protocol": ("README.md", "example.jsonl", "make_*.py"),
    "protocol/schema": ("*.json",),
}
#: The docs, shipped too (the pictures they show are the repository's only).
DOCS: Final = {
    ".": ("README.md",),
    "docs": ("*.md",),
}
#: A link of a copied file to the docs (``](../docs/rules.md#w8)``), which a copy
#: points at the installed ones.
_DOCS_LINK: Final = re.compile(r"\]\(\.\./docs/([\w.-]+\.md)")


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


def files(
    base: Path | None = None, folders: Mapping[str, Sequence[str]] = FOLDERS
) -> Iterator[Path]:
    """The files of ``folders`` (by default those ``bots --copy`` writes), relative
    to :func:`root` (or ``base``), in a stable order."""
    base = root() if base is None else base
    for folder, patterns in folders.items():
        found = {p for pattern in patterns for p in (base / folder).glob(pattern) if p.is_file()}
        for path in sorted(found):
            yield path.relative_to(base)


def shipped_files(base: Path | None = None) -> list[Path]:
    """Every shipped file: what ``bots --copy`` writes and the docs."""
    return [*files(base), *files(base, DOCS)]


def docs() -> dict[str, Path]:
    """The docs by topic, as ``tajmahal docs TOPIC`` names them: each of ``docs/``
    by its name (``cli``, ``rules``, ``tikal-rules`` ...), ``protocol`` (the bot
    protocol's spec) and ``readme``; their paths, readable wherever tajmahal is
    installed."""
    base = root()
    found = {"readme": base / "README.md", "protocol": base / "protocol" / "README.md"}
    found |= {p.stem: base / p for p in files(base, {"docs": ("*.md",)})}
    return {topic: path for topic, path in found.items() if path.is_file()}


def title(path: Path) -> str:
    """A doc's title: its first heading, without the ``#``."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return path.stem


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
        if (destination / p).exists() and (destination / p).read_bytes() != _copied(base, p)
    ]
    if clashes and not overwrite:
        raise FileExistsError(", ".join(str(destination / p) for p in clashes))
    for p in wanted:
        target = destination / p
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(_copied(base, p))
        if p.parts[0] == "bots":  # they start with #!: runnable as ./bots/x.py too
            os.chmod(target, 0o755)
    return [destination / p for p in wanted]


def _copied(base: Path, path: Path) -> bytes:
    """What a copy of ``path`` holds: the file, with a Markdown file's links to the
    docs (``../docs/rules.md``, which a copy has no folder for) pointing at the
    installed docs instead."""
    data = (base / path).read_bytes()
    if path.suffix != ".md":
        return data
    installed = (base / "docs").resolve().as_posix()
    return _DOCS_LINK.sub(lambda m: f"]({installed}/{m.group(1)}", data.decode()).encode()
