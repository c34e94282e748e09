"""Who plays which game: entrants, duplicate deals, seatings and game seeds.

A tournament between ``k`` entrants is a sequence of *deals*.  A deal is one
random setup (cards, tiles, start player), drawn from a seed, and it is played
once per *seating* of the entrants, so every entrant plays every seat on the same
cards.  Two ways to seat them (:data:`SEATINGS`):

- ``cyclic`` (``k`` games per deal): in rotation ``r`` entrant ``i`` sits at seat
  ``(i + r) mod k``.  Each entrant plays each seat once, but always has the same
  neighbours (whoever plays before and after it).
- ``all`` (``k!`` games per deal): every order of the entrants, so neighbours are
  balanced too.

Games are numbered deal by deal: with ``g`` games per deal, game ``n`` is deal
``n // g``, seating (``rotation``) ``n % g``.

Each deal's seed is a SHA-256 hash of the tournament seed and the deal number, cut
to 63 bits: a bot that sees its games cannot work its way back to the seeds of the
others, and small tournament seeds never give small (searchable) game seeds.

The setup of a game is drawn from its seed under a secret, the tournament
directory's key (:data:`KEYED_SETUPS`): the schedule's seeds follow from the
tournament seed alone, and a bot that knows this module could otherwise deal
the games of every small tournament seed and find its own.

*Duplicate* deals (the same cards in every seating of a deal) assume that the
bots of one seating cannot tell those of another what they saw; bots that are
separate programs can (through the timing of the page cache, at the least: see
docs/tournaments.md), so :func:`duplicate_by_default` deals *fresh* cards to
every game of a tournament with such bots: game ``n`` then has a seed of its own
(:data:`FRESH_SEEDING`), the seatings of a deal still rotate the seats, and what
one game shows says nothing about any other.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Collection, Iterator, Sequence
from typing import Final

from attrs import frozen

from ..names import parse_named

#: How deal seeds are derived; stored in each tournament's manifest, so that a
#: tournament is never resumed by code that would deal other cards.
SEEDING: Final = "sha256('arena-tournament-deal:{seed}:{deal}')[:8] >> 1"
#: How game seeds are derived when every game has fresh cards (not duplicate deals).
FRESH_SEEDING: Final = "sha256('arena-tournament-game:{seed}:{deal}:{rotation}')[:8] >> 1"
#: How a game's setup seed follows from its seed in a tournament whose setups
#: are keyed (the default; :attr:`~.plan.Plan.keyed`), appended to the rules above
#: in the manifest.  KEY is HMAC-SHA256(the key in DIR/.key (a gauntlet's own
#: DIR's), 'setup seeds').
KEYED_SETUPS: Final = "; setup seed: hmac-sha256(KEY, 'tajmahal setup seed {game seed}')[:8] >> 1"
CYCLIC: Final = "cyclic"
ALL: Final = "all"
#: The ways to seat entrants, and the rule of each (stored in the manifest too).
SEATINGS: Final = {
    CYCLIC: "rotation r of k: entrant i sits at seat (i + r) mod k",
    ALL: "seating r of k!: the r-th permutation of the entrants in lexicographic order "
    "(itertools.permutations), its s-th element at seat s",
}

@frozen
class Entrant:
    """A bot in the tournament: its place on the command line (``index``), a
    ``name`` unique in the tournament, and the ``bot`` as given to the referee
    (a built-in's name or a command line)."""

    index: int
    name: str
    bot: str


def parse_entrants(texts: Sequence[str]) -> list[Entrant]:
    """Entrants from BOT arguments, each ``BOT`` or ``NAME=BOT``.

    An unnamed bot is named by its text; when several share a text they are
    numbered: ``greedy#1``, ``greedy#2`` ... (:func:`~tajmahal.arena.names.parse_named`,
    as for the seats of ``match`` and ``play``).  Raises ValueError for an empty
    bot or two entrants with the same name.

    >>> [e.name for e in parse_entrants(["mcts", "greedy", "greedy", "g=greedy"])]
    ['mcts', 'greedy#1', 'greedy#2', 'g']
    """
    return [
        Entrant(index, name, bot)
        for index, (name, bot, _) in enumerate(parse_named(texts, "entrants"))
    ]


def deal_seed(tournament_seed: int, deal: int) -> int:
    """The seed of ``deal`` (a 63-bit integer); see :data:`SEEDING`.

    >>> deal_seed(1, 0) == deal_seed(1, 0) != deal_seed(1, 1)
    True
    """
    text = f"arena-tournament-deal:{tournament_seed}:{deal}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


def fresh_seed(tournament_seed: int, deal: int, rotation: int) -> int:
    """The seed of seating ``rotation`` of ``deal`` when every game has fresh cards
    (a 63-bit integer); see :data:`FRESH_SEEDING`.

    >>> len({fresh_seed(1, 0, r) for r in range(4)} | {deal_seed(1, 0)})
    5
    """
    text = f"arena-tournament-game:{tournament_seed}:{deal}:{rotation}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


def duplicate_by_default(bots: Sequence[str], builtins: Collection[str]) -> bool:
    """Whether a tournament of ``bots`` (each a built-in's name or a command line)
    plays duplicate deals unless told otherwise: only when every bot is built in
    (they run inside the referee, and keep nothing between games).  A bot that is
    a program may carry what it saw in one seating to another, so then every game
    gets fresh cards.

    >>> duplicate_by_default(["greedy", "random"], {"greedy", "random"})
    True
    >>> duplicate_by_default(["greedy", "bots/my_bot.py"], {"greedy", "random"})
    False
    """
    return all(bot in builtins for bot in bots)


def seatings_per_deal(seats: int, mode: str = CYCLIC) -> int:
    """Games per deal: ``seats`` (cyclic) or ``seats!`` (all)."""
    return seats if mode == CYCLIC else math.factorial(seats)


def seating(seats: int, rotation: int, mode: str = CYCLIC) -> tuple[int, ...]:
    """The entrant at each seat in seating number ``rotation`` of a deal.

    >>> seating(4, 1)  # cyclic: seat s holds entrant (s - 1) mod 4
    (3, 0, 1, 2)
    >>> [seating(3, r, "all") for r in range(6)]
    [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    """
    if mode == CYCLIC:
        return tuple((seat - rotation) % seats for seat in range(seats))
    if mode != ALL:
        raise ValueError(f"unknown seatings {mode!r}: {', '.join(SEATINGS)}")
    left, order = list(range(seats)), []
    for place in range(seats, 0, -1):
        index, rotation = divmod(rotation, math.factorial(place - 1))
        order.append(left.pop(index))
    return tuple(order)


def deals_for(games: int, per_deal: int) -> int:
    """The number of deals that gives at least ``games`` games (whole deals).

    >>> deals_for(200, 4), deals_for(10, 3)
    (50, 4)
    """
    return -(-games // per_deal)


@frozen
class Slot:
    """One scheduled game: its ``number`` in the schedule, its deal and seating
    number (``rotation``), the deal's ``seed``, and the entrant at each seat
    (``seating``)."""

    number: int
    deal: int
    rotation: int
    seed: int
    seating: tuple[int, ...]


def slot(
    tournament_seed: int, seats: int, number: int, mode: str = CYCLIC, duplicate: bool = True
) -> Slot:
    """Game ``number`` of the schedule: its deal's cards in every seating
    (``duplicate``), or cards of its own."""
    deal, rotation = divmod(number, seatings_per_deal(seats, mode))
    return Slot(
        number=number,
        deal=deal,
        rotation=rotation,
        seed=(
            deal_seed(tournament_seed, deal)
            if duplicate
            else fresh_seed(tournament_seed, deal, rotation)
        ),
        seating=seating(seats, rotation, mode),
    )


def schedule(
    tournament_seed: int, seats: int, deals: int, mode: str = CYCLIC, duplicate: bool = True
) -> Iterator[Slot]:
    """Every game of the tournament, in order.  The first ``d`` deals are the same
    whatever the number of deals, so a tournament can be extended."""
    per_deal = seatings_per_deal(seats, mode)
    for number in range(deals * per_deal):
        yield slot(tournament_seed, seats, number, mode, duplicate)
