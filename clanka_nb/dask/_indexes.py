"""clanka's semantic index of many repositories: each one built or re-synced by `SemanticIndex` on a worker."""

from __future__ import annotations

import contextlib
import functools
import os
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Unpack

from distributed import Client, Future, Semaphore, as_completed, get_worker

from ..defaults import INDEX_MAX_CHARACTERS
from ..engine.progress import ProgressBar, bar
from ..engine.settings import Settings, TextKeywords, setting_keywords
from ..index import Embedder, VectorCache, default_cache
from ..index.internals import (
    FAILED,
    REPO_ERRORS,
    DbPlace,
    IndexRun,
    RepositoryIndex,
    RepositorySync,
    databases,
    model_id_of,
    one_line,
)
from ._cluster import ClientLike, resolve_client
from ._limit import EmbedLimit, Lease, LimitedEmbedder, forget, portable, rate_name
from ._plan import StrPath, check_roots

# Small repositories go several to a task (issue 55): a task costs the client and the scheduler about 4 ms of CPU
# whatever it does, as much as a small repository's whole sync. Several tasks per worker thread keep the load even
# when sizes differ; a task whose worker dies again and again is run again one repository per task.
TASKS_PER_THREAD = 4
GROUP_MOST = 16


@dataclass(frozen=True)
class IndexTask:
    """Runs on a worker: one repository's index brought in step with its folder (a picklable callable)."""

    embed: Embedder
    model_id: str
    settings: Settings
    cache_path: str | None  # None: the worker's default cache (one file per machine, shared by its workers)
    semaphore: str
    limit: EmbedLimit
    batch_size: int
    busy_timeout: float
    confine: bool = True  # the database is the repository's own (not named by the user): no link out of it
    keep_lease: bool = False  # the cluster had no more threads than leases: a task keeps its lease (`Lease`)

    def __call__(self, root: str, db: str) -> RepositoryIndex:
        """One repository as a task of its own: its outcome."""
        lease = Lease(self.semaphore, self.limit.concurrency)
        try:
            return self._sync().run(root, db, self._cache, self._limited(lease), _worker_name())
        finally:
            lease.close()

    def group(self, roots: list[str], dbs: list[str]) -> list[RepositoryIndex]:
        """Several repositories in one task, one after another: each its own outcome, as `__call__` gives it.

        Args:
            roots: The repositories' folders.
            dbs: Their databases' paths, in the same order.

        Returns:
            Each repository's outcome in order; fewer (those done) when the client cancelled the task meanwhile.
        """
        sync, worker = self._sync(), _worker_name()
        lease = Lease(self.semaphore, self.limit.concurrency, keep=self.keep_lease)
        done: list[RepositoryIndex] = []
        try:
            for root, db in zip(roots, dbs, strict=True):
                if _cancelled():  # Ctrl-C on the client: the repository under way finished, the rest never start
                    break
                done.append(sync.run(root, db, self._cache, self._limited(lease), worker))
        finally:
            lease.close()
        return done

    def _sync(self) -> RepositorySync:
        return RepositorySync(self.model_id, self.settings, self.batch_size, self.busy_timeout, self.confine)

    def _cache(self) -> VectorCache:
        return default_cache() if self.cache_path is None else _cache(self.cache_path)

    def _limited(self, lease: Lease) -> Callable[[VectorCache], LimitedEmbedder]:
        """The embedder behind the cluster's limit (through `lease`), asking the shared cache again before each
        batch."""
        return functools.partial(LimitedEmbedder, self.embed, self.model_id, self.limit, lease)


@functools.cache
def _cache(path: str) -> VectorCache:
    """One cache object per file and worker process (one connection, opened once), as `default_cache()` is."""
    return VectorCache(path)


def _worker_name() -> str:
    try:
        return str(get_worker().address)
    except ValueError:  # run in this process (a test calling the task directly)
        return "local"


def _cancelled() -> bool:
    """Whether the client cancelled the task this runs in (Dask cannot stop a running task; it can look)."""
    try:
        worker = get_worker()
    except ValueError:  # run in this process (a test calling the task directly)
        return False
    state = worker.state.tasks.get(worker.get_current_task())
    return state is not None and state.state == "cancelled"


def _group_size(count: int, threads: int) -> int:
    """Repositories per task: about `TASKS_PER_THREAD` tasks for each worker thread, at most `GROUP_MOST` each."""
    return max(1, min(GROUP_MOST, count // (max(threads, 1) * TASKS_PER_THREAD)))


def _may_hold_leases(results: dict[int, RepositoryIndex], count: int) -> bool:
    """Whether an embedder call may have taken a rate lease: not when every repository finished without one
    (nothing embedded, nothing failed), so a run with nothing to embed does not wait out the rate's window."""
    return len(results) < count or any(repo.embedded or repo.status == FAILED for repo in results.values())


def _databases(roots: StrPath | Iterable[StrPath], db: DbPlace) -> tuple[list[str], list[str]]:
    """Each root's absolute path and its database's (`db`), checked: two roots whose databases are one real file
    (one root given twice, or through a link) are refused, as two syncs of one file would each delete the other's
    rows."""
    given_roots = [roots] if isinstance(roots, str | os.PathLike) else list(roots)
    absolute = check_roots(given_roots)
    return absolute, databases(given_roots, absolute, db)


@dataclass
class _Groups:
    """The run's tasks on the client: which repositories (by position) each future syncs, and every future made."""

    absolute: list[str]
    places: list[str]
    task: IndexTask
    members: dict[object, list[int]]  # by task key
    futures: list[Future[Any]]

    def submit(self, client: Client, numbers: list[int]) -> Future[Any]:
        """One task syncing the repositories at `numbers`, remembered."""
        future = client.submit(self.task.group, [self.absolute[n] for n in numbers],
                               [self.places[n] for n in numbers], pure=False)
        self.members[future.key] = numbers
        self.futures.append(future)
        return future


def _collect(client: Client, groups: _Groups, threads: int, progress: ProgressBar,
             results: dict[int, RepositoryIndex]) -> None:
    """Each repository's outcome into `results` (by position) as its task ends, a bar counting repositories; a group
    whose task failed after Dask's retries (a worker killed again and again) is run again one repository per task,
    and a lone repository's failed task is its `failed` row."""
    size = _group_size(len(groups.absolute), threads)
    pending = as_completed([groups.submit(client, list(range(start, min(start + size, len(groups.absolute)))))
                            for start in range(0, len(groups.absolute), size)])
    with bar(progress, len(groups.absolute), "indexing", unit="repo") as handle:
        for future in pending:
            numbers = groups.members[future.key]
            if future.status == "error" and len(numbers) > 1:
                for number in numbers:
                    pending.add(groups.submit(client, [number]))
                future.release()
                continue
            if future.status == "error":
                outcomes, error = [], one_line(future.exception())
            else:  # all of them, unless the task saw itself cancelled (then this run is being interrupted)
                outcomes, error = list(future.result()), "its task was cancelled before this repository's turn"
            for place, number in enumerate(numbers):
                results[number] = outcomes[place] if place < len(outcomes) else RepositoryIndex(
                    groups.absolute[number], groups.places[number], FAILED, error=error)
            future.release()
            if handle is not None:
                handle.update(len(numbers))
                last = numbers[-1]
                handle.set_postfix_str(f"{Path(groups.absolute[last]).name}: {results[last].status}", refresh=False)


@setting_keywords(chunk_max_characters=INDEX_MAX_CHARACTERS)
def sync_indexes(
    roots: StrPath | Iterable[StrPath],
    *,
    embed: Embedder,
    client: ClientLike = None,
    db: DbPlace = None,
    model_id: str | None = None,
    cache: StrPath | None = None,
    embed_concurrency: int = 4,
    embed_rate: float | None = None,
    batch_size: int = 300,
    busy_timeout: float = 30.0,
    progress: ProgressBar = None,
    settings: Settings | None = None, **given: Unpack[TextKeywords],
) -> IndexRun:
    """Build or re-sync clanka's semantic index of every root on the cluster, small repositories several per task.

    Each worker runs `SemanticIndex(root, embed=..., db=...).sync()`: the same chunks, rows and schema as that call
    in this process, written to `db` (default: each root's `.clanka/search.sqlite`, where clanka reads it, under the
    root's real path: a repository whose `.clanka`, database, journal or state file is a symbolic link fails; or a
    dict root -> path, or a function of the absolute root, used as named). Two roots whose databases are one real
    file are refused before any work. Vectors go through `cache` (a path every worker opens;
    default: each machine's clanka-nb vector cache, one SQLite file its workers share), keyed by model and input,
    so an input embedded by any worker is not embedded again; `model_id=` (else the embedder's own) keys it, and
    an embedder without a stable id (a lambda) caches in each worker's memory only. All workers' embedder calls
    share one limit: at most `embed_concurrency` calls (batches of `batch_size` inputs) in flight on the whole
    cluster, and at most `embed_rate` started per second (over any window of `floor(embed_rate)` calls).

    A repository whose listed files (sizes and modification times), database, model and settings are as at its last
    complete sync here is `unchanged`: no file is read. One that fails (a missing folder, a damaged, foreign or
    locked database, an embedding server that keeps failing) is `failed` with its error line; the others finish.
    Each sync is one transaction and a new database appears only complete, so an interrupt or a killed worker
    (Dask runs its repository again) leaves every database as it was or complete. Repositories go to the workers in
    groups (about four tasks per worker thread, at most 16 repositories a task), each still its own outcome; a
    repository a killed worker had finished before its group ran again says `unchanged` (its database is complete),
    and a group whose worker is killed again and again is run again one repository per task.

    Args:
        roots: One folder or several; every worker must see them at the same absolute paths.
        embed: The embedder (it must pickle), as `SemanticIndex`'s.
        client: A `distributed.Client`, a scheduler address, or None for the current client (else a new `LocalCluster`).
        db: Where each index goes: None for each root's `.clanka/search.sqlite`, a dict root -> path, or a function.
        model_id: The model's id in the vector cache; None: the embedder's own.
        cache: The vector cache's file every worker opens; None: each machine's clanka-nb vector cache.
        embed_concurrency: Embedder calls in flight at most, on the whole cluster.
        embed_rate: Embedder calls started per second at most; None: no limit.
        batch_size: Inputs per embedder call.
        busy_timeout: Seconds each step waits while another process writes the same database.
        progress: None shows a bar only for work over a second, False never, True always.

    Returns:
        Each repository's outcome (`RepositoryIndex`) and the run's wall time.

    Examples:
        >>> run = cnd.sync_indexes(["repo-a", "repo-b"], embed=cn.embedders.hashed_words())
        >>> [(r.root, r.status, r.embedded) for r in run.repositories]
    """
    settings = Settings(**given).over(settings)
    if not callable(embed):
        msg = f"embed must be a callable list[str] -> (n, d) array, got {type(embed).__name__}; see cn.embedders"
        raise TypeError(msg)
    limit = EmbedLimit(embed_concurrency, embed_rate)
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        msg = f"batch_size must be a positive whole number of inputs per embedder call, got {batch_size!r}"
        raise ValueError(msg)
    absolute, places = _databases(roots, db)
    running = resolve_client(client)
    name = f"clanka-nb-embed-{uuid.uuid4().hex}"
    # Registered on the scheduler before any task, so every worker finds the same limits.
    leases = [Semaphore(max_leases=limit.concurrency, name=name)]
    if limit.rate is not None:
        leases.append(Semaphore(max_leases=limit.starts, name=rate_name(name)))
    threads = sum(running.nthreads().values())
    task = IndexTask(portable(embed), model_id_of(embed, model_id), settings,
                     None if cache is None else os.path.abspath(os.fspath(cache)), name, limit, batch_size,
                     busy_timeout, confine=db is None, keep_lease=threads <= limit.concurrency)
    started = time.perf_counter()
    results: dict[int, RepositoryIndex] = {}
    groups = _Groups(absolute, places, task, {}, [])
    try:
        _collect(running, groups, threads, progress, results)
    except BaseException:
        # A running sync finishes its transaction on its worker; the rest of its group and the other tasks never start.
        running.cancel(groups.futures)
        raise
    finally:
        if _may_hold_leases(results, len(absolute)):
            time.sleep(limit.window)  # the last rate leases come back (their timers run on the workers)
        for lease in leases:
            lease.close()
        with contextlib.suppress(*REPO_ERRORS):  # best effort: an idle worker's handle is only a little memory
            running.run(forget, name)
    # Each note of a database written at other settings than clanka's said once (`IndexRun.said`).
    return IndexRun(tuple(results[number] for number in range(len(absolute))), time.perf_counter() - started).said()

