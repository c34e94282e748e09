"""Views (public and secret information) and the JSON shapes of docs/api.md."""

from __future__ import annotations

import json

import pytest

from tajmahal import Play, Setup, Withdraw, legal_actions, new_game, step, view
from tajmahal.tajmahal.actions import Action
from tajmahal.tajmahal.events import CardDrawn, event_for
from tajmahal.tajmahal.serialize import DataError, from_data, loads, to_data

from tajmahal_scenario import Table


def test_view_holds_own_hand_other_hand_sizes_and_legal_actions_only_when_to_act() -> None:
    state = new_game(Setup.random(4, 5))
    seat = state.to_act
    assert seat is not None
    mine = view(state, seat)
    assert mine.hand == state.players[seat].hand
    assert mine.legal == legal_actions(state)
    other = view(state, (seat + 1) % 4)
    assert other.legal == ()
    assert [p.hand_size for p in other.players] == [6, 6, 6, 6]
    assert other.deck_size == len(state.deck)
    spectator = view(state, None)
    assert spectator.hand == ()


def test_view_never_contains_seed_deck_or_other_hands() -> None:
    state = new_game(Setup.random(3, 99))
    data = json.dumps(to_data(view(state, 0)))
    assert "seed" not in data and '"deck"' not in data
    text = to_data(view(state, 0))
    assert set(text["players"][1]) >= {"hand_size"} and "hand" not in text["players"][1]


def test_drawn_card_is_secret_to_other_seats() -> None:
    state = new_game(Setup.random(3, 4))
    seat = state.to_act
    _, events = step(state, Withdraw())  # W11: draws the top card
    drawn = next(e for e in events if isinstance(e, CardDrawn))
    assert drawn.card == state.deck[0]
    assert event_for(drawn, seat) == drawn
    assert event_for(drawn, (seat + 1) % 3) == CardDrawn(seat, None, drawn.reason)
    assert event_for(drawn, None).card is None  # type: ignore[union-attr]


def test_action_json_shapes() -> None:
    assert to_data(Play(3)) == {"type": "play", "card": 3}
    assert to_data(Play(3, 84)) == {"type": "play", "card": 3, "extra": 84}
    assert to_data(Withdraw()) == {"type": "withdraw"}
    assert from_data({"type": "build_mogul_palace", "city": 7}, Action).city == 7
    assert loads('{"type": "take_card", "card": 12}', Action) == from_data(
        {"type": "take_card", "card": 12}, Action
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "fly"}, r'unknown "type" "fly" @ \$\.type'),
        ({"card": 3}, 'expected a JSON object with a "type"'),
        ([3], 'expected a JSON object with a "type"'),
        ({"type": "play", "card": "3x"}, r"\$\.card"),
        ({"type": "play", "card": 3, "colour": "red"}, "extra fields found"),
    ],
)
def test_bad_action_data_gets_a_readable_error(data: object, message: str) -> None:
    with pytest.raises(DataError, match=message):
        from_data(data, Action)


def test_not_json() -> None:
    with pytest.raises(DataError, match="not JSON"):
        loads("{", Action)


def test_views_of_a_played_game_show_the_table() -> None:
    t = Table(
        new_game(
            Setup.stacked(
                3, [[0, 2, 5, 14, 16, 20], [23, 26, 29, 32, 37, 39], [44, 47, 50, 53, 58, 59]]
            )
        )
    )
    t.play(0, 2)
    seen = view(t.state, 1)
    assert seen.players[0].played == (2,) and seen.players[0].color == "red"
    assert seen.players[0].hand_size == 5
    assert seen.to_act == 1 and seen.phase == "play"
