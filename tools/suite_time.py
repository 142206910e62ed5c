"""Measure the suite's wall and CPU time, serially and in parallel, in one run.

Runs `python -m pytest -p no:xdist -m "not serial"` and then `python -m pytest -n 2 --dist worksteal -m "not serial"`
(the parallel stage of `.ci/run`) from the repository root, each as a child process, and prints for each its wall
time, the CPU time (user + system) of the processes it started and waited for (pytest, its xdist workers, the
subprocesses, notebooks' kernels and fresh venvs the tests start), how many cores that kept busy on average
(CPU / wall), and the parallel run against the serial one. CPU seconds are what to compare across machines and
busy hours: a shared machine stretches the wall time, not the work. The load average (`os.getloadavg`) before and
after each run is printed beside its figures for that reason.

    python tools/suite_time.py                       # both runs (the whole suite twice: long)
    python tools/suite_time.py --only parallel       # one of them
    python tools/suite_time.py -- tests/decision     # any further pytest arguments, e.g. a folder

A process that leaves its parent (a daemon, a double fork) is not waited for and its CPU time is not counted;
the suite's watchdogs (tests/_watchdog.py) are such processes, and they sleep.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = {
    "serial": ["-p", "no:xdist", "-m", "not serial"],
    "parallel": ["-n", "2", "--dist", "worksteal", "-m", "not serial"],
}


@dataclass(frozen=True)
class Timing:
    """One pytest run's cost.

    Attributes:
        name: `serial` or `parallel`.
        command: the command line run.
        returncode: pytest's exit status.
        wall: seconds from start to end.
        user: CPU seconds in user mode of the run and every child it waited for.
        system: CPU seconds in the kernel, likewise.
        load_before: the 1-minute load average when it started.
        load_after: the 1-minute load average when it ended.
    """

    name: str
    command: list[str]
    returncode: int
    wall: float
    user: float
    system: float
    load_before: float
    load_after: float

    @property
    def cpu(self) -> float:
        """User plus system seconds."""
        return self.user + self.system


def measure(name: str, extra: list[str]) -> Timing:
    """Run one pytest command from the repository root and time it.

    Args:
        name: a key of `RUNS`.
        extra: further pytest arguments (a folder, `-x`, ...).

    Returns:
        The run's `Timing`.
    """
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *RUNS[name], *extra]
    print(f"\n==== {name}: {' '.join(command[1:])}", flush=True)
    load_before = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    returncode = subprocess.run(command, cwd=ROOT, check=False).returncode
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return Timing(
        name=name,
        command=command,
        returncode=returncode,
        wall=wall,
        user=after.ru_utime - before.ru_utime,
        system=after.ru_stime - before.ru_stime,
        load_before=load_before,
        load_after=os.getloadavg()[0],
    )


def report(timings: list[Timing]) -> str:
    """The table of the runs, and the parallel run against the serial one when both ran.

    Args:
        timings: the runs, in the order they ran.

    Returns:
        Lines to print.
    """
    head = f"{'run':<9} {'exit':>4} {'wall s':>8} {'user s':>8} {'sys s':>7} {'CPU s':>8} {'CPU/wall':>8}"
    lines = [f"{head}  load before/after"]
    lines.extend(
        f"{t.name:<9} {t.returncode:>4} {t.wall:>8.0f} {t.user:>8.0f} {t.system:>7.0f} {t.cpu:>8.0f} "
        f"{t.cpu / t.wall:>8.2f}  {t.load_before:.2f} / {t.load_after:.2f}"
        for t in timings
    )
    by_name = {t.name: t for t in timings}
    if {"serial", "parallel"} <= by_name.keys():
        serial, parallel = by_name["serial"], by_name["parallel"]
        lines.append(
            f"parallel / serial: wall {parallel.wall / serial.wall:.2f}, CPU {parallel.cpu / serial.cpu:.2f} "
            f"(on {os.cpu_count()} cores)"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Measure the runs the command line asks for and print the table.

    Args:
        argv: the arguments (default: `sys.argv[1:]`); after `--`, pytest's own.

    Returns:
        0 when every run passed, else the first failing run's exit status.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(RUNS), help="measure one run instead of both")
    parser.add_argument("pytest_args", nargs="*", help="further pytest arguments (after --)")
    args = parser.parse_args(argv)
    names = [args.only] if args.only else ["serial", "parallel"]
    timings = [measure(name, args.pytest_args) for name in names]
    print(f"\n{report(timings)}")
    return next((t.returncode for t in timings if t.returncode), 0)


if __name__ == "__main__":
    sys.exit(main())
