"""The suite every game passes, for any game: :func:`game_suite` (needs pytest).

A game's author runs it on their own game from one line of a test module::

    # tests/test_my_game_suite.py
    from tajmahal.suite import game_suite

    TestMyGame = game_suite("my-game")  # a name the registry knows, or the game object

``game_suite()`` with no game runs it on every installed game.  Each test is run
for each game named, at every player count the game allows:

- the interface: the game is complete (:func:`~tajmahal.arena.game.missing_parts`);
  its setups read back from their data; random games end, with a score, a rank
  and a breakdown for every seat; every legal action reads back from its data,
  strictly, and is told in words;
- the JSON forms: each view's and each event's text is its data, byte for byte,
  for every seat; a public event is the same for everyone; a kit game's bot
  rebuilds its view and legal actions from the messages;
- the protocol: a match through the referee, one seat a bot program speaking the
  line protocol, the others the game's built-in players; its record replays; each
  built-in player answers the hello and an ``act`` of that match;
- the viewer: the record as an HTML page (with the game's pictures, if it has
  them);
- the encoding (a game whose ``encoding()`` gives one): indices and observations;
  PettingZoo's and OpenSpiel's own test suites (with ``tajmahal[rl]``; skipped,
  saying so, without it).

The suite knows no game: whatever a game declares is what it checks against.
It needs pytest (``pip install 'tajmahal[testing]'``; the learning programs' part,
``tajmahal[rl]``).
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import orjson

from .extras import require

require("testing", "tajmahal.suite", ("pytest",))

import pytest  # noqa: E402

from .arena.game import AnyGame, missing_parts  # noqa: E402
from .arena.registry import GAMES  # noqa: E402
from .kit.adapter import Adapter  # noqa: E402

#: How many decisions of each random game the JSON checks look at (every seat's view
#: at each); whole games are played without them.
CHECKED_STEPS = 150
#: A random game's decisions, at most, when the game declares no bound of its own
#: (its encoding's ``max_decisions``).
DECISIONS = 100_000

#: PettingZoo warns about any dict observation outside its own list of classic games.
DICT_OBSERVATION_WARNINGS = frozenset(
    {
        "Observation is not a NumPy array",
        "Observation space for each agent probably should be gymnasium.spaces.box or "
        "gymnasium.spaces.discrete",
    }
)


def game_suite(*games: str | AnyGame) -> type:
    """A pytest test class (name it ``Test...`` in a test module) that runs the suite
    on ``games``: names the registry knows, or game objects; none: every installed
    game."""
    names = [g if isinstance(g, str) else g.name for g in games] or GAMES.names()
    params = [pytest.param(g, id=n) for g, n in zip(games or names, names, strict=True)]
    return pytest.mark.parametrize("game", params, indirect=True)(
        type("GameSuite", (GameSuite,), {"__doc__": GameSuite.__doc__})
    )


# --------------------------------------------------------------------------- helpers


def counts(game: AnyGame) -> range:
    """Every player count ``game`` allows."""
    return range(game.min_players, game.max_players + 1)


def cases(game: AnyGame, encoding: Any) -> list[tuple[int, str | None]]:
    """(players, variant) for the learning programs' suites: the fewest and the most
    players in the default variant, and the fewest in each other variant the
    encoding names."""
    default = game.variant(game.random_setup(game.min_players, 0))
    others = [v for v in encoding.variants if v != default]
    return [
        *((n, None) for n in sorted({game.min_players, game.max_players})),
        *((game.min_players, v) for v in others),
    ]


def decisions_bound(game: AnyGame, players: int) -> int:
    """The most decisions a game of ``players`` may take: its encoding's bound."""
    encoding = game.encoding()
    return DECISIONS if encoding is None else int(encoding.max_decisions(players, None))


def random_game(game: AnyGame, players: int, seed: int) -> Iterator[tuple[Any, Any, list[Any]]]:
    """(state, action, events of the step that led to the state) along a random game
    of ``players`` from ``seed``, to its end (the first has no action and events)."""
    rng = random.Random(seed)
    state = game.new_game(game.random_setup(players, seed))
    yield state, None, []
    for _ in range(decisions_bound(game, players)):
        if game.to_act(state) is None:
            return
        action = rng.choice(list(game.legal_actions(state)))
        state, events = game.step(state, action)
        yield state, action, list(events)
    raise AssertionError(
        f"{game.title}: a random game of {players} players (seed {seed}) did not end "
        f"within {decisions_bound(game, players)} decisions"
    )


def json_checks(game: AnyGame, state: Any, events: Sequence[Any], players: int) -> None:
    """Each seat's view text is its data, and each event's too, byte for byte."""
    for seat in range(players):
        assert game.view_json(state, seat) == orjson.dumps(game.view_data(state, seat))
    for event in events:
        texts = set()
        for seat in (None, *range(players)):
            data = game.event_data(event, seat)
            assert game.event_json(event, seat) == orjson.dumps(data)
            texts.add(orjson.dumps(data))
        if game.is_public(event):
            assert len(texts) == 1, f"the public event {event!r} differs between seats"


def action_checks(game: AnyGame, state: Any) -> None:
    """Each legal action reads back from its data (also as JSON text), is told in
    words, and is not refused by :meth:`why_illegal`; the fallback is among them."""
    legal = list(game.legal_actions(state))
    assert legal, "a seat to act has no legal action"
    for action in legal:
        data = orjson.loads(orjson.dumps(game.action_to_data(action)))
        assert game.action_from_data(data) == action
        assert isinstance(game.describe_action(state, action), str)
    assert 0 <= game.fallback(state, legal) < len(legal)
    with pytest.raises(ValueError):
        game.action_from_data({"type": "no such action in any game"})


# --------------------------------------------------------------------------- the suite


class GameSuite:
    """The checks every game passes (see :mod:`tajmahal.suite`); made for games
    by :func:`game_suite`."""

    @pytest.fixture
    def game(self, request: pytest.FixtureRequest) -> AnyGame:
        named = request.param
        return GAMES.get(named) if isinstance(named, str) else named

    # -- the interface

    def test_the_game_is_complete(self, game: AnyGame) -> None:
        assert missing_parts(game) == []
        assert 1 <= game.min_players <= game.max_players
        assert game.name and game.title and game.score_sources

    def test_setups_read_back_from_their_data(self, game: AnyGame) -> None:
        for players in counts(game):
            setup = game.random_setup(players, players)
            text = orjson.dumps(game.setup_to_data(setup))
            again = game.setup_from_data(orjson.loads(text))
            assert orjson.dumps(game.setup_to_data(again)) == text
            assert game.players(again) == players
            assert isinstance(game.variant(again), str)
            orjson.dumps(game.public_setup(setup))  # JSON data
        for players in (game.min_players - 1, game.max_players + 1):
            with pytest.raises(ValueError):
                game.random_setup(players, 1)

    def test_random_games_end_with_a_score_and_a_rank_for_every_seat(self, game: AnyGame) -> None:
        for players in counts(game):
            for seed in (1, 2):
                *_, (state, _, _) = random_game(game, players, seed)
                scores, ranks = game.scores(state), game.ranks(state)
                assert len(scores) == len(ranks) == players
                assert min(ranks) == 1 and all(1 <= r <= players for r in ranks)
                # a place is shared: as many seats are ahead of a seat as its rank says
                assert all(sum(r < mine for r in ranks) == mine - 1 for mine in ranks)
                breakdown = game.breakdown(state)
                assert len(breakdown) == players
                assert all(set(b) == set(game.score_sources) for b in breakdown)

    def test_legal_actions_read_back_and_are_told_in_words(self, game: AnyGame) -> None:
        names = [f"p{s}" for s in range(game.max_players)]
        for players in counts(game):
            for i, (state, _, events) in enumerate(random_game(game, players, 3)):
                if i == 0:
                    assert all(isinstance(t, str) for t in game.describe_start(state, names))
                assert all(isinstance(t, str) for t in game.describe_events(state, events, names))
                if game.to_act(state) is not None and i < CHECKED_STEPS:
                    action_checks(game, state)

    # -- the JSON forms

    def test_views_and_events_are_their_data_byte_for_byte(self, game: AnyGame) -> None:
        for players in counts(game):
            for i, (state, _, events) in enumerate(random_game(game, players, 4)):
                if i >= CHECKED_STEPS:
                    break
                json_checks(game, state, events, players)

    def test_a_bot_rebuilds_its_view_from_the_messages(self, game: AnyGame) -> None:
        if not isinstance(game, Adapter):
            pytest.skip(f"{game.title} is not a game of the kit: its bots read its data")
        public = orjson.loads(
            orjson.dumps(game.public_setup(game.random_setup(game.min_players, 5)))
        )
        setup = game.read_setup(public)  # as a bot keeps the hello's
        for i, (state, _, _) in enumerate(random_game(game, game.min_players, 5)):
            seat = game.to_act(state)
            if seat is None or i % 7 or i > CHECKED_STEPS:
                continue
            legal = [game.action_to_data(a) for a in game.legal_actions(state)]
            view, actions = game.read_act(setup, orjson.loads(game.view_json(state, seat)), legal)
            assert view == game.view(state, seat)
            assert actions == list(game.legal_actions(state))

    # -- the protocol, the record, the viewer

    def test_a_match_through_the_referee_replays_and_is_drawn(
        self, game: AnyGame, tmp_path: Path
    ) -> None:
        from .arena import BotSpec, MatchConfig, replay, run_match
        from .arena.viewer import write_viewer
        from .shipped import root

        bot = BotSpec.parse(str(root() / "bots" / "random_bot.py"), ())
        cheap = [n for n in game.builtin_players() if n != "mcts"]  # it answers below
        players = min(max(3, game.min_players), game.max_players)
        specs = [bot, *(BotSpec.parse(cheap[s % len(cheap)], cheap) for s in range(players - 1))]
        lines: list[tuple[int, str, Any]] = []
        record = tmp_path / "game.jsonl"
        config = MatchConfig(
            record=record, trace=lambda seat, way, line: lines.append((seat, way, line))
        )
        result = run_match(game, game.random_setup(players, 7), specs, config, seed=7)
        assert result.faults == []
        replayed = replay(game, record)
        assert len(replayed.steps) > 0
        page = tmp_path / "game.html"
        assert write_viewer(lambda _: game, [record], page) == 1
        html = page.read_text("utf-8")
        assert game.title in html
        if game.pictures() is not None:
            assert "<svg" in html
        # Every built-in player, the search included, answers that match's messages.
        sent = [orjson.loads(line) for seat, way, line in lines if seat == 1 and way == "to"]
        hello = next(m for m in sent if m["type"] == "hello")
        act = next(m for m in sent if m["type"] == "act")
        for name, make in game.builtin_players().items():
            player = make(1)
            greeting = player.handle(hello)
            assert greeting is not None and greeting["type"] == "hello", name
            answer = player.handle(act)
            assert answer is not None and answer["type"] == "action", name
            if "choice" in answer:
                assert 0 <= answer["choice"] < len(act["legal"]), name

    # -- for learning programs

    def test_the_encoding_indexes_every_legal_action_and_observes_every_seat(
        self, game: AnyGame
    ) -> None:
        encoding = _encoding(game)
        for players in counts(game):
            size = encoding.layout(players).size
            for i, (state, _, _) in enumerate(random_game(game, players, 6)):
                if i % 5 or i > CHECKED_STEPS:
                    continue
                for seat in range(players):
                    assert encoding.observation(state, seat).shape == (size,)
                for action in encoding.legal(state):
                    assert encoding.action(encoding.index(action), state) == action
            outcome = encoding.outcome(state)
            assert len(outcome) == players and sum(outcome) == pytest.approx(0.0)

    def test_pettingzoo_api_and_seed_tests_pass(self, game: AnyGame) -> None:
        encoding = _encoding(game)
        test = pytest.importorskip("pettingzoo.test", reason="needs tajmahal[rl]")
        from .pettingzoo import env, parallel_env

        for players, variant in cases(game, encoding):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                test.api_test(env(game, players, variant=variant), num_cycles=100)
            assert {str(w.message) for w in caught} <= DICT_OBSERVATION_WARNINGS
            test.seed_test(lambda n=players, v=variant: env(game, n, variant=v), num_cycles=50)
            test.parallel_api_test(parallel_env(game, players, variant=variant), num_cycles=100)

    def test_openspiel_random_sim_test_passes(self, game: AnyGame) -> None:
        encoding = _encoding(game)
        if encoding.chance is None:
            pytest.skip(f"{game.title} has no chance model: OpenSpiel cannot play it")
        pyspiel = pytest.importorskip("pyspiel", reason="needs tajmahal[rl]")
        from .openspiel import register

        name = register(game)
        for players, variant in cases(game, encoding):
            params = {"players": players, **({"variant": variant} if variant else {})}
            loaded = pyspiel.load_game(name, params)
            pyspiel.random_sim_test(loaded, num_sims=1, serialize=True, verbose=False)


def _encoding(game: AnyGame) -> Any:
    """The game's encoding; the test is skipped, saying why, for a game without one."""
    encoding = game.encoding()
    if encoding is None:
        pytest.skip(f"{game.title} has no encoding for learning programs")
    try:
        import numpy  # noqa: F401
    except ImportError:
        pytest.skip("needs tajmahal[rl]")
    return encoding


__all__ = ["GameSuite", "game_suite"]
