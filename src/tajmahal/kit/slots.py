"""Building frozen attrs values fast, for engines that make a new state every step.

A frozen slotted attrs class sets each field in its ``__init__`` through
``object.__setattr__`` (about a thousand interpreter instructions a field).  An
engine that builds many such values calls :func:`builder`'s constructor instead,
which sets the slots through their own descriptors::

    seat_of: Final = builder(Seat)
    seat = seat_of(reserve, leader)  # the same as Seat(reserve, leader)

The builder takes the class's fields by position, as an engine builds a value field
by field in order (a field with a default may be left out at the end; a keyword is a
TypeError, which mypy, seeing the class's signature, does not flag), and makes the
instance ``Seat(...)`` makes, provided the class has nothing its ``__init__`` would
add: no validators, converters, post-init, keyword-only fields or default factories,
and a plain default for each field left out of ``__init__`` -- :func:`builder`
refuses another class, so a validator added later fails at import instead of being
skipped.

Compiled with mypyc (``tajmahal._engine.COMPILED``), the builder is a loop over the
slots (given fewer values than fields, it calls the class), within a few percent of
a builder unrolled by hand for each class and about a third faster than
``__init__`` from compiled code; taking keywords as well would cost it a dict a
call (Taj Mahal's random playouts about 5% slower).  Interpreted, a loop is slower than
``__init__``, so the builder is the unrolled function itself, its source written
from the fields and compiled at import, as attrs writes ``__init__``.

>>> from attrs import frozen
>>> @frozen
... class Seat:
...     reserve: int
...     leader: int = 1
>>> seat_of = builder(Seat)
>>> seat_of(3), seat_of(3, 0) == Seat(3, 0)
(Seat(reserve=3, leader=1), True)

A value made mostly of another's like-named fields (a view of a state, a picture's
scene of a view) is :func:`like`'s: only the fields that are not copied are written,
as Python, and every other field is the source's attribute of its name, as
:func:`attrs.evolve` keeps the fields it is not given:

>>> @frozen
... class Seen:
...     reserve: int
...     leader: int
...     rivals: int
>>> like(Seen, Seat(3, 0), rivals=2)
Seen(reserve=3, leader=0, rivals=2)
"""

from __future__ import annotations

from collections.abc import Callable
from types import FunctionType
from typing import Any, Final, ParamSpec, TypeVar, cast

import attrs

P = ParamSpec("P")
T = TypeVar("T")

_NEW: Final = object.__new__


class _SlotBuilder:
    """A class's constructor that sets all its slots directly (see the module)."""

    def __init__(self, cls: type) -> None:
        self.cls = cls
        self.setters, self.rest = _slot_setters(cls)
        self.size = len(self.setters)

    def __call__(self, *values: Any) -> Any:
        if len(values) != self.size:
            return self.cls(*values)
        setters = self.setters
        instance: Any = _NEW(self.cls)
        for i in range(self.size):
            setters[i](instance, values[i])
        for setter, default in self.rest:
            setter(instance, default)
        return instance

    def __repr__(self) -> str:
        return f"builder({self.cls.__qualname__})"


def builder(cls: Callable[P, T]) -> Callable[P, T]:
    """A constructor of ``cls`` (a frozen slotted attrs class) taking its fields by
    position, faster; see the module."""
    if not isinstance(cls, type):
        raise TypeError(f"builder: {cls!r} is not a class")
    if _COMPILED:
        return cast("Callable[P, T]", _SlotBuilder(cls))
    return cast("Callable[P, T]", _unrolled(cls))


def like(cls: type[T], source: object, /, **given: Any) -> T:
    """A ``cls`` (a frozen slotted attrs class, as :func:`builder` takes) whose fields
    are the values ``given``, and every other field ``source``'s attribute of the
    same name (a field ``__init__`` does not take keeps its default).  A name given
    that no field of ``cls`` has is a TypeError; a field ``source`` lacks, an
    AttributeError."""
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = _plan(cls)
    names, setters, rest = plan
    instance: Any = _NEW(cls)
    used = 0
    for i in range(len(names)):
        name = names[i]
        if name in given:
            setters[i](instance, given[name])
            used += 1
        else:
            setters[i](instance, getattr(source, name))
    for setter, default in rest:
        setter(instance, default)
    if used != len(given):
        unknown = sorted(set(given) - set(names))
        raise TypeError(f"{cls.__name__} has no fields {unknown}")
    return cast(T, instance)


Plan = tuple[tuple[str, ...], tuple["Setter", ...], tuple[tuple["Setter", Any], ...]]
#: :func:`like`'s fields and slots of each class, found on first use.
_PLANS: Final[dict[type, Plan]] = {}


def _plan(cls: type) -> Plan:
    setters, rest = _slot_setters(cls)
    return tuple(f.name for f in attrs.fields(cls) if f.init), setters, rest


def replaced(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``values`` with the item at ``index`` (0 to ``len(values) - 1``) replaced by
    ``value``: a frozen value's field changed in a step (a seat, a space ...).

    >>> replaced((1, 2, 3), 1, 5)
    (1, 5, 3)
    """
    if not 0 <= index < len(values):
        raise IndexError(f"replaced: index {index} is out of range for {len(values)} items")
    items = list(values)
    items[index] = value
    return tuple(items)


def _unrolled(cls: type) -> Callable[..., Any]:
    """The builder of ``cls`` as one function, a line a slot (interpreted code), its
    parameters positional-only as the compiled builder's are."""
    setters, rest = _slot_setters(cls)
    scope: dict[str, Any] = {"_new": _NEW, "_cls": cls}
    params: list[str] = []
    lines: list[str] = []
    for i, f in enumerate(a for a in attrs.fields(cls) if a.init):
        scope[f"_set{i}"] = setters[i]
        if f.default is attrs.NOTHING:
            params.append(f.alias)
        else:
            scope[f"_default{i}"] = f.default
            params.append(f"{f.alias}=_default{i}")
        lines.append(f"    _set{i}(__instance, {f.alias})")
    for j, (setter, default) in enumerate(rest):
        scope[f"_rest{j}"], scope[f"_rest_default{j}"] = setter, default
        lines.append(f"    _rest{j}(__instance, _rest_default{j})")
    name = f"{cls.__name__.lower()}_of"
    signature = ", ".join([*params, "/"]) if params else ""
    lines.insert(0, f"def {name}({signature}):\n    __instance = _new(_cls)")
    lines.append("    return __instance\n")
    exec("\n".join(lines), scope)
    return scope[name]  # type: ignore[no-any-return]


Setter = Callable[[Any, Any], None]


def _slot_setters(cls: type) -> tuple[tuple[Setter, ...], tuple[tuple[Setter, Any], ...]]:
    """The ``__set__`` of each slot ``__init__`` takes, in field order, and of each
    it does not take with the default it sets."""
    if hasattr(cls, "__attrs_post_init__"):
        raise TypeError(f"{cls.__name__}: built by its slots, it must not need a post-init")
    taken: list[Setter] = []
    rest: list[tuple[Setter, Any]] = []
    for f in attrs.fields(cls):
        setter = cls.__dict__[f.name].__set__
        plain = f.validator is None and f.converter is None and not f.kw_only
        if not plain or isinstance(f.default, attrs.Factory):  # type: ignore[arg-type]
            raise TypeError(f"{cls.__name__}.{f.name}: built by its slot, it must be plain")
        if f.init:
            taken.append(setter)
        elif f.default is attrs.NOTHING:
            raise TypeError(f"{cls.__name__}.{f.name}: left out of __init__, it needs a default")
        else:
            rest.append((setter, f.default))
    return tuple(taken), tuple(rest)


#: Whether this module runs compiled (a compiled module's functions are not Python
#: functions).
_COMPILED: Final = not isinstance(_slot_setters, FunctionType)
