"""Small helpers: repeat a measurement and keep the median; a result row."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Result:
    """One benchmark figure, with its target when it has one."""

    name: str
    value: float
    unit: str
    target: float | None = None
    higher_is_better: bool = True
    note: str = ""

    @property
    def reached(self) -> bool | None:
        if self.target is None:
            return None
        return self.value >= self.target if self.higher_is_better else self.value <= self.target


def timed(run: Callable[[], object], repeats: int, clock: Callable[[], float]) -> list[float]:
    """The times of ``repeats`` calls of ``run`` on ``clock``."""
    times = []
    for _ in range(repeats):
        start = clock()
        run()
        times.append(clock() - start)
    return times


def median_seconds(run: Callable[[], object], repeats: int, clock: Callable[[], float]) -> float:
    """The median time of ``repeats`` calls of ``run`` on ``clock``."""
    return statistics.median(timed(run, repeats, clock))


def spread(values: list[float], fmt: str) -> str:
    """``min-max (n rounds)`` of ``values``, for a result's note."""
    return f"{format(min(values), fmt)}-{format(max(values), fmt)} ({len(values)} rounds)"


#: CPU time of this process: immune to time the scheduler gives other processes.
cpu_clock = time.process_time
#: Wall time: for anything that waits on other processes.
wall_clock = time.perf_counter
