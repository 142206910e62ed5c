"""clanka's semantic index of many repositories: each one built or re-synced by `SemanticIndex` on a worker."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import stat
import time
import uuid
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any, Unpack

import pandas as pd
from distributed import Future, Semaphore, as_completed, get_worker

from ..defaults import INDEX_MAX_CHARACTERS
from ..engine import list_files
from ..engine.progress import ProgressBar, bar
from ..engine.settings import Settings, TextKeywords, setting_keywords
from ..engine.warn import warn_at_user
from ..index import ClankaRebuildWarning, Embedder, SemanticIndex, SyncReport, VectorCache, default_cache
from ..index.internals import SIDE_FILES, confined, model_id_of
from ._cluster import ClientLike, resolve_client
from ._limit import EmbedLimit, LimitedEmbedder, forget, portable, rate_name
from ._plan import StrPath, check_roots

CLANKA_DB = Path(".clanka") / "search.sqlite"  # where clanka reads a repository's index
STATE_SUFFIX = ".clanka-nb-sync"  # beside the database: what the last complete sync saw (no file of clanka's)
_STATE_BYTES = 4096  # a state file longer than this is not ours: the repository is synced again
_TEMP_AGE = 3600.0  # seconds: a half-built new database older than this was left by a killed worker
# What one repository's sync can raise that is about that repository (its files, its database, the embedder's
# answers for its inputs): it becomes the repository's error line and the others go on. A killed worker is not
# here: Dask runs the repository again elsewhere (the sync is one transaction, so it starts from the file as it was).
REPO_ERRORS = (OSError, ValueError, RuntimeError, TypeError, KeyError, IndexError, RecursionError, UnicodeError)

SYNCED, UNCHANGED, FAILED = "synced", "unchanged", "failed"


@dataclass(frozen=True)
class RepositoryIndex:
    """What happened to one repository's index.

    Attributes:
        root: The repository's folder.
        db: Its index's database file.
        status: "synced", "unchanged" (nothing listed changed since the last sync: no file read) or "failed".
        chunks: Chunks in the index.
        inputs: Distinct embedding inputs.
        embedded: Inputs the embedder computed for this repository (none came from any cache).
        cached: New rows whose vector came from the vector cache.
        reused: Inputs already in this index.
        deleted: Rows deleted.
        files: Files listed.
        seconds: Time on the worker, waiting for embedding leases included.
        lease_wait: Of which waiting for the cluster's embedding limit.
        worker: The worker that synced it.
        error: One line: why the repository failed; None when it did not.
        clanka_note: Written at other settings or another language mode than clanka's: how many inputs clanka's next
            sync there will embed again (also a `ClankaRebuildWarning`); None otherwise.
    """

    root: str
    db: str
    status: str  # "synced", "unchanged" (nothing listed changed since the last sync: no file read), "failed"
    chunks: int = 0
    inputs: int = 0
    embedded: int = 0  # inputs the embedder computed for this repository (none came from any cache)
    cached: int = 0  # new rows whose vector came from the vector cache
    reused: int = 0  # inputs already in this index
    deleted: int = 0
    files: int = 0  # files listed
    seconds: float = 0.0  # on the worker, waiting for embedding leases included
    lease_wait: float = 0.0  # of which waiting for the cluster's embedding limit
    worker: str = ""
    error: str | None = None  # one line: why the repository failed
    clanka_note: str | None = None  # written at other settings than clanka's: what its next sync re-embeds there


@dataclass(frozen=True)
class IndexRun:
    """Every repository's `RepositoryIndex`, in the order given, and the run's wall time.

    Attributes:
        repositories: Each repository's outcome, in the order given.
        seconds: The run's wall time.
    """

    repositories: tuple[RepositoryIndex, ...]
    seconds: float

    @property
    def failed(self) -> tuple[RepositoryIndex, ...]:
        return tuple(repo for repo in self.repositories if repo.status == FAILED)

    @property
    def embedded(self) -> int:
        return sum(repo.embedded for repo in self.repositories)

    def frame(self) -> pd.DataFrame:
        """One row per repository."""
        columns = [f.name for f in fields(RepositoryIndex)]
        return pd.DataFrame([asdict(repo) for repo in self.repositories], columns=columns)

    def __repr__(self) -> str:
        counts = {status: sum(r.status == status for r in self.repositories) for status in (SYNCED, UNCHANGED, FAILED)}
        return (f"IndexRun({len(self.repositories)} repositories: {counts[SYNCED]} synced, {counts[UNCHANGED]} "
                f"unchanged, {counts[FAILED]} failed; embedded={self.embedded}, seconds={self.seconds:.2f})")


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

    def __call__(self, root: str, db: str) -> RepositoryIndex:
        started = time.perf_counter()
        worker = _worker_name()
        embedder: LimitedEmbedder | None = None
        files = 0
        shown = db
        try:
            if self.confine:  # before anything is read or written: the real place, never through a link
                db = confined(root, db, (*SIDE_FILES, STATE_SUFFIX))
            listed = list_files(root, max_file_size=self.settings.max_file_size)
            files = len(listed)
            seen = _files_digest(root, listed)  # before the sync: a file changed during it is read again next time
            state = _fingerprint(seen, db, self.model_id, self.settings)
            if state is not None and _read_state(db) == state:
                return RepositoryIndex(root, shown, UNCHANGED, files=files, worker=worker,
                                       seconds=time.perf_counter() - started)
            cache = default_cache() if self.cache_path is None else _cache(self.cache_path)
            embedder = LimitedEmbedder(self.embed, self.model_id, self.semaphore, self.limit, cache)
            report = self._sync(root, db, embedder, cache)
            _write_state(db, _fingerprint(seen, db, self.model_id, self.settings))
        except REPO_ERRORS as error:
            return RepositoryIndex(
                root, shown, FAILED, files=files, worker=worker, error=_one_line(error),
                embedded=0 if embedder is None else embedder.embedded,
                lease_wait=0.0 if embedder is None else embedder.waited, seconds=time.perf_counter() - started,
            )
        return RepositoryIndex(
            root, shown, SYNCED, chunks=report.chunks, inputs=report.inputs, embedded=embedder.embedded,
            cached=report.embedded + report.cached - embedder.embedded, reused=report.reused,
            deleted=report.deleted, files=files, seconds=time.perf_counter() - started,
            lease_wait=embedder.waited, worker=worker, clanka_note=report.clanka_note,
        )

    def _sync(self, root: str, db: str, embedder: LimitedEmbedder, cache: VectorCache) -> SyncReport:
        """One `SemanticIndex.sync` (one transaction). A new database is built beside its place and moved there
        when complete, so a killed worker or an interrupt leaves no half-made file where clanka looks."""
        target = Path(db)
        fresh = not target.exists()
        where = target
        if fresh:
            target.parent.mkdir(parents=True, exist_ok=True)
            _remove_stale(target)
            where = target.with_name(f".{target.name}.{uuid.uuid4().hex}.tmp")
        try:
            with SemanticIndex(root, embed=embedder, db=where, batch_size=self.batch_size, model_id=self.model_id,
                               cache=cache, workers=1, progress=False, busy_timeout=self.busy_timeout,
                               settings=self.settings) as index, warnings.catch_warnings():
                warnings.simplefilter("ignore", ClankaRebuildWarning)  # said once per repository by sync_indexes
                report = index.sync()
            if report.clanka_note is not None:  # named by the database's place, not the temporary file's
                report = replace(report, clanka_note=report.clanka_note.replace(str(where), db, 1))
            if fresh:
                os.replace(where, target)  # atomic on one filesystem: clanka sees no file, then a whole one
        finally:
            if fresh:
                where.unlink(missing_ok=True)
        return report


@functools.cache
def _cache(path: str) -> VectorCache:
    """One cache object per file and worker process (one connection, opened once), as `default_cache()` is."""
    return VectorCache(path)


def _worker_name() -> str:
    try:
        return str(get_worker().address)
    except ValueError:  # run in this process (a test calling the task directly)
        return "local"


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)
    return f"{type(error).__name__}: {text[:500]}"


def _fingerprint(files: str, db: str, model_id: str, settings: Settings) -> str | None:
    """What decides the index's rows without reading a file: every listed file's size and modification time,
    the database's own, the model and the chunk settings. None when the database does not exist yet."""
    try:
        stat = os.stat(db)
    except FileNotFoundError:
        return None
    facts = [files, model_id, repr(settings), stat.st_size, stat.st_mtime_ns, stat.st_ino]
    return hashlib.sha256(json.dumps(facts).encode()).hexdigest()


def _files_digest(root: str, listed: list[str]) -> str:
    """The listed files' names, sizes, modification and change times and inodes (stat only: no file is opened)."""
    digest = hashlib.sha256()
    base = Path(root)
    for name in listed:
        try:
            found = os.stat(base / name)
        except OSError:
            digest.update(f"{name}\0gone\n".encode("utf-8", "surrogatepass"))
            continue
        # ctime and inode too: an edit that puts size and mtime back (touch -r, a tool keeping times) still
        # changes the ctime, which no user call sets.
        facts = (found.st_size, found.st_mtime_ns, found.st_ctime_ns, found.st_ino)
        digest.update(f"{name}\0{facts}\n".encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _read_state(db: str) -> str | None:
    """The state file's text; None for no file, or one that is not a plain file (opened without following a link
    and without waiting: a FIFO in its place would block the repository's task for good)."""
    try:
        fd = os.open(db + STATE_SUFFIX, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        text = os.read(fd, _STATE_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return text.decode("ascii", "replace").strip() if len(text) <= _STATE_BYTES else None


def _write_state(db: str, state: str | None) -> None:
    """Written after the sync committed (atomically): a worker killed between the two only costs a re-read."""
    if state is None:
        return
    temporary = f"{db}{STATE_SUFFIX}.{uuid.uuid4().hex}.tmp"
    with open(temporary, "w", encoding="ascii") as handle:
        handle.write(state)
    os.replace(temporary, db + STATE_SUFFIX)


def _remove_stale(target: Path) -> None:
    """New databases half-built by a worker killed more than an hour ago (a running one is younger)."""
    now = time.time()
    for leftover in target.parent.glob(f".{target.name}.*.tmp"):
        try:
            if now - leftover.stat().st_mtime > _TEMP_AGE:
                leftover.unlink()
        except OSError:
            continue


def _may_hold_leases(results: dict[int, RepositoryIndex], count: int) -> bool:
    """Whether an embedder call may have taken a rate lease: not when every repository finished without one
    (nothing embedded, nothing failed), so a run with nothing to embed does not wait out the rate's window."""
    return len(results) < count or any(repo.embedded or repo.status == FAILED for repo in results.values())


DbPlace = None | Mapping[str, StrPath] | Callable[[str], StrPath]


def _places(roots: list[str], given: list[StrPath], db: DbPlace) -> list[str]:
    """Each root's database: clanka's `.clanka/search.sqlite` in it, or the user's (by root as given, or absolute)."""
    if db is None:
        return [str(Path(root) / CLANKA_DB) for root in roots]
    if isinstance(db, Mapping):
        out = []
        for root, name in zip(roots, given, strict=True):
            place = db.get(root, db.get(os.fspath(name)))
            if place is None:
                msg = f"db= has no database path for the root {root!r}; give every root one, or db=None"
                raise ValueError(msg)
            out.append(os.path.abspath(os.fspath(place)))
        return out
    if callable(db):
        return [os.path.abspath(os.fspath(db(root))) for root in roots]
    msg = f"db must be None (each root's .clanka/search.sqlite), a dict root -> path or a function, got {db!r}"
    raise TypeError(msg)


def _databases(roots: StrPath | Iterable[StrPath], db: DbPlace) -> tuple[list[str], list[str]]:
    """Each root's absolute path and its database's (`db`), checked: two roots whose databases are one real file
    (one root given twice, or through a link) are refused, as two syncs of one file would each delete the other's
    rows."""
    given_roots = [roots] if isinstance(roots, str | os.PathLike) else list(roots)
    absolute = check_roots(given_roots)
    places = _places(absolute, given_roots, db)
    real = [os.path.realpath(place) for place in places]  # one root given twice through a link is one database
    twice = next((number for number, place in enumerate(real) if place in real[:number]), None)
    if twice is not None:
        first = places[real.index(real[twice])]
        msg = (f"two roots would write the same index {places[twice]!r} (the real file {real[twice]!r}, also "
               f"{first!r}); give each root once and its own database")
        raise ValueError(msg)
    return absolute, places


def _collect(futures: list[Future[Any]], where: tuple[list[str], list[str]], progress: ProgressBar,
             results: dict[int, RepositoryIndex]) -> None:
    """Each repository's outcome into `results` (by position) as its task ends, a bar counting them; a task that
    failed after Dask's retries (a worker killed again and again) is that repository's `failed` row."""
    absolute, places = where
    position = {future.key: number for number, future in enumerate(futures)}
    with bar(progress, len(futures), "indexing", unit="repo") as handle:
        for future in as_completed(futures):
            number = position[future.key]
            if future.status == "error":
                results[number] = RepositoryIndex(absolute[number], places[number], FAILED,
                                                  error=_one_line(future.exception()))
            else:
                results[number] = future.result()
            future.release()
            if handle is not None:
                handle.update(1)
                handle.set_postfix_str(f"{Path(absolute[number]).name}: {results[number].status}", refresh=False)


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
    """Build or re-sync clanka's semantic index of every root on the cluster, one repository per task.

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
    (Dask runs its repository again) leaves every database as it was or complete.

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
    task = IndexTask(portable(embed), model_id_of(embed, model_id), settings,
                     None if cache is None else os.path.abspath(os.fspath(cache)), name, limit, batch_size,
                     busy_timeout, confine=db is None)
    started = time.perf_counter()
    results: dict[int, RepositoryIndex] = {}
    futures = running.map(task, absolute, places, pure=False)
    try:
        _collect(futures, (absolute, places), progress, results)
    except BaseException:
        running.cancel(futures)  # a running sync finishes its transaction on its worker; the rest never start
        raise
    finally:
        if _may_hold_leases(results, len(futures)):
            time.sleep(limit.window)  # the last rate leases come back (their timers run on the workers)
        for lease in leases:
            lease.close()
        with contextlib.suppress(*REPO_ERRORS):  # best effort: an idle worker's handle is only a little memory
            running.run(forget, name)
    out = IndexRun(tuple(results[number] for number in range(len(futures))), time.perf_counter() - started)
    for repository in out.repositories:  # never written silently where clanka reads it: one line each
        if repository.clanka_note is not None:
            warn_at_user(repository.clanka_note, ClankaRebuildWarning)
    return out

