"""Every installed game against the one interface, and the games this package ships
against the one layout (docs/kit.md, "The layers")."""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import pkgutil
from pathlib import Path

import pytest

from tajmahal.arena.game import Game, missing_parts
from tajmahal.arena.registry import GAMES
from tajmahal.kit import errors
from tajmahal.kit.adapter import Adapter
from tajmahal.kit.bots import Bots

#: The modules each game of this package has, one for each job.
LAYOUT = (
    "actions", "adapter", "bots", "chance", "draft", "encoding", "events", "heuristic",
    "hidden", "legal", "pictures", "render", "rules", "schema", "serialize", "state",
    "terminal", "testing", "texts", "views",
)  # fmt: skip
SHIPPED = sorted(p.name for p in importlib.metadata.distribution("tajmahal").entry_points
                 if p.group == "tajmahal.games")  # fmt: skip


def package_of(name: str) -> str:
    return type(GAMES.get(name)).__module__.rpartition(".")[0]


@pytest.mark.parametrize("name", GAMES.names())
def test_every_installed_game_is_complete_and_its_optional_parts_answer(name: str) -> None:
    game = GAMES.get(name)
    assert isinstance(game, Game) and missing_parts(game) == []
    assert game.min_players <= game.max_players
    assert {"random", "first"} <= set(game.builtin_players())
    state = game.new_game(game.random_setup(game.min_players, 1))
    legal = game.legal_actions(state)
    assert game.why_illegal(state, legal[0]) is None  # a legal action breaks no rule
    pictures = game.pictures()
    assert pictures is None or isinstance(pictures.board(state), str)
    names = [f"p{s}" for s in range(game.min_players)]
    game.terminal(state, names, None)  # a renderable, or None: either is allowed
    if isinstance(game, Adapter):
        bots = game.bots()
        assert bots is None or (isinstance(bots, Bots) and bots.game is game)
    if importlib.util.find_spec("numpy") is not None:
        from tajmahal.kit.encoding import Encoding

        encoding = game.encoding()
        assert encoding is None or (isinstance(encoding, Encoding) and encoding.game is game)
    if importlib.util.find_spec("jax") is not None:
        from tajmahal.batched import Env

        batched = game.batched(game.min_players)
        assert batched is None or isinstance(batched, Env)
        assert batched is None or batched.num_players == game.min_players


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_game_has_the_one_layout(name: str) -> None:
    package = importlib.import_module(package_of(name))
    modules = {m.name for m in pkgutil.iter_modules(package.__path__)}
    assert set(LAYOUT) <= modules, sorted(set(LAYOUT) - modules)
    for error in ("IllegalAction", "SetupError", "ComponentError"):
        assert getattr(package, error) is getattr(errors, error)  # one type each
    legal = importlib.import_module(f"{package.__name__}.legal")
    hidden = importlib.import_module(f"{package.__name__}.hidden")
    views = importlib.import_module(f"{package.__name__}.views")
    draft = importlib.import_module(f"{package.__name__}.draft")
    heuristic = importlib.import_module(f"{package.__name__}.heuristic")
    assert package.legal_actions is legal.legal_actions
    assert package.determinize is hidden.determinize
    assert package.view is views.view and package.PlayerView is views.PlayerView
    assert callable(draft.Draft.freeze) and callable(heuristic.evaluate)


@pytest.mark.parametrize("name", SHIPPED)
def test_no_part_of_a_game_imports_its_adapter(name: str) -> None:
    """The adapter is a game's top: it reaches every part, and no part reaches it
    (only the test strategies of ``testing``)."""
    package = importlib.import_module(package_of(name))
    for module in pkgutil.iter_modules(package.__path__):
        if module.name in ("adapter", "testing"):
            continue
        path = Path(package.__path__[0], f"{module.name}.py")  # the source, not an extension
        if path.is_file():
            assert "from .adapter import" not in path.read_text(encoding="utf-8"), module.name
