"""What the browser game offers a person: the legal actions of a decision as the
page shows them (a text, the parts of the picture to click, a preview).

A game whose actions are made of small decisions (Java: what, then where, then
how) says so through its pictures' ``half_made(state)``: True while a
half-made action waits for its next decision.  Then the first decision of an
action and the one after it are offered joined, as one choice: a person clicks
a position and picks what to do there, rather than first picking a word from a
list and then the position.  Each :class:`Offer` keeps the indices it stands
for, one per decision, and the table answers the next decision from them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from attrs import frozen

from .game import AnyGame, Pictures


@frozen
class Offer:
    """A choice of the page: ``choices`` (an index into each decision's legal
    actions, the first for the decision asked), its ``label``, the ``path`` of
    parts to click and its ``preview``."""

    choices: tuple[int, ...]
    label: str
    path: tuple[str, ...]
    preview: str

    def shown(self) -> dict[str, Any]:
        """As the page gets it."""
        return {"label": self.label, "path": list(self.path), "preview": self.preview}


def first_part(
    game: AnyGame, pictures: Pictures | None, before: Any, after: Any, events: Sequence[Any]
) -> bool:
    """Whether the step ``before`` -> ``after`` (which caused ``events``) began an
    action of several decisions and caused nothing yet: the same seat goes on
    with the action half made.  The logs tell the action at its last decision."""
    return (
        pictures is not None
        and not events
        and game.to_act(after) == game.to_act(before)
        and pictures.half_made(after)
    )


def offers(
    game: AnyGame, pictures: Pictures | None, state: Any, legal: Sequence[Any]
) -> list[Offer]:
    """The offers for the decision of ``state`` (``legal``: its legal actions as
    protocol data): one per action, or, for an action that leaves a half-made one
    to the same seat, one per action of the decision after it."""
    seat = game.to_act(state)
    out = []
    for i, data in enumerate(legal):
        action = game.action_from_data(data)
        if pictures is None:
            out.append(Offer((i,), game.describe_action(state, action), (), ""))
            continue
        path = tuple(pictures.targets(state, data))
        if not pictures.half_made(state):
            after, _ = game.step(state, action)
            if game.to_act(after) == seat and pictures.half_made(after):
                for j, next_action in enumerate(game.legal_actions(after)):
                    next_data = game.action_to_data(next_action)
                    out.append(
                        Offer(
                            (i, j),
                            game.describe_action(after, next_action),
                            path + tuple(pictures.targets(after, next_data)),
                            pictures.preview(after, next_data),
                        )
                    )
                continue
        label = game.describe_action(state, action)
        out.append(Offer((i,), label, path, pictures.preview(state, data)))
    return out
