"""Worker processes that stop with their parent and on Ctrl-C, fed through a bounded window of batches."""

from __future__ import annotations

import multiprocessing
import os
import select
import signal
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from multiprocessing.connection import Connection, wait
from typing import Any

# Batches in flight per worker: enough to keep each busy while the parent unpickles and while another
# worker is still on the batch the results must wait for (files differ a hundredfold in size), and a
# bound on what sits in the parent's memory when its consumer stops reading.
BATCHES_IN_FLIGHT = 4
# Of those, how many are sent to one worker ahead of its results: the one it works on and the next, so it
# never waits for the parent. The rest go to whichever worker is free first: handed out four at a time, a
# batch queued behind three.js's largest file waited there while the other worker, done, sat idle.
QUEUED_PER_WORKER = 2
# ... unless the batches are large (file texts rather than names): a batch bigger than the pipe holds blocks
# the parent's send until that worker has finished the batch before it, and the other worker, whose
# results the parent is then not reading, waits too. Such batches go only to a worker with none queued.
QUEUED_LARGE = 1
# With weights, batches are cut so each worker gets about this many shares of the total.
WEIGHTED_BATCHES_PER_WORKER = 24
# How often a worker without pidfd support checks that its parent still lives.
_POLL_SECONDS = 0.5
# How long a worker may take to exit before it is killed outright.
_GRACE_SECONDS = 2.0


class WorkerError(BrokenProcessPool):
    """A worker process died (killed, out of memory, a bug) while working on the named jobs.

    A `BrokenProcessPool`, as concurrent.futures would raise, so code catching that still works.
    """


def exit_when_parent_dies(parent_pid: int, ppid: int | None) -> None:
    """Exit this worker as soon as `parent_pid` ends, even by `kill -9`.

    The parent may die without a word (a notebook kernel restart is `kill -9`), so the worker
    watches it instead of waiting for a message. On Linux a pidfd becomes readable the moment the
    parent exits (zombie or not); everywhere, a changed `getppid()` means the parent is gone (the
    worker was adopted). PR_SET_PDEATHSIG is not used: it fires when the *thread* that started the
    worker ends, which in a notebook or a thread pool is not the parent's death.
    """
    pidfd = None
    if hasattr(os, "pidfd_open"):
        try:
            pidfd = os.pidfd_open(parent_pid)
        except ProcessLookupError:
            os._exit(1)
        except OSError:  # kernel without pidfd (before 5.3) or a sandbox: fall back to polling
            pidfd = None
    while True:
        if pidfd is not None:
            readable, _, _ = select.select([pidfd], [], [], _POLL_SECONDS)
            if readable:
                os._exit(1)
        else:
            time.sleep(_POLL_SECONDS)
        if ppid is not None and os.getppid() != ppid:
            os._exit(1)


def enter_worker(parent_pid: int, ppid: int | None) -> None:
    """The start of a worker process's life (the engine's pool, a peer chunker's process): Ctrl-C ignored, and a
    watcher that ends the process when its parent is gone.

    Ctrl-C in a terminal reaches the whole process group; only the parent decides what it means (it then ends
    the workers), so a worker never dies half-way through a reply. SIGINT was blocked from birth by the parent
    (`sigint_held`), so no Ctrl-C came before it is ignored here.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    threading.Thread(target=exit_when_parent_dies, args=(parent_pid, ppid), daemon=True).start()


def _serve(conn: Connection, func: Callable[[Any], Any], parent_pid: int, ppid: int | None) -> None:
    """A worker's life: run `func` over each batch received, send the results back, until told to stop."""
    enter_worker(parent_pid, ppid)
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message is None:
            return
        index, batch = message
        conn.send((index, [func(job) for job in batch]))


class _Pool:
    """Worker processes, each with its own duplex pipe; ended for sure by `close()`."""

    def __init__(self) -> None:
        self.processes: list[multiprocessing.process.BaseProcess] = []
        self.conns: list[Connection] = []

    def start(self, func: Callable[[Any], Any], workers: int) -> None:
        """Start the workers; the caller closes the pool whatever happens, so none is left behind."""
        context = multiprocessing.get_context()
        # Ctrl-C is held back (not lost) while the workers start: one that came between a fork and the
        # worker's SIG_IGN would kill it. The parent gets it as soon as they all run.
        with sigint_held():
            for _ in range(workers):
                mine, theirs = context.Pipe()
                process = context.Process(
                    target=_serve, args=(theirs, func, os.getpid(), expected_ppid(context)), daemon=True
                )
                process.start()
                self.processes.append(process)
                self.conns.append(mine)
                theirs.close()
                del theirs  # freed here, inside the block, not when this function returns (see sigint_held)

    def close(self, *, graceful: bool) -> None:
        """Stop every worker: ask politely after a full run, terminate at once after an error or Ctrl-C."""
        if graceful:
            for conn in self.conns:
                try:
                    conn.send(None)
                except OSError:  # already gone
                    continue
        else:
            # Signals first, for all of them, before anything that blocks: a second Ctrl-C during the
            # joins below must not leave a worker that was never told to stop.
            for process in self.processes:
                if process.exitcode is None:
                    process.terminate()
        deadline = time.monotonic() + _GRACE_SECONDS
        for process in self.processes:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.exitcode is None:
                process.kill()
                process.join(_GRACE_SECONDS)
        # Handles released here, not by finalisers when the objects are freed (see `sigint_held`).
        for process in self.processes:
            if process.exitcode is not None:
                process.close()
        for conn in self.conns:
            conn.close()
        self.processes.clear()
        self.conns.clear()


@contextmanager
def sigint_held() -> Iterator[None]:
    """Ctrl-C held back inside the block, and raised as it ends: delayed, never lost.

    Starting workers needs it (above), and so does ending them: that frees connections and process
    handles, whose finalisers run Python code, and a KeyboardInterrupt raised inside a finaliser is
    only printed ("Exception ignored in ...") while the program runs on, as if Ctrl-C had not been pressed.
    """
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no signal masks (nor this kind of Ctrl-C)
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def expected_ppid(context: multiprocessing.context.BaseContext) -> int | None:
    """The parent id a worker started by `context` sees while this process lives (None: not ours to know)."""
    # A forkserver's workers are its children, not ours: only the pidfd (or nothing) watches us then.
    return None if context.get_start_method() == "forkserver" else os.getpid()


def ordered_map(
    func: Callable[[Any], Any],
    jobs: Sequence[Any],
    workers: int,
    batch: int,
    describe: Callable[[Any], str] = repr,
    weights: Sequence[float] | None = None,
    large: bool = False,
) -> Generator[Any, None, None]:
    """`map(func, jobs)` in `workers` processes, results in job order; `describe` names a job in errors.

    Batches hold at most `batch` jobs; with `weights` (a job's expected cost, e.g. its file's size), also
    about an even share of the total weight each, so one batch of large files does not keep a worker
    busy while the other, held by the window below, waits for it.

    At most BATCHES_IN_FLIGHT batches per worker are sent ahead of what the consumer has taken (and at
    most QUEUED_PER_WORKER to one worker ahead of its results; QUEUED_LARGE when the jobs are `large`,
    e.g. carry file texts), so an iterator that is held but not read stops the workers instead of
    filling this process's memory. Closing the iterator, an exception or Ctrl-C ends the workers
    before it returns.
    """
    batches = _batches(jobs, batch, weights, workers)
    window = workers * BATCHES_IN_FLIGHT
    queued = QUEUED_LARGE if large else QUEUED_PER_WORKER
    pool = _Pool()
    finished = False
    busy: dict[Connection, list[int]] = {}  # each worker's connection: the batches it holds
    conn = None
    try:
        pool.start(func, workers)
        sent = 0
        ready: dict[int, list[Any]] = {}
        busy.update((conn, []) for conn in pool.conns)
        for taken in range(len(batches)):
            # Topped up after every result, not only when the consumer takes one: a worker that is done
            # gets the next batch while the results still wait for the other's.
            stop = min(len(batches), taken + window)
            sent = _send(busy, sent, stop, queued, pool, batches, describe)
            while taken not in ready:
                for conn in wait([c for c in busy if busy[c]]):
                    assert isinstance(conn, Connection)  # `wait` gives back what it was given: the pipes' ends
                    _receive(conn, busy, ready, pool, batches, describe)
                sent = _send(busy, sent, stop, queued, pool, batches, describe)
            yield from ready.pop(taken)
        finished = True
    finally:
        with sigint_held():
            pool.close(graceful=finished)
            # The last references to the connections go too, so they are freed inside the block.
            busy.clear()
            conn = None


def _batches(jobs: Sequence[Any], batch: int, weights: Sequence[float] | None, workers: int) -> list[Sequence[Any]]:
    if weights is None:
        return [jobs[i : i + batch] for i in range(0, len(jobs), batch)]
    share = sum(weights) / (workers * WEIGHTED_BATCHES_PER_WORKER)
    out, start, held = [], 0, 0.0
    for index, weight in enumerate(weights):
        if index > start and (index - start >= batch or held + weight > share):
            out.append(jobs[start:index])
            start, held = index, 0.0
        held += weight
    if start < len(jobs):
        out.append(jobs[start:])
    return out


_Busy = dict[Connection, list[int]]  # each worker's connection: the batches it holds
_Batches = list[Sequence[Any]]


def _send(
    busy: _Busy, sent: int, stop: int, queued: int, pool: _Pool, batches: _Batches, describe: Callable[[Any], str]
) -> int:
    """Send the batches from `sent` up to `stop`, each to the least loaded worker, while that one holds
    fewer than `queued`; give the index of the next batch to send."""
    while sent < stop:
        conn = min(busy, key=lambda c: len(busy[c]))
        if len(busy[conn]) >= queued:
            break
        busy[conn].append(sent)
        try:
            conn.send((sent, batches[sent]))
        except OSError:  # BrokenPipeError: the worker died before it read its next batch
            raise _died(conn, busy, pool, batches, describe) from None
        sent += 1
    return sent


def _receive(
    conn: Connection, busy: _Busy, ready: dict[int, list[Any]], pool: _Pool, batches: _Batches,
    describe: Callable[[Any], str],
) -> None:
    try:
        index, results = conn.recv()
    except (EOFError, OSError):
        raise _died(conn, busy, pool, batches, describe) from None
    busy[conn].remove(index)
    ready[index] = results


def _died(conn: Connection, busy: _Busy, pool: _Pool, batches: _Batches, describe: Callable[[Any], str]) -> WorkerError:
    """The error for a worker whose connection broke: its exit code and the files it held."""
    process = pool.processes[pool.conns.index(conn)]
    process.join(_GRACE_SECONDS)
    jobs = [describe(job) for i in busy[conn] for job in batches[i]]
    shown = ", ".join(jobs[:5]) + (f" and {len(jobs) - 5} more" if len(jobs) > 5 else "")
    msg = (
        f"a worker process died (exit code {process.exitcode}: killed, out of memory or crashed) while "
        f"working on one of: {shown}; its traceback, if any, is above. Run again with workers=1 to see "
        "the error here, or leave that file out"
    )
    return WorkerError(msg)
