"""The referee: plays one game between bots and survives anything they do.

:func:`run_match` starts the bots (:data:`Bot`: a command line, a built-in's
name, ``NAME=BOT``, a :class:`BotSpec`, or a :class:`~tajmahal.arena.player.Player`
of your own, run in process); :func:`play_match` plays over given connections
(used by tests with scripted fakes).  Both return a :class:`MatchResult` and never
raise because of a bot: a bot that faults is marked with the kind of fault,
stopped, and from then on its seat is played by the game's fallback policy, so
the game finishes and the other results stand.  docs/api.md shows them at work
(``tajmahal docs api``).
"""

from __future__ import annotations

import contextlib
import difflib
import os
import secrets
import shlex
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from attrs import evolve, field, frozen

from . import cgroups, containment, sandbox, seal
from .connection import Connection, InProcessConnection
from .game import AnyGame
from .match import Match
from .names import parse_named
from .player import Player
from .process import ProcessConnection
from .replayer import Replay
from .resume import ResumedMatch
from .signals import uninterruptible
from .terms import (
    Fault,
    MatchConfig,
    MatchResult,
    reproducible,
    seat_seed,
    setup_seed,
)


@frozen
class BotSpec:
    """A bot to start: a built-in player's name (``builtin``), or a command line
    ``argv``; ``text`` as given.  ``home``: the folder the command runs in (its
    files' paths are relative to it, and a sandboxed bot may read it), None for
    the current directory.  ``name``: the seat's name, if one was given
    (``NAME=BOT``: :meth:`named`); else the bot's own, from its hello."""

    text: str
    argv: tuple[str, ...] = ()
    builtin: str | None = None
    home: str | None = None
    name: str | None = None
    #: An in-process player of the caller's (:meth:`of`).
    player: Player | None = field(default=None, eq=False)

    @classmethod
    def parse(cls, text: str, builtins: Sequence[str], home: str | None = None) -> BotSpec:
        """A built-in name as is; otherwise a command line (split like a shell does).
        A command whose program ends in ``.py`` runs with this Python, ``.js`` with
        ``node``."""
        if text in builtins:
            return cls(text=text, builtin=text)
        argv = shlex.split(text)
        if not argv:
            raise ValueError("an empty bot command")
        if argv[0].endswith(".py"):
            argv = [sys.executable, *argv]
        elif argv[0].endswith((".js", ".mjs")):
            argv = ["node", *argv]
        return cls(text=text, argv=tuple(argv), home=home)

    @classmethod
    def of(cls, bot: Bot, builtins: Sequence[str]) -> BotSpec:
        """``bot`` as a spec: a spec as it is, a text as the command line takes it
        (``BOT`` or ``NAME=BOT``), a player of the caller's to run in process
        (named by its ``name``)."""
        if isinstance(bot, BotSpec):
            return bot
        if isinstance(bot, Player):
            return cls(text=bot.name, player=bot)
        return cls.named([bot], builtins)[0]

    @classmethod
    def named(cls, texts: Sequence[str], builtins: Sequence[str]) -> list[BotSpec]:
        """The bots of ``texts``, each ``BOT`` or ``NAME=BOT`` (as the command line
        takes them: :func:`~tajmahal.arena.names.parse_named`); raises ValueError for
        an empty bot or a name given twice.

        >>> specs = BotSpec.named(["me=greedy", "random"], ["greedy", "random"])
        >>> [(spec.name, spec.builtin) for spec in specs]
        [('me', 'greedy'), (None, 'random')]
        """
        return [
            evolve(cls.parse(bot, builtins), name=name if given else None)
            for name, bot, given in parse_named(texts)
        ]

    @property
    def script(self) -> str | None:
        """The script a ``.py`` or ``.js`` bot runs (None for other commands)."""
        if self.builtin is None and len(self.argv) > 1 and self.argv[0] in (sys.executable, "node"):
            return self.argv[1]
        return None

    def problem(self, builtins: Sequence[str], cwd: Path | None = None) -> str | None:
        """Why this bot cannot start, as far as can be told without starting it (a
        misspelt built-in, a missing script or program), with a "did you mean"; None
        if it looks startable."""
        if self.builtin is not None:
            return None
        base = cwd or Path.cwd()
        script = self.script
        if script is not None:
            path = base / script
            if path.is_file():
                return None
            where = "" if self.text == script else f" (bot {self.text!r})"
            return f"no such file {script!r}{where}{_did_you_mean(script, builtins, base)}"
        program = self.argv[0]
        if "/" in program:
            path = base / program
            if path.is_file() and os.access(path, os.X_OK):
                return None
            why = "is not executable" if path.is_file() else "does not exist"
            where = "" if self.text == program else f" (bot {self.text!r})"
            return f"{program!r} {why}{where}{_did_you_mean(program, builtins, base)}"
        if shutil.which(program) is not None:
            return None
        if (base / program).is_file():  # a file here, named without a path
            runnable = os.access(base / program, os.X_OK)
            how = f"run it as ./{program}" if runnable else "it is not executable either"
            return (
                f"{self.text!r} is a file here but not a bot: a bot is a built-in one "
                f"({', '.join(builtins)}), a .py or .js script, or a program on the PATH "
                f"or given by its path ({how})"
            )
        return (
            f"{self.text!r} is neither a built-in bot ({', '.join(builtins)}) nor a program "
            f"on the PATH{_did_you_mean(program, builtins, base)}"
        )


def _did_you_mean(text: str, builtins: Sequence[str], cwd: Path) -> str:
    """``; did you mean 'greedy'?`` for a near built-in name or a near file, in the
    folder ``text`` names or one folder down (``random_bot.py`` run from the
    folder holding ``bots/``: ``bots/random_bot.py``)."""
    candidates = list(builtins)
    folder = (cwd / text).parent
    prefix = "" if "/" not in text else text.rsplit("/", 1)[0] + "/"
    below: list[str] = []
    with contextlib.suppress(OSError):
        for entry in sorted(folder.iterdir())[:1000]:
            candidates.append(prefix + entry.name)
            if entry.is_dir() and not entry.name.startswith("."):
                with contextlib.suppress(OSError):
                    below += [f"{prefix}{entry.name}/{p.name}" for p in entry.iterdir()]
    candidates = [c for c in candidates if c != text]
    close = difflib.get_close_matches(text, candidates, n=1, cutoff=0.75)
    if not close:  # the same name one folder down
        name = text.rsplit("/", 1)[-1]
        close = [c for c in below if c.rsplit("/", 1)[-1] == name][:1]
    return f"; did you mean {close[0]!r}?" if close else ""


def log_paths(config: MatchConfig, players: int) -> list[Path | None]:
    """Where each seat's stderr log goes: ``NAME.seatN.log`` beside the record."""
    if config.log_dir is not None:
        stem = record_stem(config.record) if config.record else "match"
        return [config.log_dir / f"{stem}.seat{s}.log" for s in range(players)]
    if config.record is not None:
        stem = record_stem(config.record)
        return [config.record.parent / f"{stem}.seat{s}.log" for s in range(players)]
    return [None] * players


def record_stem(record: Path) -> str:
    """A record's name without ``.jsonl`` (or ``.json``): ``game.v1`` for
    ``game.v1.jsonl``, so that records ``game.v1`` and ``game.v2`` keep apart logs."""
    name = record.name
    for suffix in (".jsonl", ".json"):
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name or "record"


def hidden_dirs(config: MatchConfig) -> list[Path]:
    """The directories of the referee's output, which sandboxed bots must not see."""
    dirs = list(config.hide)
    if config.record is not None:
        dirs.append(config.record.parent)
    if config.log_dir is not None:
        dirs.append(config.log_dir)
    return dirs


@frozen
class Deal:
    """A game's setup as ``match`` and ``play`` deal it: the operator's ``seed``,
    the ``setup_seed`` the setup is drawn from (:func:`deal`), and the ``setup``."""

    seed: int
    setup_seed: int
    setup: Any


def deal(game: AnyGame, players: int, seed: int, variant: str | None = None) -> Deal:
    """The setup of a game of ``seed``: drawn from the seed under the referee's
    key (:func:`~tajmahal.arena.terms.setup_seed`; the key is yours, made once in
    your data folder by :mod:`.seal`, so ``--seed N`` deals the same cards on
    this machine, other cards on another, and none a bot can work out; a fresh
    secret where the key can be neither read nor made), or from ``seed`` itself
    when :data:`~tajmahal.arena.terms.REPRODUCIBLE_SEEDS` asks for it.  Raises
    ValueError for a bad number of players or variant."""
    if reproducible():
        drawn = seed
    else:
        drawn = setup_seed(seal.load_key(create=True) or secrets.token_bytes(32), seed)
    return Deal(seed, drawn, game.random_setup(players, drawn, variant))


def connect(
    game: AnyGame, specs: Sequence[BotSpec], config: MatchConfig, seed: int
) -> list[Connection]:
    """A connection per spec (nothing is started yet); the built-in players'
    seeds follow from ``seed`` (the seed the setup is drawn from)."""
    logs = log_paths(config, len(specs))
    for path in logs:
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
    builtins = game.builtin_players()
    if config.sandbox and any(spec.builtin is None for spec in specs):
        seal.load_key(create=True)  # made before the sandboxes, which hide it, are set up
    out: list[Connection] = []
    for seat, spec in enumerate(specs):
        if spec.player is not None:
            out.append(InProcessConnection(spec.player, spec.text, logs[seat]))
        elif spec.builtin is not None:
            player = builtins[spec.builtin](seat_seed(seed, seat))
            out.append(InProcessConnection(player, spec.text, logs[seat]))
        else:
            group = bot_group(config.memory)
            try:
                launch = sandbox.command(
                    spec.argv,
                    sandbox=config.sandbox,
                    group=group,
                    hide=hidden_dirs(config),
                    home=spec.home,
                    hide_files=(seal.key_path(),),  # it seals records and draws setups
                )
            except BaseException:
                if group is not None:
                    group.remove()
                raise
            argv = launch.argv
            out.append(
                ProcessConnection(
                    argv,
                    pass_fds=launch.fds,
                    group=group,
                    label=spec.text,
                    log_path=logs[seat],
                    max_line=config.max_line,
                    max_log=config.max_log,
                    watch=config.watch,
                    signal_exit=config.sandbox,
                    program=spec.argv[0] if argv[0] != spec.argv[0] else None,
                    cwd=None if spec.home is None else Path(spec.home),
                )
            )
    return out


def bot_group(memory: int | None) -> cgroups.Group | None:
    """A cgroup for a bot program: at most ``memory`` MB for its whole tree (None:
    no bound) and one CPU, where the system allows cgroups (none otherwise).
    Raises ValueError for a ``memory`` bound that cannot be had (rather than
    leave the bot unbounded)."""
    group = cgroups.create(memory)
    if group is None and memory is not None:
        raise ValueError(f"--memory needs a cgroup for each bot: {cgroups.unavailable()}")
    return group


#: A bot as :func:`run_match` takes it: a text as the command line takes it (a
#: built-in's name, a command line, ``NAME=BOT``), a :class:`BotSpec`, or an
#: in-process :class:`~tajmahal.arena.player.Player` of the caller's.
Bot = BotSpec | str | Player


def run_match(
    game: AnyGame,
    setup: Any,
    bots: Sequence[Bot],
    config: MatchConfig = MatchConfig(),
    seed: int = 0,
    setup_seed: int | None = None,
) -> MatchResult:
    """Play one game of ``setup`` (``game.random_setup(players, seed)``) between
    ``bots``, one per seat in seat order, under ``config`` (time control, record,
    sandbox ...), and return its result.  A program is started as a subprocess
    and stopped after the game; a built-in or a player of the caller's runs in
    this process.  Seats are named as the command line names them (``NAME=BOT``,
    else the bot's own name, told apart: ``random#1``) unless ``config`` names
    them.  ``seed`` is the deal's, written in the record; ``setup_seed``: the
    seed ``setup`` was drawn from where it is not ``seed`` (see :func:`deal`;
    in the record's header too): when it deals ``setup``, a replay checks that;
    the built-in bots draw their own from it.

    >>> from tajmahal.arena.registry import GAMES
    >>> game = GAMES.get("tajmahal")
    >>> result = run_match(game, game.random_setup(3, 7), ["greedy", "me=random", "first"], seed=7)
    >>> [(s.name, s.rank) for s in result.seats]
    [('greedy', 1), ('me', 3), ('first', 2)]
    """
    specs = [BotSpec.of(bot, list(game.builtin_players())) for bot in bots]
    if not config.names and any(s.name is not None for s in specs):
        config = evolve(config, names=tuple(s.name for s in specs))
    drawn = seed if setup_seed is None else setup_seed
    connections = connect(game, specs, config, drawn)
    result = play_match(game, setup, connections, config, seed=seed, setup_seed=setup_seed)
    logs = tuple(str(p) for p in log_paths(config, len(specs)) if p is not None)
    return evolve(result, logs=logs)


def preflight(
    game: AnyGame, specs: Sequence[BotSpec], config: MatchConfig = MatchConfig()
) -> list[Fault]:
    """Start every bot of ``specs`` as the seats of a throwaway game (a setup from a
    fresh seed, not one that will be played; several games for more bots than
    seats, a built-in bot filling a game short of players), exchange the hello, and
    stop them: the faults of the bots that did not start or answer, ``seat`` being
    the index in ``specs`` (none: all is well).  Only the handshake limits of
    ``config`` apply; nothing is recorded."""
    config = evolve(config, record=None, log_dir=None, trace=None, on_step=None, on_fault=None)
    filler = BotSpec.parse(min(game.builtin_players()), list(game.builtin_players()))
    faults: list[Fault] = []
    for start in range(0, len(specs), game.max_players):  # as many games as it takes
        batch = list(specs[start : start + game.max_players])
        batch += [filler] * (game.min_players - len(batch))
        seed = secrets.randbits(63)
        setup = game.random_setup(len(batch), seed)
        match = Match(game, setup, connect(game, batch, config, seed), config, seed)
        with containment.guarded():
            try:
                match.handshake()
            finally:
                with uninterruptible():
                    for seat in match.seats:
                        with contextlib.suppress(Exception):
                            seat.conn.kill()
        faults += [evolve(s.fault, seat=start + s.seat) for s in match.seats if s.fault]
    return faults


def play_match(
    game: AnyGame,
    setup: Any,
    connections: Sequence[Connection],
    config: MatchConfig = MatchConfig(),
    seed: int = 0,
    setup_seed: int | None = None,
    *,
    keep: Path | None = None,
    resume: Replay | None = None,
) -> MatchResult:
    """Play one game over ``connections`` (one per seat); see :func:`run_match`.
    If it is interrupted, its decisions so far are kept at ``keep``; ``resume``:
    the record of an interrupted game of ``setup`` to go on with (see
    :mod:`~tajmahal.arena.resume`)."""
    if resume is not None:
        match = ResumedMatch(game, setup, connections, config, seed, setup_seed, keep)
        return match.resuming(resume).run()
    return Match(game, setup, connections, config, seed, setup_seed, keep).run()
