"""Where a chunker runs for one run over many files: a peer in a process of its own, killed at its time limit.

A peer's code may not come back to Python for minutes (semantic-text-splitter's Rust, a grammar's C), and a timer
interrupts neither that nor anything off the main thread. So a peer with an `isolated` recipe runs in a worker
process, started at the first file of a run and fed one file at a time through a pipe. At the deadline the process
is killed (SIGKILL: nothing of it can hold on), the file falls back, and the next file starts a fresh process. The
input bounds (`InputLimits`) are checked there too, so even the parse that measures a file's depth is inside the
limit. The process is started the platform's default way: forked on Linux up to Python 3.13 (a few milliseconds,
the adapter inherited as it is); elsewhere started afresh and the adapter built again from its recipe, which imports
the peer once per run and again after each kill. Getting ready is charged to the chunker's budget, not to the file's
time limit.

A process that may not have children (a daemonic one, such as a Dask worker) and every other chunker (clanka's
own, a user's callable: not picklable, and the user's own code) run in the caller's process under the in-process
guards of `_guard.py`.
"""

from __future__ import annotations

import contextlib
import functools
import math
import multiprocessing
import os
import signal
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from typing import Any, Protocol

from ..engine.internals import enter_worker, expected_ppid, sigint_held
from ..engine.warn import relay_warning
from ._guard import ChunkerAnswerError, Guarded, InputLimits, guarded_call, late

_GRACE_SECONDS = 2.0  # how long a process told to stop may take before it is killed
_NOT_STARTED = "its process did not start within what was left of its time budget"


class Runner(Protocol):
    """One chunker over the files of one run: each file guarded, then `close()`."""

    def __call__(self, path: str, text: str, seconds: float, left: float) -> Guarded:
        """The chunker on one file within `seconds`, and whatever it must do first within `left` (its budget)."""
        ...

    def close(self) -> None:
        """End what the run started."""
        ...


def runner(chunker: Callable[[str, str], Any]) -> Runner:
    """Where `chunker` runs this time: in a process of its own when it is a peer and this process may start one,
    else in this process."""
    limits = getattr(chunker, "limits", None)
    recipe = getattr(chunker, "isolated", None)
    if recipe is None or multiprocessing.current_process().daemon:
        return InProcess(chunker, limits)
    if multiprocessing.get_context().get_start_method() == "fork":  # the child has it already: nothing to build
        return PeerProcess(functools.partial(_same, chunker), limits)
    return PeerProcess(recipe, limits)


def _same(chunker: Callable[[str, str], Any]) -> Callable[[str, str], Any]:
    return chunker


@dataclass
class InProcess:
    """A chunker called in this process, under the in-process guards (a timer in the main thread)."""

    chunker: Callable[[str, str], Any]
    limits: InputLimits | None

    def __call__(self, path: str, text: str, seconds: float, left: float) -> Guarded:
        """The chunker on one file, under the in-process guards (`left`, its budget, is in `seconds` already)."""
        return guarded_call(functools.partial(self.chunker, path, text), seconds, self.limits, path, text)

    def close(self) -> None:
        """Nothing to end."""


@dataclass(frozen=True)
class _Answer:
    """What the worker sends back for one file: its guarded result, the warnings it raised, or the text of a
    `ChunkerAnswerError` (the adapter's defect, raised again here)."""

    guarded: Guarded
    warned: tuple[tuple[type[Warning], str], ...] = ()
    wrong: str | None = None


class PeerProcess:
    """One peer's worker process over one run: started at the first file and after each kill, ended by `close`.

    Args:
        recipe: Builds the peer's adapter in the worker (its `isolated`).
        limits: The bounds of the input it is given.
    """

    def __init__(self, recipe: Callable[[], Callable[[str, str], Any]], limits: InputLimits | None) -> None:
        self.recipe = recipe
        self.limits = limits
        self.process: multiprocessing.process.BaseProcess | None = None
        self.conn: Connection | None = None
        self.busy = False  # a file sent and not answered (an error or Ctrl-C came in between)

    def __call__(self, path: str, text: str, seconds: float, left: float) -> Guarded:
        """The peer on one file, its process killed if it has not answered within `seconds`. A process started for
        this file (the first, or the next after a kill) may take what is `left` of the budget to get ready: starting
        afresh, where processes are not forked, imports the peer, and that is no cost of the file's."""
        began = time.perf_counter()
        if self.process is None:
            why = self._start(began + left)
            if why is not None:
                return Guarded(None, why, time.perf_counter() - began, timed_out=why == _NOT_STARTED)
        started = time.perf_counter()
        deadline = min(started + seconds, began + left)  # the budget is never overrun, a start included
        assert self.conn is not None
        try:
            self.busy = True
            self.conn.send((path, text))
            if not self.conn.poll(_left(deadline)):
                self._kill()
                return Guarded(None, f"{late(seconds)} (its process was stopped)", time.perf_counter() - started,
                               timed_out=True)  # fmt: skip
            answer: _Answer = self.conn.recv()
            self.busy = False
        except (EOFError, OSError):  # it died on this file: a crash, the memory, a signal
            return Guarded(None, f"its process ended on this file ({self._kill()})", time.perf_counter() - started)
        for category, message in answer.warned:
            relay_warning(message, category)
        if answer.wrong is not None:
            raise ChunkerAnswerError(answer.wrong)
        return answer.guarded

    def _start(self, deadline: float) -> str | None:
        """Start the process and wait until it has built the peer, at most until `deadline`; None when it has,
        else why not."""
        context = multiprocessing.get_context()
        # Ctrl-C is held back while the process starts (it ignores Ctrl-C from then on: the caller decides).
        with sigint_held():
            mine, theirs = context.Pipe()
            self.process = context.Process(target=_serve, daemon=True, args=(
                theirs, self.recipe, self.limits, os.getpid(), expected_ppid(context)))  # fmt: skip
            self.process.start()
            self.conn = mine
            theirs.close()
            del theirs
        try:
            if self.conn.poll(_left(deadline)):
                self.conn.recv()  # ready: the adapter is built
                return None
        except (EOFError, OSError):
            return f"its process ended before it was ready ({self._kill()})"
        self._kill()
        return _NOT_STARTED

    def _kill(self) -> str:
        """Kill the process (if it lives) and wait until it is gone; how it ended, in words."""
        process, conn = self.process, self.conn
        self.process = self.conn = None
        self.busy = False
        if process is None:
            return "not started"
        with sigint_held():
            if process.exitcode is None:
                process.kill()
            process.join()
            code = process.exitcode
            process.close()
            if conn is not None:
                conn.close()
        return _ended(code)

    def close(self) -> None:
        """Tell the process to stop, and kill it if it does not within a grace period (at once if it is still on a
        file: the run ended by an error or Ctrl-C)."""
        process, conn = self.process, self.conn
        if process is None or conn is None:
            return
        if not self.busy:
            with contextlib.suppress(OSError):
                conn.send(None)
            process.join(_GRACE_SECONDS)
        self._kill()


def _left(deadline: float) -> float | None:
    """Seconds until `deadline` for `Connection.poll` (None: no deadline)."""
    return None if math.isinf(deadline) else max(deadline - time.perf_counter(), 0.0)


def _ended(code: int | None) -> str:
    if code is not None and code < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-code).name}"
    return f"exit code {code}"


def _serve(conn: Connection, recipe: Callable[[], Callable[[str, str], Any]], limits: InputLimits | None,
           parent_pid: int, ppid: int | None) -> None:  # fmt: skip
    """The worker's life: build the peer, say so, then answer one file at a time until told to stop."""
    enter_worker(parent_pid, ppid)  # Ctrl-C is the parent's to act on; gone with its parent
    chunker = recipe()
    conn.send(None)
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message is None:
            return
        path, text = message
        conn.send(_answered(chunker, limits, path, text))


def _answered(chunker: Callable[[str, str], Any], limits: InputLimits | None, path: str, text: str) -> _Answer:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            guarded = guarded_call(functools.partial(chunker, path, text), math.inf, limits, path, text)
        except ChunkerAnswerError as error:
            return _Answer(Guarded(None, None, 0.0), wrong=str(error))
    if guarded.result is not None:  # a list, whatever sequence the adapter gave, so that it pickles
        guarded = replace(guarded, result=list(guarded.result))
    # A warning of the peer's own library is relayed as a UserWarning: its class may not be importable here.
    warned = tuple((w.category if _relayable(w.category) else UserWarning, str(w.message)) for w in caught)
    return _Answer(guarded, warned)


def _relayable(category: type[Warning]) -> bool:
    return category.__module__ == "builtins" or category.__module__.startswith("clanka_nb.")
