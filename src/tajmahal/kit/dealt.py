"""Setups dealt at random from one box of components: :class:`Dealt`.

A game whose pieces come from a box (a board, tiles, cards) starts from a setup
that deals them from a seed.  The setup class (a frozen attrs class) declares its
seat counts and variants and how it deals; :meth:`Dealt.random` checks the seats
and the variant and deals, and :class:`~tajmahal.kit.adapter.ComponentsAdapter`
reads the variants and the box from it.  A bad setup raises the kit's
:class:`~tajmahal.kit.errors.SetupError`.
"""

from __future__ import annotations

from random import Random
from typing import Any, ClassVar, Self

from .errors import SetupError


class Dealt:
    """A setup dealt from ``seed``.  A subclass declares :attr:`seats`, the rule
    that fixes them (:attr:`seats_rule`, the start of its message), :attr:`variants`
    (the first is the default), :attr:`default_components`, and :meth:`deal`."""

    __slots__ = ()

    seats: ClassVar[range]
    seats_rule: ClassVar[str]
    variants: ClassVar[tuple[str, ...]]
    default_components: ClassVar[Any]

    @classmethod
    def random(
        cls, players: int, seed: int, variant: str | None = None, components: Any = None
    ) -> Self:
        """A setup dealt from ``seed`` (by default of the first variant, with the
        package's components)."""
        variant = cls.variants[0] if variant is None else variant
        cls.check_start(players, variant)
        box = cls.default_components if components is None else components
        return cls.deal(players, variant, Random(seed), box)

    @classmethod
    def deal(cls, players: int, variant: str, rng: Random, components: Any) -> Self:
        """The setup ``rng`` deals (the seats and the variant are checked); each
        game's setup class defines it."""
        raise NotImplementedError(f"{cls.__name__} does not say how it deals (Dealt.deal)")

    @classmethod
    def check_start(cls, players: int, variant: str) -> None:
        """Raises :class:`SetupError` unless a game may have ``players`` seats and
        the ``variant``."""
        if players not in cls.seats:
            raise SetupError(f"{cls.seats_rule}, not {players}")
        if variant not in cls.variants:
            raise SetupError(f"unknown variant {variant!r}; known: {', '.join(cls.variants)}")
