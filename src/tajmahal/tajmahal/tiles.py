"""Province tiles (C4) and bonus tiles (C5), read from ``data/tiles.json``.

>>> PROVINCE_GOODS[3]
('spice', 'jewels')
>>> len(DEFAULT_BONUS_TILES), DEFAULT_BONUS_TILES.count(BonusTile("points"))
(15, 4)
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Final

from attrs import frozen

from ..kit.errors import ComponentError

#: The four goods (C4).
GOODS: Final = ("rice", "tea", "spice", "jewels")
#: Kinds of bonus tile (C5).
BONUS_KINDS: Final = ("taj_mahal", "points", "card", "good")
#: Points a bonus tile scores when taken (W6); the others score 0 at once.
BONUS_POINTS: Final = {"taj_mahal": 4, "points": 2}


@frozen
class BonusTile:
    """A bonus tile (C5): the Taj Mahal (+4), +2 points, one card, or one good."""

    kind: str
    good: str | None = None

    def __attrs_post_init__(self) -> None:
        if self.kind not in BONUS_KINDS:
            raise ComponentError(f"C5: unknown bonus tile kind {self.kind!r}")
        if (self.kind == "good") != (self.good in GOODS):
            raise ComponentError(f"C5: a good tile needs one of {GOODS}, got {self.good!r}")

    def __str__(self) -> str:
        return {"taj_mahal": "Taj Mahal (+4)", "points": "+2", "card": "card"}.get(
            self.kind, str(self.good)
        )


TAJ_MAHAL: Final = BonusTile("taj_mahal")


def bonus_tiles_from_counts(square: list[dict[str, Any]]) -> tuple[BonusTile, ...]:
    """Expand ``[{"kind": ..., "good": ..., "count": n}, ...]`` into 15 square tiles."""
    tiles = tuple(
        BonusTile(entry["kind"], entry.get("good"))
        for entry in square
        for _ in range(int(entry.get("count", 1)))
    )
    if len(tiles) != 15 or TAJ_MAHAL in tiles:
        raise ComponentError(
            f"C5: need 15 square bonus tiles without the Taj Mahal, got {len(tiles)}"
        )
    return tiles


def _load() -> tuple[dict[int, tuple[str, ...]], tuple[BonusTile, ...]]:
    raw = json.loads(resources.files(__package__).joinpath("data/tiles.json").read_text("utf-8"))
    goods = {int(k): tuple(v) for k, v in raw["province_tiles"].items()}
    if sorted(goods) != list(range(1, 13)) or any(
        not 1 <= len(g) <= 2 or any(x not in GOODS for x in g) for g in goods.values()
    ):
        raise ComponentError("C4: province tiles must be 1..12, each with one or two goods")
    return goods, bonus_tiles_from_counts(raw["bonus_tiles"]["square"])


_GOODS, _SQUARES = _load()
#: Goods on each province tile, by tile number 1..12 (C4).
PROVINCE_GOODS: Final[dict[int, tuple[str, ...]]] = _GOODS
#: The default 15 square bonus tiles (C5 decision: 4x +2, 3x card, 2 of each good).
DEFAULT_BONUS_TILES: Final[tuple[BonusTile, ...]] = _SQUARES
