"""The legal actions of a state (T3-T5, T8, W4, W11): :func:`legal_actions`.

Compiled with mypyc with the engine.  Rule ids refer to ``docs/rules.md``.
"""

from __future__ import annotations

from bisect import bisect_left

from .actions import BUILDS, MOGUL_BUILDS, PLAYS, TAKES, WITHDRAW, Action
from .cards import CARD_COLOR, FIRST_EXTRA, MONK_CARD
from .counting import _palace_cities
from .state import PlayerState, State


def _plays(player: PlayerState) -> list[Action]:
    """T3/T4/T5: every play open to ``player``, by card id, then extra (none first)."""
    hand = player.hand
    split = bisect_left(hand, FIRST_EXTRA)
    extras = hand[split:]
    color = player.color
    monk = MONK_CARD in extras
    out: list[Action] = []
    for card in hand[:split]:
        table = PLAYS[card]
        if color is None or CARD_COLOR[card] == color:
            out.append(table[None])
            out.extend(table[e] for e in extras)
        elif monk:
            out.append(table[MONK_CARD])
    return out


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every legal action of ``state.to_act`` in a stable order; empty once the game is over.

    In the play phase: plays sorted by card id then extra card (none first), then
    :class:`~tajmahal.Withdraw` last (always legal, T8).  After a withdrawal:
    palace placements by city id (normal ones first), or display cards by id.
    """
    seat = state.to_act
    if seat is None:
        return ()
    pending = state.pending
    if pending is None:
        out = _plays(state.players[seat])
        out.append(WITHDRAW)
        return tuple(out)
    if pending.palaces or pending.mogul:
        normal, mogul = _palace_cities(
            state.setup.board, state.province, state.palaces, state.moguls, seat
        )
        placements: list[Action] = []
        if pending.palaces:
            placements.extend(BUILDS[c] for c in normal)
        if pending.mogul:
            placements.extend(MOGUL_BUILDS[c] for c in mogul)
        return tuple(placements)
    return tuple(map(TAKES.__getitem__, state.display))
