"""Tikal's component files: validated on load, replaceable without code changes."""

from __future__ import annotations

import json
import shutil
from importlib import resources
from pathlib import Path

import pytest

from tajmahal.tikal import ComponentError, Setup, load_components, new_game
from tajmahal.tikal.components import DEFAULT_COMPONENTS

DATA = resources.files("tajmahal.tikal").joinpath("data")


def copy_data(tmp_path: Path) -> Path:
    for name in ("board.json", "components.json"):
        (tmp_path / name).write_text(DATA.joinpath(name).read_text("utf-8"))
    return tmp_path


def edit(path: Path, change: object) -> None:
    data = json.loads(path.read_text())
    change(data)  # type: ignore[operator]
    path.write_text(json.dumps(data))


def test_a_copy_of_the_data_loads_and_a_changed_copy_plays(tmp_path: Path) -> None:
    folder = copy_data(tmp_path)
    assert load_components(folder) == DEFAULT_COMPONENTS

    def values(data: dict) -> None:  # type: ignore[type-arg]
        for tile in data["tiles"]:
            if tile["kind"] == "temple":
                tile["value"] = 2

    edit(folder / "components.json", values)
    components = load_components(folder)
    assert {t.value for t in components.tiles if t.kind == "temple"} == {2}
    state = new_game(Setup.random(2, seed=1, components=components))
    assert state.components is components


@pytest.mark.parametrize(
    ("name", "change", "message"),
    [
        ("components.json", lambda d: d["tiles"][4].update(stones=[1, 0, 0, 0, 0, 0]),
         "T21 volcanoes have no stones"),
        ("components.json", lambda d: d["tiles"][0].update(stones=[0, 0, 0, 0, 0, 0]),
         "T20 every tile but a volcano has stones"),
        ("components.json", lambda d: d["tiles"][0].update(stones=[4, 0, 0, 0, 0, 0]),
         "T20 allows 0 to 3 stones"),
        ("components.json", lambda d: d["tiles"][3].update(masks=9), "2 to 4 masks"),
        ("components.json", lambda d: d["tiles"][0].update(back="B"), "T11"),
        ("components.json", lambda d: d["treasures"].update(copies=2), "only 16 treasure tokens"),
        ("components.json", lambda d: d["levels"].pop("10"), "T7"),
        ("components.json", lambda d: d.pop("figures"), "misses or mistypes 'figures'"),
        ("board.json", lambda d: d["spaces"].pop(), ""),
        ("board.json", lambda d: d["base_camp"].update(space=[40, 40]), "not a space"),
        ("board.json", lambda d: d["base_camp"].update(stones=[0, 0, 0, 0, 0, 0]),
         "reachable over stones"),
        ("board.json", lambda d: d["temples"].pop(), "2 temples"),
        ("board.json", lambda d: d["temples"][0].update(value=0), "value must be 1 to 9"),
    ],
)  # fmt: skip
def test_bad_data_is_refused_with_the_rule_it_breaks(
    tmp_path: Path, name: str, change: object, message: str
) -> None:
    folder = copy_data(tmp_path)
    edit(folder / name, change)
    if not message:  # a smaller board still works
        load_components(folder)
        return
    with pytest.raises(ComponentError, match=message):
        load_components(folder)


def test_not_json_is_refused(tmp_path: Path) -> None:
    folder = copy_data(tmp_path)
    (folder / "board.json").write_text("{")
    with pytest.raises(ComponentError, match="not JSON"):
        load_components(folder)
    shutil.rmtree(folder)
