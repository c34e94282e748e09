"""What OpenSpiel's observers read from an :class:`~tajmahal.openspiel.game.OpenSpielState`:
the seat's current view (:class:`ObservationObserver`) and its whole
action-observation history (:class:`InfoStateObserver`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..kit.chance import PUBLIC
from ..kit.encoding import Encoding

if TYPE_CHECKING:
    from .game import Core, OpenSpielGame, OpenSpielState


class ObservationObserver:
    """The seat's current view: the game's observation tensor (one named piece per
    block) and the view's JSON, as a referee sends it to a bot (string)."""

    def __init__(self, encoding: Encoding[Any, Any], players: int) -> None:
        layout = encoding.layout(players)
        self.encoding = encoding
        self.tensor: npt.NDArray[np.float32] = np.zeros(layout.size, np.float32)
        self.dict = {b.name: self.tensor[b.offset : b.stop].reshape(b.shape) for b in layout.blocks}

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


class InfoStateObserver:
    """The seat's action-observation history: token ids (tensor, padded with 0;
    the first is the observing seat) and the same history in words (string)."""

    def __init__(self, game: OpenSpielGame) -> None:
        self.tokens = game.tokens
        self.tensor: npt.NDArray[np.float32] = np.zeros(
            1 + game.max_history_length(), np.float32
        )
        self.dict = {"tokens": self.tensor}

    def set_from(self, state: OpenSpielState, player: int) -> None:
        tokens = self.seen(state.core, player)
        if len(tokens) > len(self.tensor):  # pragma: no cover - the bound holds
            raise AssertionError("a history longer than max_history_length")
        self.tensor.fill(0.0)
        self.tensor[: len(tokens)] = tokens

    def string_from(self, state: OpenSpielState, player: int) -> str:
        return " ".join(self.tokens.text(t) for t in self.seen(state.core, player))

    def seen(self, core: Core, player: int) -> list[int]:
        """The history as ``player`` saw it: its seat, then one token per step."""
        unseen = self.tokens.unseen
        out = [self.tokens.seat + player]
        for token, owner in core.tokens:
            out.append(token if owner in (PUBLIC, player) else unseen(owner))
        return out
