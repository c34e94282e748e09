"""The actions a seat can take (rules T2, W4, W5, W11).

Actions are small frozen values compared by content, so ``Play(3) == Play(3)``.
The engine hands out shared instances from :func:`legal_actions`, but any equal
instance is accepted by :func:`~tajmahal.apply`.
"""

from __future__ import annotations

from typing import Any, Final

from attrs import Attribute, field, frozen

from .board import CITIES
from .cards import CARDS

__all__ = [
    "Action",
    "BuildMogulPalace",
    "BuildPalace",
    "Play",
    "TakeCard",
    "Withdraw",
    "action_text",
]


def _an_id(instance: object, attribute: Attribute[Any], value: object) -> None:
    """Card and city ids are ints: ``Play("0")`` fails here, not deep in the engine."""
    if type(value) is not int:
        kind = "city" if attribute.name == "city" else "card"
        raise TypeError(
            f"{type(instance).__name__}.{attribute.name} is a {kind} id (an int), not {value!r}"
        )


def _an_id_or_none(instance: object, attribute: Attribute[Any], value: object) -> None:
    if value is not None:
        _an_id(instance, attribute, value)


@frozen
class Play:
    """T3: one coloured ``card``, alone or with one white or special card ``extra``."""

    card: int = field(validator=_an_id)
    extra: int | None = field(default=None, validator=_an_id_or_none)


@frozen
class Withdraw:
    """T2/W1: leave the visit and claim the prizes of your majorities."""


@frozen
class BuildPalace:
    """W4: place a palace for a character you won on ``city`` of the current province."""

    city: int = field(validator=_an_id)


@frozen
class BuildMogulPalace:
    """W5: place your palace with the ring (the grand mogul's favour) on ``city``."""

    city: int = field(validator=_an_id)


@frozen
class TakeCard:
    """W11: take ``card`` from the display into your hand."""

    card: int = field(validator=_an_id)


Action = Play | Withdraw | BuildPalace | BuildMogulPalace | TakeCard
ACTION_TYPES: Final = (Play, Withdraw, BuildPalace, BuildMogulPalace, TakeCard)

# Shared instances handed out by legal_actions (actions are immutable values).
WITHDRAW: Final = Withdraw()
_EXTRAS: Final = tuple(c.id for c in CARDS if not c.is_colored)
PLAYS: Final[tuple[dict[int | None, Play], ...]] = tuple(
    {None: Play(c), **{e: Play(c, e) for e in _EXTRAS}} if CARDS[c].is_colored else {}
    for c in range(len(CARDS))
)
TAKES: Final = tuple(TakeCard(c) for c in range(len(CARDS)))
BUILDS: Final = tuple(BuildPalace(c) for c in range(CITIES))
MOGUL_BUILDS: Final = tuple(BuildMogulPalace(c) for c in range(CITIES))


def action_text(action: Action, city_names: tuple[str, ...] | None = None) -> str:
    """A short description of ``action`` for people."""
    if isinstance(action, Play):
        text = f"play {CARDS[action.card]}"
        return text if action.extra is None else f"{text} with {CARDS[action.extra]}"
    if isinstance(action, Withdraw):
        return "withdraw"
    if isinstance(action, TakeCard):
        return f"take {CARDS[action.card]} from the display"
    where = city_names[action.city] if city_names else f"city {action.city}"
    kind = "mogul palace" if isinstance(action, BuildMogulPalace) else "palace"
    return f"build a {kind} in {where}"
