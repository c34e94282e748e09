"""In-process players: Python bots that run inside the referee.

A :class:`Player` gets exactly the messages a subprocess bot gets, as data (the
dicts a subprocess bot would decode from its stdin), and answers the same way.
So a built-in bot sees no more than a bot in another language, and the referee
treats both alike.  Do not change the dicts you are given: they may be shared.

Two things are left out for a player that would not read them, so the referee
does not encode them: ``events`` messages, when the class keeps the default
:meth:`Player.on_events` (and :meth:`Player.handle`), and the ``view`` of each
``act``, when the class sets :attr:`Player.reads_view` to False.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any

from .protocol import VERSION, Message


class Player(ABC):
    """Base class: implement :meth:`choose`, and override :meth:`on_hello` /
    :meth:`on_events` / :meth:`on_end` if the bot wants them."""

    name = "player"
    version = "1.0"
    #: False for a player that never reads ``message["view"]`` in :meth:`choose`:
    #: its ``act`` messages then come without ``view``, which the referee does not
    #: encode (views and events were almost half of a tournament of random players).
    reads_view: bool = True

    def handle(self, message: Message) -> Message | None:
        """Answer one message from the referee (a reply for ``hello`` and ``act``)."""
        kind = message["type"]
        if kind == "act":
            choice = self.choose(message)
            if isinstance(choice, int):
                return {"type": "action", "choice": choice}
            return {"type": "action", "action": choice}
        if kind == "events":
            self.on_events(message)
        elif kind == "hello":
            self.on_hello(message)
            return {
                "type": "hello",
                "name": self.name,
                "version": self.version,
                "protocol_version": VERSION,
            }
        elif kind == "end":
            self.on_end(message)
        return None

    def on_hello(self, message: Message) -> None:
        """The hello: game, seat, players, variant, time limits, static setup."""
        return None  # optional hook

    @abstractmethod
    def choose(self, message: Message) -> int | Any:
        """The index into ``message["legal"]`` (or the action data) to play."""

    def on_events(self, message: Message) -> None:
        """Public events of one decision."""
        return None  # optional hook

    def on_end(self, message: Message) -> None:
        """Final scores, breakdown, ranks and faults."""
        return None  # optional hook


class RandomPlayer(Player):
    """Picks a legal action uniformly at random (seeded: reproducible)."""

    name = "random"
    reads_view = False

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, message: Message) -> int:
        return self.rng.randrange(len(message["legal"]))


class FirstPlayer(Player):
    """Always picks the first legal action: the smallest correct bot."""

    name = "first"
    reads_view = False

    def __init__(self, seed: int = 0) -> None:
        del seed

    def choose(self, message: Message) -> int:
        return 0
