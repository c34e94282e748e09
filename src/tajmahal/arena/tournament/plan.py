"""A tournament's plan: everything that decides which games are played and how.

The plan is stored in the output directory when a tournament starts (the
manifest); a restart must bring the same plan, except that the number of deals
may grow.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from attrs import evolve, field, frozen

from ..terms import DEFAULT_GRACE, DEFAULT_HANDSHAKE, DEFAULT_MAX_LINE, DEFAULT_MAX_LOG, TimeControl
from .logbudget import DEFAULT_MAX_LOGS
from .schedule import (
    CYCLIC,
    FRESH_SEEDING,
    KEYED_SETUPS,
    SEATINGS,
    SEEDING,
    Entrant,
    Slot,
    parse_entrants,
    schedule,
    seatings_per_deal,
    slot,
)
from .sprt import SprtParams


def _entrants(given: Iterable[Entrant | str]) -> tuple[Entrant, ...]:
    """Entrants as given, or parsed from BOT texts (``greedy``, ``new=bots/x.py``)."""
    items = list(given)
    if all(isinstance(e, str) for e in items):
        return tuple(parse_entrants([str(e) for e in items]))
    if all(isinstance(e, Entrant) for e in items):
        return tuple(e for e in items if isinstance(e, Entrant))
    raise TypeError("entrants are all Entrant objects or all BOT texts")


@frozen
class Plan:
    """The game (by name), the entrants (in command-line order), the tournament
    seed, the number of deals, the variant (None: the game's default for the
    number of seats), one time control per entrant (it follows the bot from seat
    to seat), the referee's other limits, and how entrants are seated in a deal
    (``seatings``: see :data:`~.schedule.SEATINGS`), the bytes of bot logs the
    whole tournament keeps (``max_logs``: see :mod:`.logbudget`), the sequential test that
    may stop a two-entrant tournament early (``sprt``: see :mod:`.sprt`), and
    whether a deal's cards are played in each of its seatings (``duplicate``,
    the default here) or every game has cards of its own: the command line
    plays duplicate deals only between built-in bots
    (:func:`~.schedule.duplicate_by_default`), which cannot carry what they saw
    from one game to another; give the same choice from Python for bots that
    are programs.  ``keyed`` (the default): each game's setup is drawn from its
    seed under the tournament directory's key (:data:`~.schedule.KEYED_SETUPS`),
    which no bot can know; else from the seed itself (manifests written before,
    and tournaments started with ``TAJMAHAL_REPRODUCIBLE_SEEDS``).

    Only the game and the entrants are required: entrants may be given as the
    command line's BOT texts, and every limit defaults to the referee's.

    >>> plan = Plan("tajmahal", ["greedy", "random", "random"], seed=1, deals=4)
    >>> [e.name for e in plan.entrants], plan.games, plan.time[2]
    (['greedy', 'random#1', 'random#2'], 12, TimeControl(move=1.0, bank=10.0))
    """

    game: str
    entrants: tuple[Entrant, ...] = field(converter=_entrants)
    seed: int = 0
    deals: int = 1
    variant: str | None = None
    time: tuple[TimeControl, ...] = ()
    handshake: float = DEFAULT_HANDSHAKE
    grace: float = DEFAULT_GRACE
    max_line: int = DEFAULT_MAX_LINE
    max_log: int = DEFAULT_MAX_LOG
    batch_events: bool = True
    seatings: str = CYCLIC
    sprt: SprtParams | None = None
    sandbox: bool = False
    memory: int | None = None
    duplicate: bool = True
    max_logs: int = DEFAULT_MAX_LOGS
    keyed: bool = True

    def __attrs_post_init__(self) -> None:
        if not self.time:  # the referee's default for every entrant
            object.__setattr__(self, "time", tuple(TimeControl() for _ in self.entrants))
        elif len(self.time) != len(self.entrants):
            raise ValueError(
                f"{len(self.time)} time controls for {len(self.entrants)} entrants: give one each"
            )

    @property
    def seats(self) -> int:
        return len(self.entrants)

    @property
    def per_deal(self) -> int:
        """Games per deal."""
        return seatings_per_deal(self.seats, self.seatings)

    @property
    def games(self) -> int:
        return self.deals * self.per_deal

    def slots(self) -> Iterator[Slot]:
        return schedule(self.seed, self.seats, self.deals, self.seatings, self.duplicate)

    def slot(self, number: int) -> Slot:
        return slot(self.seed, self.seats, number, self.seatings, self.duplicate)

    def with_deals(self, deals: int) -> Plan:
        return evolve(self, deals=deals)

    @property
    def seeding(self) -> str:
        """How the games' seeds, and their setups' seeds, follow from the
        tournament seed (the manifest keeps it)."""
        rule = SEEDING if self.duplicate else FRESH_SEEDING
        return rule + KEYED_SETUPS if self.keyed else rule

    def to_data(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "entrants": [{"name": e.name, "bot": e.bot} for e in self.entrants],
            "seed": self.seed,
            "deals": self.deals,
            "games": self.games,
            "variant": self.variant,
            "time": [t.to_data() for t in self.time],
            "handshake": self.handshake,
            "grace": self.grace,
            "max_line": self.max_line,
            "max_log": self.max_log,
            "max_logs": self.max_logs,
            "batch_events": self.batch_events,
            "sandbox": self.sandbox,
            "memory": self.memory,
            "seatings": self.seatings,
            "duplicate": self.duplicate,
            "seeding": self.seeding,
            "seating_rule": SEATINGS[self.seatings],
            "sprt": None if self.sprt is None else self.sprt.to_data(),
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Plan:
        """Raises ValueError for data that is not a plan, or one made with another
        way of dealing seeds or rotating seats."""
        try:
            seatings = str(data["seatings"])
            duplicate = bool(data.get("duplicate", True))  # older manifests: always
            seeding = SEEDING if duplicate else FRESH_SEEDING
            keyed = data["seeding"] == seeding + KEYED_SETUPS  # older manifests: not keyed
            if not (keyed or data["seeding"] == seeding) or data["seating_rule"] != SEATINGS.get(
                seatings
            ):
                raise ValueError(
                    "it was made by a version that deals seeds or seats entrants differently"
                )
            return cls(
                game=str(data["game"]),
                entrants=tuple(
                    Entrant(i, str(e["name"]), str(e["bot"]))
                    for i, e in enumerate(data["entrants"])
                ),
                seed=int(data["seed"]),
                deals=int(data["deals"]),
                variant=None if data["variant"] is None else str(data["variant"]),
                time=tuple(TimeControl(float(t["move"]), float(t["bank"])) for t in data["time"]),
                handshake=float(data["handshake"]),
                grace=float(data["grace"]),
                max_line=int(data["max_line"]),
                max_log=int(data["max_log"]),
                max_logs=int(data.get("max_logs", DEFAULT_MAX_LOGS)),
                batch_events=bool(data["batch_events"]),
                seatings=seatings,
                sprt=None if data.get("sprt") is None else SprtParams.from_data(data["sprt"]),
                sandbox=bool(data.get("sandbox", False)),
                memory=None if data.get("memory") is None else int(data["memory"]),
                duplicate=duplicate,
                keyed=keyed,
            )
        except (KeyError, TypeError) as e:
            raise ValueError(f"not a tournament plan ({type(e).__name__}: {e})") from None

    def differences(self, given: Plan) -> list[str]:
        """What ``given`` changes in this plan, one line per option as the command
        line names it, ignoring the number of deals (see :meth:`with_deals`).

        >>> stored = Plan("tajmahal", ["greedy", "random"], seed=4)
        >>> for line in stored.differences(Plan("tajmahal", ["greedy", "first"], seed=5,
        ...                                     time=[TimeControl(0.5)] * 2)):
        ...     print(line)
        BOTs: stored greedy random, given greedy first
        --seed: stored 4, given 5
        --time, --bank, --seat-time: stored 1 s a decision + 10 s bank, given 0.5 s a ...
        """
        mine, theirs = self.to_data(), given.to_data()
        if [e["bot"] for e in mine["entrants"]] == [e["bot"] for e in theirs["entrants"]]:
            mine["entrants"] = [e["name"] for e in mine["entrants"]]  # only names differ
            theirs["entrants"] = [e["name"] for e in theirs["entrants"]]
        return [
            f"{_OPTION.get(key, key)}: stored {_text(mine[key])}, given {_text(theirs[key])}"
            for key in mine
            if key not in ("deals", "games", "seeding") and mine[key] != theirs[key]
        ]


#: The command-line options behind the fields of a plan.
_OPTION = {
    "game": "--game",
    "entrants": "BOTs",
    "seed": "--seed",
    "variant": "--variant",
    "time": "--time, --bank, --seat-time",
    "handshake": "--handshake",
    "grace": "--grace",
    "max_line": "--max-line",
    "max_log": "--max-log",
    "max_logs": "--max-logs",
    "batch_events": "--batch-events",
    "sandbox": "--sandbox",
    "memory": "--memory",
    "seatings": "--seatings",
    "duplicate": "--duplicate",
    "sprt": "--sprt",
}


def _text(value: Any) -> str:
    """A field of :meth:`Plan.to_data` as the command line would say it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, dict) and "elo0" in value:
        return SprtParams.from_data(value).text()
    if isinstance(value, list) and value and isinstance(value[0], dict) and "move" in value[0]:
        controls = [f"{t['move']:g} s a decision + {t['bank']:g} s bank" for t in value]
        if len(set(controls)) == 1:
            return controls[0]
        return "; ".join(f"BOT {i}: {c}" for i, c in enumerate(controls))
    if isinstance(value, list) and value and isinstance(value[0], dict) and "bot" in value[0]:
        return " ".join(e["bot"] if e["name"] == e["bot"] else f"{e['name']}={e['bot']}"
                        for e in value)
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return str(value)
