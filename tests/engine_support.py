"""Runs of a game on both engines (compiled and pure), for the engine-path tests
of every game."""

from __future__ import annotations

import hashlib
import importlib
import os
import random
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import tajmahal

ROOT = Path(__file__).resolve().parent.parent


def random_game_digest(
    state: Any,
    rng: random.Random,
    legal_actions: Callable[[Any], list[Any]],
    step: Callable[[Any, Any], tuple[Any, Sequence[Any]]],
    detailed: bool,
    position: Callable[[Any], str] = repr,
    choose: Callable[[random.Random, list[Any]], Any] = random.Random.choice,
) -> str:
    """The SHA-256 of a game played from ``state`` by ``choose``'s choices (uniformly
    random unless given): each legal list's length and choice, the final
    ``position``, and with ``detailed`` every position and event on the way."""
    digest = hashlib.sha256()
    while state.to_act is not None:
        legal = legal_actions(state)
        action = choose(rng, legal)
        state, events = step(state, action)
        digest.update(f"{len(legal)} {legal.index(action)};".encode())
        if detailed:
            digest.update(position(state).encode() + repr(events).encode())
    digest.update(position(state).encode())
    return digest.hexdigest()


def _compiled_installed() -> bool:
    probe = "import tajmahal; print(tajmahal.COMPILED)"
    env = _other_engine_env()
    env.pop("TAJMAHAL_PURE", None)
    out = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True
    )
    return out.stdout.strip() == "True"


def on_both_engines(module: str, function: str, *args: int) -> tuple[list[str], list[str]]:
    """The lines ``function(*args)`` of the test module ``module`` returns, computed
    here and, at the same time, in a subprocess on the other engine."""
    code = (
        f"import sys; sys.path.insert(0, sys.argv[1]); import {module} as t\n"
        "import tajmahal; print(tajmahal.COMPILED)\n"
        f"print('\\n'.join(t.{function}{args!r}))"
    )
    other = subprocess.Popen(
        [sys.executable, "-c", code, str(Path(__file__).parent)],
        env=_other_engine_env(),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    mine: list[str] = getattr(importlib.import_module(module), function)(*args)
    theirs, _ = other.communicate(timeout=600)
    assert other.returncode == 0
    their_compiled, *their_lines = theirs.splitlines()
    assert their_compiled == str(not tajmahal.COMPILED)  # one of each
    return mine, their_lines


def _other_engine_env() -> dict[str, str]:
    env = dict(os.environ)
    if tajmahal.COMPILED:
        env["TAJMAHAL_PURE"] = "1"
    else:
        env.pop("TAJMAHAL_PURE", None)
    return env


