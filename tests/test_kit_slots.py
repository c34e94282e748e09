"""kit.slots.builder: the instance a builder makes is the one the class makes, on
both of its forms (the compiled loop and the interpreted unrolled function), and a
class whose ``__init__`` would add something is refused at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import pytest
from attrs import field, frozen

import tajmahal
from tajmahal.kit import slots
from tajmahal.kit.slots import builder


@frozen
class Seat:
    reserve: int
    camps: tuple[int, ...]
    leader: bool = True
    cache: int | None = field(default=None, init=False, eq=False)


FORMS: list[Callable[[type], Any]] = [slots._SlotBuilder, slots._unrolled]


@pytest.mark.parametrize("form", FORMS, ids=["loop", "unrolled"])
def test_every_field_given_builds_what_the_class_builds(form: Callable[[type], Any]) -> None:
    seat_of = form(Seat)
    seat = seat_of(4, (1, 2), False)
    assert type(seat) is Seat
    assert (seat.reserve, seat.camps, seat.leader) == (4, (1, 2), False)
    assert seat.cache is None  # a field left out of __init__ gets its default
    assert seat == Seat(4, (1, 2), False)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        seat.reserve = 5  # type: ignore[misc]


@pytest.mark.parametrize("form", FORMS, ids=["loop", "unrolled"])
def test_defaults_work_as_in_the_class_and_keywords_are_refused(
    form: Callable[[type], Any],
) -> None:
    seat_of = form(Seat)
    assert seat_of(4, ()) == Seat(4, (), True)
    with pytest.raises(TypeError):
        seat_of(1)  # camps has no default
    with pytest.raises(TypeError):  # by position only, on both forms
        seat_of(reserve=2, camps=(3,), leader=False)


def test_builder_takes_the_form_of_the_engine_in_use() -> None:
    # kit.slots is one of the engine's compiled modules: it runs compiled exactly
    # when the package chose the compiled engine (pure: TAJMAHAL_PURE=1).
    assert slots._COMPILED == tajmahal.COMPILED
    made = builder(Seat)
    assert isinstance(made, slots._SlotBuilder) == tajmahal.COMPILED
    assert made(1, (0,)) == Seat(1, (0,))


@frozen
class Marker:
    """A value with no field to give (a flag, say)."""

    uses: int = field(default=0, init=False)


@pytest.mark.parametrize("form", FORMS, ids=["loop", "unrolled"])
def test_a_class_with_nothing_to_give_is_built_with_no_values(
    form: Callable[[type], Any],
) -> None:
    made = form(Marker)()
    assert type(made) is Marker
    assert made.uses == 0


@frozen
class Checked:
    value: int = field(validator=attrs.validators.ge(0))


@frozen
class Converted:
    value: int = field(converter=int)


@frozen
class Factoried:
    values: list[int] = field(factory=list)


@frozen
class KeywordOnly:
    value: int = field(kw_only=True)


@frozen
class Derived:
    value: int
    twice: int = field(init=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "twice", 2 * self.value)


@frozen
class Unset:
    value: int
    later: int = field(init=False)


@pytest.mark.parametrize(
    ("cls", "message"),
    [
        (Checked, "Checked.value: built by its slot, it must be plain"),
        (Converted, "Converted.value: built by its slot"),
        (Factoried, "Factoried.values: built by its slot"),
        (KeywordOnly, "KeywordOnly.value: built by its slot"),
        (Derived, "Derived: built by its slots, it must not need a post-init"),
        (Unset, "Unset.later: left out of __init__, it needs a default"),
    ],
)
def test_a_class_whose_init_adds_something_is_refused(cls: type, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        builder(cls)


def test_only_a_class_has_a_builder() -> None:
    with pytest.raises(TypeError, match="is not a class"):
        builder(len)
