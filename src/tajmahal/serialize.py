"""One converter between the engine's values and plain JSON data.

:func:`to_data` turns a :class:`~tajmahal.Setup`, :class:`~tajmahal.State`,
:class:`~tajmahal.PlayerView`, an action or an event into dicts, lists, strings
and numbers; :func:`from_data` turns them back, exactly (round trips are equal).
Cards and cities appear by id.  Actions and events are tagged with ``"type"``.

>>> from tajmahal import Play, Withdraw
>>> to_data(Play(3, extra=84))
{'type': 'play', 'card': 3, 'extra': 84}
>>> to_data(Play(3))
{'type': 'play', 'card': 3}
>>> from_data({"type": "withdraw"}, Action)
Withdraw()
>>> from_data({"type": "play", "card": "x"}, Action)
Traceback (most recent call last):
...
tajmahal.serialize.DataError: bad Action: invalid value for type, expected int @ $.card
"""

from __future__ import annotations

import json
import re
from typing import Any, Final, TypeVar

import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override
from cattrs.preconf.json import make_converter
from cattrs.strategies import configure_tagged_union

from .actions import ACTION_TYPES, Action, Play
from .board import Board, BoardError, board_from_dict, board_to_dict
from .events import EVENT_TYPES, Event

T = TypeVar("T")


class DataError(ValueError):
    """Data that does not describe a value of the requested type."""


def type_tag(cls: type) -> str:
    """The ``"type"`` tag of a class: ``BuildMogulPalace`` -> ``build_mogul_palace``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


def _make() -> cattrs.Converter:
    conv = make_converter(forbid_extra_keys=True)

    def structure_board(raw: Any, _: type) -> Board:
        try:
            return board_from_dict(raw)
        except BoardError as e:
            raise ValueError(str(e)) from None

    conv.register_unstructure_hook(Board, board_to_dict)
    conv.register_structure_hook(Board, structure_board)
    conv.register_unstructure_hook(
        Play, make_dict_unstructure_fn(Play, conv, extra=override(omit_if_default=True))
    )
    conv.register_structure_hook(Play, make_dict_structure_fn(Play, conv))
    for union in (Action, Event):
        configure_tagged_union(union, conv, tag_generator=type_tag, tag_name="type")
        tagged = conv.get_unstructure_hook(union)

        def type_first(value: Any, tagged: Any = tagged) -> dict[str, Any]:
            data = tagged(value)
            return {"type": data.pop("type"), **data}

        conv.register_unstructure_hook(union, type_first)
    return conv


_CONVERTER: Final = _make()
_UNIONS: Final[dict[type, Any]] = {t: Action for t in ACTION_TYPES} | {
    t: Event for t in EVENT_TYPES
}


def to_data(value: Any) -> Any:
    """Plain JSON-compatible data for ``value`` (actions and events carry a ``"type"``)."""
    return _CONVERTER.unstructure(value, unstructure_as=_UNIONS.get(type(value), type(value)))


def from_data(data: Any, cls: Any) -> Any:
    """The value of type ``cls`` described by ``data``; raises :class:`DataError`.

    ``cls`` may be a class or the unions :data:`~tajmahal.actions.Action` and
    :data:`~tajmahal.events.Event`.
    """
    if cls in (Action, Event) and not (isinstance(data, dict) and "type" in data):
        name = "Action" if cls is Action else "Event"
        raise DataError(f'bad {name}: expected a JSON object with a "type"')
    try:
        return _CONVERTER.structure(data, cls)
    except Exception as e:  # cattrs raises several kinds; all mean "bad data"
        name = getattr(cls, "__name__", None) or ("Action" if cls is Action else "Event")
        if isinstance(e, cattrs.BaseValidationError):
            detail = "; ".join(cattrs.transform_error(e))
        elif isinstance(e, KeyError) and cls in (Action, Event):
            detail = f'unknown or missing "type" ({e})'
        else:
            detail = str(e) or type(e).__name__
        raise DataError(f"bad {name}: {detail}") from None


def dumps(value: Any) -> str:
    """Compact JSON text for ``value``."""
    return json.dumps(to_data(value), separators=(",", ":"))


def loads(text: str | bytes, cls: type[T]) -> T:
    """The value of type ``cls`` in the JSON ``text``; raises :class:`DataError`."""
    try:
        data = json.loads(text)
    except ValueError as e:
        raise DataError(f"not JSON: {e}") from None
    return from_data(data, cls)  # type: ignore[no-any-return]
