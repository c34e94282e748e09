"""What OpenSpiel's observers read from an :class:`~tajmahal.openspiel.game.OpenSpielState`,
for each kind OpenSpiel's ``IIGObservationType`` names:

- :class:`ObservationObserver`: the seat's current view (public information and
  its own private one: OpenSpiel's observation);
- :class:`InfoStateObserver`: the seat's information state: its view as a tensor,
  its view and whole history as it saw it as a string (perfect recall);
- :class:`HistoryObserver`: that history as token ids (observer parameter
  ``history``), for sequence models;
- :class:`PartsObserver`: the public observation, one seat's private part, or
  every seat's private part, with or without the public one.

Blocks of the game's encoding are public unless it names them ``private``
(:attr:`tajmahal.kit.encoding.Encoding.private`: the observer's hand).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..kit.chance import PUBLIC
from ..kit.encoding import BlockSpec, Encoding, ObservationLayout, observation_layout

# The states and games are tajmahal.openspiel.game's (which imports this module):
# named Any here, so that the two import in one direction.
OpenSpielState = Any
OpenSpielGame = Any
Core = Any

#: ``private_info`` of :class:`PartsObserver`: nobody's, the observer's, every seat's
#: (the names of ``pyspiel.PrivateInfoType``'s values).
NONE, SINGLE_PLAYER, ALL_PLAYERS = "none", "single_player", "all_players"


def _pieces(layout: ObservationLayout, tensor: npt.NDArray[np.float32]) -> dict[str, Any]:
    return {b.name: tensor[b.offset : b.stop].reshape(b.shape) for b in layout.blocks}


class ObservationObserver:
    """The seat's current view: the game's observation tensor (one named piece per
    block) and the view's JSON, as a referee sends it to a bot (string)."""

    def __init__(self, encoding: Encoding[Any, Any], players: int) -> None:
        layout = encoding.layout(players)
        self.encoding = encoding
        self.tensor: npt.NDArray[np.float32] = np.zeros(layout.size, np.float32)
        self.dict = _pieces(layout, self.tensor)

    def set_from(self, state: OpenSpielState, player: int) -> None:
        engine = state.engine
        if engine is None:
            self.tensor.fill(0.0)
            return
        self.encoding.observation(engine, player, out=self.tensor)

    def string_from(self, state: OpenSpielState, player: int) -> str:
        core = state.core
        if core.engine is None:
            return f"seat {player} setup {len(core.tokens)}"
        text = self.encoding.game.view_json(core.engine, player).decode()
        if core.chance is not None:
            text += f" drawing {core.drawn}"
        return f"seat {player} {text}"


class HistoryObserver:
    """The seat's action-observation history as token ids (tensor, padded with 0;
    the first is the observing seat) and in words (string)."""

    def __init__(self, game: OpenSpielGame) -> None:
        self.tokens = game.tokens
        self.tensor: npt.NDArray[np.float32] = np.zeros(
            1 + game.max_history_length(), np.float32
        )
        self.dict = {"tokens": self.tensor}

    def set_from(self, state: OpenSpielState, player: int) -> None:
        tokens = seen(state.core, player, self.tokens.unseen, self.tokens.seat)
        if len(tokens) > len(self.tensor):  # pragma: no cover - the bound holds
            raise AssertionError("a history longer than max_history_length")
        self.tensor.fill(0.0)
        self.tensor[: len(tokens)] = tokens

    def string_from(self, state: OpenSpielState, player: int) -> str:
        return history_text(state, player)


class InfoStateObserver:
    """The seat's information state: the tensor is its observation (what it knows
    now, a few thousand floats: the view holds what the seat learned and still
    matters, such as the cards everybody saw a seat take); the string is its view
    and then its whole history as it saw it, so that it is a function of the seat's
    information alone, distinct for histories the seat can tell apart (perfect
    recall), and names the legal actions."""

    def __init__(self, game: OpenSpielGame) -> None:
        self.view = ObservationObserver(game.encoding, game.num_players())
        self.tensor = self.view.tensor
        self.dict = self.view.dict

    def set_from(self, state: OpenSpielState, player: int) -> None:
        self.view.set_from(state, player)

    def string_from(self, state: OpenSpielState, player: int) -> str:
        return f"{self.view.string_from(state, player)} | {history_text(state, player)}"


def seen(core: Core, player: int, unseen: Any, seat: int) -> list[int]:
    """The history as ``player`` saw it: its seat, then one token per step (an
    outcome it did not see as "an outcome went to seat q")."""
    out = [seat + player]
    for token, owner in core.tokens:
        out.append(token if owner in (PUBLIC, player) else unseen(owner))
    return out


def history_text(state: OpenSpielState, player: int) -> str:
    """The history as ``player`` saw it, in words (:meth:`Tokens.text`)."""
    tokens = state.get_game().tokens
    return " ".join(tokens.text(t) for t in seen(state.core, player, tokens.unseen, tokens.seat))


class PartsObserver:
    """The public observation and the private ones, as OpenSpiel's observation types
    name them: the public blocks (``public``: seats in absolute order, the same
    for every observer), then the private blocks of nobody, of the observer, or of
    every seat (a row per seat).  The string lists the blocks that are not zero
    (``name=i,j:v``: elements at flat positions i and j, 1 unless ``:v``)."""

    def __init__(self, game: OpenSpielGame, public: bool, private: str) -> None:
        encoding = game.encoding
        players = game.num_players()
        specs = encoding.specs(players)
        names = {spec[0] for spec in specs}
        unknown = set(encoding.private) - names
        if unknown:
            raise ValueError(f"{encoding.game.title} names unknown private blocks {unknown}")
        chosen: list[BlockSpec] = []
        if public:
            chosen += [s for s in specs if s[0] not in encoding.private]
        for name, shape, high, meaning in specs:
            if name not in encoding.private:
                continue
            if private == SINGLE_PLAYER:
                chosen.append((name, shape, high, meaning))
            elif private == ALL_PLAYERS:
                chosen.append((name, ("n", *shape), high, f"by seat: {meaning}"))
        self.encoding = encoding
        self.players = players
        self.public = public
        self.private = private
        self.layout = observation_layout(players, chosen)
        self.full = encoding.layout(players)
        self.tensor: npt.NDArray[np.float32] = np.zeros(self.layout.size, np.float32)
        self.dict = _pieces(self.layout, self.tensor)
        self._scratch: npt.NDArray[np.float32] = np.zeros(self.full.size, np.float32)

    def set_from(self, state: OpenSpielState, player: int) -> None:
        self.tensor.fill(0.0)
        engine = state.engine
        if engine is None:
            return
        observation, full, scratch = self.encoding.observation, self.full, self._scratch
        private = self.encoding.private
        if self.public:
            observation(engine, 0, out=scratch)  # seat 0's rows first: absolute order
            for block in self.layout.blocks:
                if block.name not in private:
                    self.dict[block.name][...] = full.part(scratch, block.name)
        if self.private == SINGLE_PLAYER:
            observation(engine, player, out=scratch)
            for name in private:
                self.dict[name][...] = full.part(scratch, name)
        elif self.private == ALL_PLAYERS:
            for seat in range(self.players):
                observation(engine, seat, out=scratch)
                for name in private:
                    self.dict[name][seat] = full.part(scratch, name)

    def string_from(self, state: OpenSpielState, player: int) -> str:
        self.set_from(state, player)
        head = "public" if self.public else "private"
        if self.private == SINGLE_PLAYER:
            head += f" seat {player}"
        elif self.private == ALL_PLAYERS:
            head += " every seat"
        core = state.core
        if core.engine is None:
            return f"{head} setup {len(core.tokens)}"
        parts = [head]
        for block in self.layout.blocks:
            values = self.tensor[block.offset : block.stop]
            at = np.flatnonzero(values)
            if len(at):
                items = (f"{i}" if values[i] == 1 else f"{i}:{values[i]:g}" for i in at)
                parts.append(f"{block.name}={','.join(items)}")
        if core.chance is not None:
            parts.append(f"drawing {core.drawn}")
        return " ".join(parts)
