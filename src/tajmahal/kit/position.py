"""A position of a game as one line of text, and back: what FEN is to chess.

The line says, readably, the game, the seats, the variant and how the setup was
dealt, then holds the rest of the state, secrets included (hands, the order of
the deck), in a compact token::

    tajmahal/1 4 standard seed=1 eNqNVMtu2zAM...

- ``tajmahal/1``: the game's name and this format's version;
- ``4 standard``: the number of seats and the variant;
- ``seed=1``: the setup is the one seed 1 deals (the token leaves it out; a
  game whose setup does not say its seed, as Taj Mahal's does, never has it), or
  ``setup``: the token holds the setup (dealt otherwise: a stacked deck, a test's);
- the token: the state's JSON data (the game's converter; the setup's too when
  in the token), keys sorted, compressed (zlib) and written in URL-safe base64 without
  padding, so that the line has no spaces, quotes or slashes to escape.

The line is not meant to be read past its head: ``tajmahal show`` draws a
position.  The same state always gives the same line, and
:func:`parse_position` gives back an equal state (a test checks both over
random positions of every game).  A game of the kit whose adapter names its
state class (``state_type``), whose states hold their setup, has them as
:meth:`~tajmahal.arena.game.Game.position_text` and
:meth:`~tajmahal.arena.game.Game.parse_position` (:func:`has_positions`).
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib
from typing import Any, Final

import attrs
import orjson

#: The version of the line's format (the number after the game's name).
VERSION: Final = 1
#: The most bytes a token may unpack to (a game's whole state is a few KB).
MAX_DATA: Final = 1 << 22
_TOKEN: Final = re.compile(r"[A-Za-z0-9_-]+")


def has_positions(game: Any) -> bool:
    """Whether ``game`` (a kit adapter) has position lines: it names its state
    class (``state_type``), an attrs class whose states hold their ``setup``."""
    kind = game.state_type
    return kind is not None and attrs.has(kind) and "setup" in attrs.fields_dict(kind)


def position_text(game: Any, state: Any) -> str:
    """The line of ``state``, a state of ``game`` (a kit adapter)."""
    setup = state.setup
    players, variant = game.players(setup), game.variant(setup)
    data: dict[str, Any] = {"state": _state_data(game, state)}
    seed = _dealing_seed(game, setup)
    if seed is None:
        data["setup"] = game.setup_to_data(setup)
    raw = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    token = base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")
    deal = "setup" if seed is None else f"seed={seed}"
    return f"{game.name}/{VERSION} {players} {variant} {deal} {token}"


def parse_position(game: Any, text: str) -> Any:
    """The state the line ``text`` holds, for ``game`` (a kit adapter); raises
    ValueError saying what is wrong with the line."""
    fields = text.strip().split()
    if len(fields) != 5:
        raise ValueError(
            f"a position is 5 fields (GAME/VERSION PLAYERS VARIANT seed=N|setup TOKEN), "
            f"not {len(fields)}"
        )
    head, players_text, variant, deal, token = fields
    name, _, version = head.partition("/")
    if name not in (game.name, *game.aliases):
        raise ValueError(f"a position of {name!r}, not of {game.name!r}")
    if version != str(VERSION):
        raise ValueError(f"a position of format version {version!r}; this reads {VERSION}")
    if not players_text.isdigit():
        raise ValueError(f"the number of seats must be a number, not {players_text!r}")
    players = int(players_text)
    data = _unpack(token)
    state_data = data.get("state")
    if not isinstance(state_data, dict):
        raise ValueError('the token holds no "state"')
    if deal == "setup":
        setup = game.setup_from_data(data.get("setup"))
    elif deal.startswith("seed=") and deal[5:].isdigit():
        setup = game.random_setup(players, int(deal[5:]), variant)
    else:
        raise ValueError(f"the deal must be seed=N or setup, not {deal!r}")
    if (game.players(setup), game.variant(setup)) != (players, variant):
        raise ValueError(
            f"the setup is for {game.players(setup)} seats ({game.variant(setup)}), not "
            f"{players} ({variant})"
        )
    whole = {**state_data, "setup": game.converter.to_data(setup)}
    try:
        state = game.converter.from_data(whole, game.state_type, "state")
        state = attrs.evolve(state, setup=setup)  # the setup with this game's components
    except Exception as e:  # the converter's DataError and whatever the classes raise
        raise ValueError(f"bad state: {e}") from None
    check_state(game, state, players)
    return state


def check_state(game: Any, state: Any, players: int) -> None:
    """What can be checked of a state built from data: a seat's belongings for
    each seat, a seat in range to act, and the game's own whole-state check (its
    adapter's ``check_position``: Taj Mahal's is
    :func:`~tajmahal.tajmahal.rules.check_state`); raises ValueError."""
    seats = getattr(state, "players", None)
    if isinstance(seats, tuple) and len(seats) != players:
        raise ValueError(f"bad state: {len(seats)} seats' belongings for {players} seats")
    seat = game.to_act(state)
    if seat is not None and not (type(seat) is int and 0 <= seat < players):
        raise ValueError(f"bad state: seat {seat!r} to act, of {players}")
    try:
        game.check_position(state)
    except ValueError:
        raise
    except Exception as e:  # whatever a game's engine raises on a state it never made
        raise ValueError(f"bad state: {e}") from None


def _state_data(game: Any, state: Any) -> dict[str, Any]:
    data: dict[str, Any] = game.converter.to_data(state)
    del data["setup"]
    return data


def _dealing_seed(game: Any, setup: Any) -> int | None:
    """The seed that deals ``setup`` (it says which, as Taj Mahal's and Java's do),
    else None."""
    seed = game.setup_to_data(setup).get("seed")
    if type(seed) is not int or seed < 0:
        return None
    try:
        dealt = game.random_setup(game.players(setup), seed, game.variant(setup))
    except ValueError:
        return None
    return seed if dealt == setup else None


def _unpack(token: str) -> dict[str, Any]:
    if not _TOKEN.fullmatch(token):
        raise ValueError("the token must be URL-safe base64 (A-Z, a-z, 0-9, - and _)")
    try:
        packed = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        unpacker = zlib.decompressobj()
        raw = unpacker.decompress(packed, MAX_DATA)
    except (binascii.Error, zlib.error, ValueError) as e:
        raise ValueError(f"the token does not unpack ({e})") from None
    if unpacker.unconsumed_tail or not unpacker.eof:
        raise ValueError("the token is cut short, or holds more than a position")
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as e:
        raise ValueError(f"the token holds no JSON ({e})") from None
    if not isinstance(data, dict):
        raise ValueError("the token holds no JSON object")
    return data
