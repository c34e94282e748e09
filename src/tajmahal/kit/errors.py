"""The errors every game's engine raises, one type for each: an illegal action, a
setup no game can start from, components (board, tiles, cards) that are not right.

Each is a ValueError, so a command that reads bad input reports it in one line.
"""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action that the rules do not allow now; ``rule`` is the id of the rule it
    breaks, and the message starts with it (``"T3: card 7 is not in your hand"``)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule


class SetupError(ValueError):
    """A setup that no game can start from (its message names the setup rule)."""


class ComponentError(ValueError):
    """Component data (a board, tiles, cards) that breaks the game's rules for them."""


__all__ = ["ComponentError", "IllegalAction", "SetupError"]
