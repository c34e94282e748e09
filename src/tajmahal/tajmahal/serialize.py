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
tajmahal.kit.tagged.DataError: bad Action: expected an integer, got "x" @ $.card
"""

from __future__ import annotations

from typing import Any, Final

import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from ..kit.errors import ComponentError
from ..kit.tagged import DataError as DataError
from ..kit.tagged import TaggedConverter
from ..kit.tagged import type_tag as type_tag
from .actions import Action, Play
from .board import Board, board_from_dict, board_to_dict
from .events import Event


def _hooks(conv: cattrs.Converter) -> None:
    """The board as its own data format; a play without an extra card leaves it out."""

    def structure_board(raw: Any, _: type) -> Board:
        try:
            return board_from_dict(raw)
        except ComponentError as e:
            raise ValueError(str(e)) from None

    conv.register_unstructure_hook(Board, board_to_dict)
    conv.register_structure_hook(Board, structure_board)
    conv.register_unstructure_hook(
        Play, make_dict_unstructure_fn(Play, conv, extra=override(omit_if_default=True))
    )
    conv.register_structure_hook(Play, make_dict_structure_fn(Play, conv))


#: Taj Mahal's converter; ``from_data(data, cls)`` takes for ``cls`` a class or the
#: unions :data:`~tajmahal.tajmahal.actions.Action` and :data:`~tajmahal.tajmahal.events.Event`.
CONVERTER: Final = TaggedConverter({"Action": Action, "Event": Event}, hooks=_hooks)
to_data: Final = CONVERTER.to_data
from_data: Final = CONVERTER.from_data
dumps: Final = CONVERTER.dumps
loads: Final = CONVERTER.loads
