"""Taj Mahal's pictures as the HTML viewer and the browser game take them
(:class:`tajmahal.arena.game.Pictures`): the layers of :mod:`.render`, what a
person clicks for each action, a preview of an action, the mark of the last
move, and the legend.

>>> from tajmahal import Setup, new_game
>>> state = new_game(Setup.random(3, seed=1))
>>> PICTURES.targets(state, {"type": "play", "card": 5, "extra": 90})
('hand-card-5', 'hand-card-90')
>>> PICTURES.targets(state, {"type": "withdraw"})
()
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from ..kit.svg import text
from .actions import WITHDRAW
from .cards import CARDS, SYMBOLS
from .events import Withdrew
from .maplayout import layout
from .panel import display_spot, hand_parts, hand_spots, played_spot, prize_spot, rows
from .render import board_layer, document, public_parts, svg
from .rules import step
from .scene import (
    CARD_COLORS,
    CARD_H,
    CARD_W,
    GOOD_ICONS,
    PANEL_W,
    PANEL_X,
    SEAT_COLORS,
    SMALL_H,
    SMALL_W,
    SYMBOL_MARKS,
    SYMBOL_NAMES,
    card_at,
    scene_of,
)
from .state import State
from .views import PlayerView

HIGHLIGHT: Final = "#e0301e"


def _outline(x: float, y: float, w: float, h: float, dashed: bool = False) -> str:
    dash = ' stroke-dasharray="5 3"' if dashed else ""
    return (
        f'<rect class="ring" x="{x - 3:.1f}" y="{y - 3:.1f}" width="{w + 6}" height="{h + 6}" '
        f'rx="6" fill="none" stroke="{HIGHLIGHT}" stroke-width="3.5"{dash}/>'
    )


def _ghost(card: int, x: float, y: float, small: bool = True) -> str:
    return f'<g opacity="0.85">{card_at(CARDS[card], round(x, 1), y, None, small)}</g>'


def _play(state: State, action: dict[str, Any], done: bool) -> str:
    seat = state.to_act
    assert seat is not None
    cards = [action["card"]] + ([action["extra"]] if action.get("extra") is not None else [])
    played = len(state.players[seat].played)
    out = []
    s = scene_of(state, None)
    for k, one in enumerate(cards):
        x, y = played_spot(s, seat, played + k)
        out.append(_outline(x, y, SMALL_W, SMALL_H) if done else _ghost(one, x, y))
    if not done:
        spots = dict(zip(state.players[seat].hand, hand_spots(s, seat), strict=True))
        out += [_outline(*spots[c], CARD_W, CARD_H) for c in cards if c in spots]
    return "".join(out)


def _take(state: State, action: dict[str, Any], done: bool) -> str:
    seat = state.to_act
    assert seat is not None
    index = state.display.index(action["card"]) if action["card"] in state.display else 0
    out = [_outline(*display_spot(index, len(state.display)), CARD_W, CARD_H, dashed=done)]
    if not done:
        s = scene_of(state, None)
        spots = hand_spots(s, seat)
        if spots:
            x, y = spots[-1]
            x = min(x + 14, PANEL_X + PANEL_W - CARD_W)
            out.append(f'<g opacity="0.8">{card_at(CARDS[action["card"]], x, y - 6)}</g>')
    return "".join(out)


def _palace(state: State, action: dict[str, Any], done: bool) -> str:
    seat = state.to_act
    assert seat is not None
    x, y = layout(state.setup.board).cities[action["city"]]
    color = SEAT_COLORS[seat % len(SEAT_COLORS)]
    out = [
        f'<circle class="ring" cx="{x}" cy="{y}" r="23" fill="none" stroke="{HIGHLIGHT}" '
        f'stroke-width="3.5"/>'
    ]
    if not done:
        if action["type"] == "build_mogul_palace":
            out.append(
                f'<circle cx="{x}" cy="{y}" r="16" fill="none" stroke="{color}" '
                f'stroke-width="3.5" stroke-dasharray="5 2.5"/>'
            )
        else:
            out.append(
                f'<rect x="{x - 9}" y="{y - 9}" width="18" height="18" fill="{color}" '
                f'stroke="#222" stroke-width="1.5"/>'
            )
    return "".join(out)


def _withdraw(state: State, done: bool) -> str:
    seat = state.to_act
    assert seat is not None
    s = scene_of(state, None)
    top, row = rows(s)
    if done:
        return _outline(PANEL_X - 4, top + seat * row + 2, 120, 22)
    _, events = step(state, WITHDRAW)
    prizes = next((e.prizes for e in events if isinstance(e, Withdrew)), ())
    out = []
    for k, prize in enumerate(state.court):
        if prize in prizes:
            x, y = prize_spot(k)
            out.append(
                f'<circle class="ring" cx="{x}" cy="{y}" r="19" fill="none" '
                f'stroke="{HIGHLIGHT}" stroke-width="3.5"/>'
            )
    won = ", ".join(prizes) if prizes else "nothing"
    out.append(text(12, 62, f"withdraw: wins {won}", 16, fill=HIGHLIGHT, font_weight="bold"))
    return "".join(out)


def _sketch(state: State, action: Any, done: bool) -> str:
    if not isinstance(action, dict) or state.to_act is None:
        return ""
    kind = action.get("type")
    if kind == "play":
        return _play(state, action, done)
    if kind == "take_card":
        return _take(state, action, done)
    if kind in ("build_palace", "build_mogul_palace"):
        return _palace(state, action, done)
    if kind == "withdraw":
        return _withdraw(state, done)
    return ""


def _legend_card(symbols: str, color: str = "yellow") -> str:
    ink = "#222" if color in ("yellow", "white") else "#fff"
    return (
        f'<rect x="6" y="1" width="16" height="26" rx="3" fill="{CARD_COLORS[color]}" '
        f'stroke="#333"/>'
        + text(14, 19, symbols, 12, text_anchor="middle", font_weight="bold", fill=ink)
    )


def legend() -> list[tuple[str, str]]:
    """Each symbol of the picture (an SVG fragment in a 28 x 28 box) and what it means."""
    items = [
        (_legend_card(SYMBOL_MARKS[s]), f"{SYMBOL_MARKS[s]}: {SYMBOL_NAMES[s]}") for s in SYMBOLS
    ]
    items += [
        (
            _legend_card("V*", "special"),
            "a special card (the character's: V* counts a grand "
            "mogul, G* an elephant, M* changes colour, P* scores 2)",
        ),
        (
            '<circle cx="14" cy="14" r="10" fill="#fffaf0" stroke="#3b3024" stroke-width="1.8"/>',
            "a city",
        ),
        (
            '<rect x="2" y="2" width="24" height="24" rx="2" fill="#fffaf0" stroke="#3b3024" '
            'stroke-width="2"/>'
            + text(14, 19, "+2", 12, text_anchor="middle", font_weight="bold", fill="#5a4510"),
            "a fortress with its bonus tile: +2 points, +4 the Taj Mahal, a card, or a good",
        ),
        (
            f'<circle cx="14" cy="14" r="10" fill="{SEAT_COLORS[0]}" stroke="#3b3024"/>',
            "a palace, in its seat's colour",
        ),
        (
            f'<circle cx="14" cy="14" r="11" fill="none" stroke="{SEAT_COLORS[1]}" '
            'stroke-width="3.5" stroke-dasharray="5 2.5"/>',
            "a mogul palace (the ring's)",
        ),
        (
            '<path d="M2,14 L26,14" stroke="#9b8765" stroke-width="2.5" stroke-dasharray="7 3"/>',
            "a road",
        ),
        (
            '<rect x="3" y="5" width="22" height="18" fill="none" stroke="#c0392b" '
            'stroke-width="4"/>',
            "the province of this visit",
        ),
    ]
    items += [
        (f'<g transform="translate(3 3) scale(1.4)">{icon}</g>', f"{good} (goods, W7)")
        for good, icon in GOOD_ICONS.items()
    ]
    items.append(
        (
            '<circle cx="14" cy="9" r="8" fill="#f5d76e" stroke="#7a5c00"/>'
            + text(14, 13, "E", 10, text_anchor="middle", font_weight="bold")
            + text(14, 26, "2 to 1", 7.5, text_anchor="middle", font_weight="bold",
                   fill=SEAT_COLORS[0]),
            "a prize at the court, its leader and the count against the next (W1): "
            "the prize a withdrawal now would win",
        )
    )
    return items


class TajMahalPictures:
    """The layers, targets, previews and legend of Taj Mahal's pictures."""

    def __init__(self) -> None:
        self._last: tuple[State, Any] | None = None  # a step's scene, drawn in layers

    def scene_of(self, state: State, names: Sequence[str] | None = None) -> Any:
        last = self._last
        if last is not None and last[0] is state and names is None:
            return last[1]
        scene = scene_of(state, names)
        self._last = (state, scene)
        return scene

    def board(self, state: State) -> str:
        return board_layer(state.setup.board)

    def public(self, state: State, names: Sequence[str]) -> list[str]:
        return public_parts(self.scene_of(state, names))

    def hand(self, state: State, seat: int) -> tuple[str, ...]:
        return hand_parts(self.scene_of(state), seat)

    def document(self, body: str) -> str:
        return document(body)

    def picture(self, value: State | PlayerView) -> str:
        return svg(value)

    def targets(self, state: State, action: Any) -> tuple[str, ...]:
        """What a person clicks for ``action`` (its protocol data): the card in the
        hand (then the white or special card played with it), the card in the
        display, the city of a palace; nothing to withdraw (a button)."""
        kind = action.get("type") if isinstance(action, dict) else None
        if kind == "play":
            extra = action.get("extra")
            first = f"hand-card-{action['card']}"
            return (first,) if extra is None else (first, f"hand-card-{extra}")
        if kind == "take_card":
            return (f"display-card-{action['card']}",)
        if kind in ("build_palace", "build_mogul_palace"):
            return (f"city-{action['city']}",)
        return ()

    def preview(self, state: State, action: Any) -> str:
        """The action drawn where it happens: the cards on the table, the palace,
        the card taken into the hand, the prizes a withdrawal wins."""
        return _sketch(state, action, done=False)

    def mark(self, state: State, action: Any) -> str:
        """The mark of ``action`` (taken in ``state``) on the picture after it."""
        return _sketch(state, action, done=True)

    def legend(self) -> list[tuple[str, str]]:
        return legend()

    def half_made(self, state: State) -> bool:
        """Never: every action of the game is one decision."""
        return False


PICTURES: Final = TajMahalPictures()
