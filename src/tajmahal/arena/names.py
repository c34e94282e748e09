"""Names of seats and entrants: ``NAME=BOT`` on the command line, and names told
apart when several are alike.

Every command that takes bots (``match``, ``play``, ``tournament``) reads a
``NAME=BOT`` argument with :func:`split_name`, and every table, record and page
shows names made unique by :func:`unique_names`: two seats of ``random`` are
``random#1`` and ``random#2``, as the tournament has always numbered its entrants.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

#: A name given on the command line: letters, digits and ``_.+#@-``.
NAME: Final = r"[A-Za-z0-9_.+#@-]+"
#: ``NAME=BOT``.
NAMED: Final = re.compile(rf"({NAME})=(.*)", re.DOTALL)


def split_name(text: str) -> tuple[str | None, str]:
    """``(NAME, BOT)`` of ``NAME=BOT``; ``(None, text)`` for a bare ``BOT``.

    >>> split_name("me=greedy"), split_name("greedy"), split_name("python3 bot.py --x=1")
    (('me', 'greedy'), (None, 'greedy'), (None, 'python3 bot.py --x=1'))
    """
    match = NAMED.fullmatch(text)
    return (match.group(1), match.group(2)) if match else (None, text)


def numbered(names: Sequence[str], given: Sequence[bool] = ()) -> list[str]:
    """``names`` with the ones that occur more than once numbered in order
    (``name#1``, ``name#2`` ...), but those ``given`` marks (chosen with
    ``NAME=BOT``: kept as they are).  The result may still repeat a name (see
    :func:`parse_named` and :func:`unique_names`).

    >>> numbered(["random", "greedy", "random"])
    ['random#1', 'greedy', 'random#2']
    """
    marked = [i < len(given) and given[i] for i in range(len(names))]
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    seen: dict[str, int] = {}
    out = []
    for name, kept in zip(names, marked, strict=True):
        if counts[name] > 1 and not kept:
            seen[name] = seen.get(name, 0) + 1
            name = f"{name}#{seen[name]}"
        out.append(name)
    return out


def parse_named(texts: Sequence[str], what: str = "seats") -> list[tuple[str, str, bool]]:
    """``(name, bot, given)`` for each ``BOT`` or ``NAME=BOT`` of the command line: a
    bot without a name is named by its text, numbered when several share it
    (:func:`numbered`).  Raises ValueError for an empty bot, or when two ``what``
    would have the same name.

    >>> parse_named(["me=greedy", "random", "random"])
    [('me', 'greedy', True), ('random#1', 'random', False), ('random#2', 'random', False)]
    >>> parse_named(["random#1=greedy", "random", "random"])
    Traceback (most recent call last):
    ...
    ValueError: two seats are named 'random#1': give each a name of its own (NAME=BOT)
    """
    split = [split_name(text) for text in texts]
    for text, (_, bot) in zip(texts, split, strict=True):
        if not bot.strip():
            raise ValueError(f"{text!r}: no bot")
    given = [name is not None for name, _ in split]
    names = numbered([bot if name is None else name for name, bot in split], given)
    for name in names:
        if names.count(name) > 1:
            raise ValueError(
                f"two {what} are named {name!r}: give each a name of its own (NAME=BOT)"
            )
    return [(n, bot, g) for n, (_, bot), g in zip(names, split, given, strict=True)]


def unique_names(names: Sequence[str], given: Sequence[bool] = ()) -> list[str]:
    """The seats' names as tables, records and pages show them: the ``given`` ones
    (``NAME=BOT``) as they are, the others (what the bots call themselves in
    their hello) numbered when they repeat or take a name already there.  A bot
    may call itself anything: the result never repeats a name.

    >>> unique_names(["random", "random", "me"], [False, False, True])
    ['random#1', 'random#2', 'me']
    >>> unique_names(["me", "me", "random#1", "random", "random"], [True])
    ['me', 'me#1', 'random#1', 'random#2', 'random#3']
    """
    out = list(names)
    taken: set[str] = set()
    kept = [False] * len(names)
    for index, name in enumerate(names):
        if index < len(given) and given[index] and name not in taken:
            taken.add(name)
            kept[index] = True
    rest = [name for index, name in enumerate(names) if not kept[index]]
    for index, name in enumerate(names):
        if kept[index]:
            continue
        if rest.count(name) > 1 or name in taken:
            number = 1
            while f"{name}#{number}" in taken or f"{name}#{number}" in names:
                number += 1
            name = f"{name}#{number}"
        out[index] = name
        taken.add(name)
    return out


def shown_names(players: Sequence[Mapping[str, Any]]) -> list[str]:
    """The names shown for the ``players`` of a record's header (each with the
    ``name`` its bot gave, and the one ``named`` on the command line if any): what
    the referee's table, ``replay`` and the viewer show alike.

    >>> shown_names([{"name": "random"}, {"name": "random"}, {"name": "x", "named": "me"}])
    ['random#1', 'random#2', 'me']
    """
    named = [p.get("named") for p in players]
    return unique_names(
        [str(n if n is not None else p["name"]) for n, p in zip(named, players, strict=True)],
        [n is not None for n in named],
    )
