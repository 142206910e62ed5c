"""clanka's index of several repositories: one `SemanticIndex.sync` per repository, where clanka reads it.

The sync of one repository (`RepositorySync`: its database under its real folder, a new database built beside its
place and moved there whole, the state file that makes the next sync of an unchanged folder read nothing) and its
outcome (`RepositoryIndex`, `IndexRun`) are the same whether it runs in this process (`sync_repositories`, what
`clanka-nb index` does with one root or `--local`) or on a Dask worker (`dask.sync_indexes`, whose task adds the
cluster's embedding limit around the embedder). Nothing here imports Dask.
"""

from __future__ import annotations

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
from typing import TYPE_CHECKING, Protocol

import numpy as np

from ..engine import list_file_names
from ..engine.internals import small_regular_file
from ..engine.progress import ProgressBar, bar
from ..engine.settings import Settings
from ..engine.warn import warn_at_user
from ._clanka_check import ClankaRebuildWarning
from ._index import SemanticIndex, SyncReport
from ._place import SIDE_FILES, confined
from ._vectors import Embedder, VectorCache, default_cache, model_id_of

if TYPE_CHECKING:
    import pandas as pd

StrPath = str | os.PathLike[str]
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
        worker: The worker that synced it ("local": this process).
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
        import pandas as pd

        columns = [f.name for f in fields(RepositoryIndex)]
        return pd.DataFrame([asdict(repo) for repo in self.repositories], columns=columns)

    def __repr__(self) -> str:
        counts = {status: sum(r.status == status for r in self.repositories) for status in (SYNCED, UNCHANGED, FAILED)}
        return (f"IndexRun({len(self.repositories)} repositories: {counts[SYNCED]} synced, {counts[UNCHANGED]} "
                f"unchanged, {counts[FAILED]} failed; embedded={self.embedded}, seconds={self.seconds:.2f})")

    def said(self) -> IndexRun:
        """Each repository's note of a database written at other settings than clanka's, as one
        `ClankaRebuildWarning` (never written silently where clanka reads it); the run itself."""
        for repository in self.repositories:
            if repository.clanka_note is not None:
                warn_at_user(repository.clanka_note, ClankaRebuildWarning)
        return self


class CountingEmbedder(Protocol):
    """An embedder that counts the inputs it really computed and the seconds it waited for leave to call."""

    embedded: int
    waited: float

    def __call__(self, texts: list[str]) -> np.ndarray: ...


class Counted:
    """The user's embedder in this process, counting the inputs it computed; with `rate`, at most that many calls
    start per second (one call is in flight at a time: the only limit there is to keep here)."""

    def __init__(self, embed: Embedder, rate: float | None = None) -> None:
        self.embed = embed
        self.gap = 0.0 if rate is None else 1.0 / rate  # seconds between two calls' starts
        self.embedded = 0
        self.waited = 0.0
        self._next = 0.0

    def __call__(self, texts: list[str]) -> np.ndarray:
        pause = self._next - time.monotonic()
        if pause > 0:
            time.sleep(pause)
            self.waited += pause
        self._next = time.monotonic() + self.gap
        answer = np.asarray(self.embed(texts), dtype=np.float32)
        self.embedded += len(texts)
        return answer


@dataclass(frozen=True)
class RepositorySync:
    """The sync of one repository's index, wherever it runs: `run(root, db, ...)` gives its `RepositoryIndex`.

    Attributes:
        model_id: The model's id in the vector cache and the state file.
        settings: The chunk settings and language mode.
        batch_size: Inputs per embedder call.
        busy_timeout: Seconds each step waits while another process writes the same database.
        confine: The database is the repository's own (not named by the user): no link out of it.
    """

    model_id: str
    settings: Settings
    batch_size: int
    busy_timeout: float
    confine: bool = True

    def run(self, root: str, db: str, cache: Callable[[], VectorCache],
            embedder: Callable[[VectorCache], CountingEmbedder], worker: str) -> RepositoryIndex:  # fmt: skip
        """One repository brought in step with its folder: `unchanged` (no file read) when its listed files,
        database, model and settings are as the last complete sync left them, else synced; `failed` with one line.

        Args:
            root: The repository's folder.
            db: Its database's path.
            cache: Opens the vector cache (only when something must be synced).
            embedder: Wraps the embedder around that cache, counting what it computes.
            worker: What ran it, for the outcome ("local": this process).

        Returns:
            The repository's outcome.
        """
        started = time.perf_counter()
        counting: CountingEmbedder | None = None
        files = 0
        shown = db
        try:
            if self.confine:  # before anything is read or written: the real place, never through a link
                db = confined(root, db, (*SIDE_FILES, STATE_SUFFIX))
            # Listed once (issue 55): the fingerprint and the sync both use this listing (names as on disk).
            listed = list_file_names(root, max_file_size=self.settings.max_file_size)
            files = len(listed)
            seen = _files_digest(root, listed)  # before the sync: a file changed during it is read again next time
            state = _fingerprint(seen, db, self.model_id, self.settings)
            if state is not None and _read_state(db) == state:
                return RepositoryIndex(root, shown, UNCHANGED, files=files, worker=worker,
                                       seconds=time.perf_counter() - started)
            opened = cache()
            counting = embedder(opened)
            report = self._sync(root, (db, listed), counting, opened)
            _write_state(db, _fingerprint(seen, db, self.model_id, self.settings))
        except REPO_ERRORS as error:
            return RepositoryIndex(
                root, shown, FAILED, files=files, worker=worker, error=one_line(error),
                embedded=0 if counting is None else counting.embedded,
                lease_wait=0.0 if counting is None else counting.waited, seconds=time.perf_counter() - started,
            )
        return RepositoryIndex(
            root, shown, SYNCED, chunks=report.chunks, inputs=report.inputs, embedded=counting.embedded,
            cached=report.embedded + report.cached - counting.embedded, reused=report.reused,
            deleted=report.deleted, files=files, seconds=time.perf_counter() - started,
            lease_wait=counting.waited, worker=worker, clanka_note=report.clanka_note,
        )

    def _sync(self, root: str, place: tuple[str, list[str]], embedder: CountingEmbedder,
              cache: VectorCache) -> SyncReport:
        """One `SemanticIndex.sync` (one transaction) of the files listed (`place`: the database, the listing). A
        new database is built beside its place and moved there when complete, so a killed worker or an interrupt
        leaves no half-made file where clanka looks."""
        db, listed = place
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
                warnings.simplefilter("ignore", ClankaRebuildWarning)  # said once per repository by the run
                report = index._sync(listed)  # the run's listing: the root is not listed a second time
            if report.clanka_note is not None:  # named by the database's place, not the temporary file's
                report = replace(report, clanka_note=report.clanka_note.replace(str(where), db, 1))
            if fresh:
                os.replace(where, target)  # atomic on one filesystem: clanka sees no file, then a whole one
        finally:
            if fresh:
                where.unlink(missing_ok=True)
        return report


def sync_repositories(roots: Iterable[StrPath], *, embed: Embedder, settings: Settings, batch_size: int = 300,
                      embed_rate: float | None = None, cache: VectorCache | None = None,
                      progress: ProgressBar = None) -> IndexRun:  # fmt: skip
    """Each root's index at `.clanka/search.sqlite` synced in this process, one after another: the rows, state
    files and outcomes of `dask.sync_indexes` on the same roots, without a cluster (its embedding limit has
    nothing to share here: one call is in flight at a time).

    Args:
        roots: The repositories' folders.
        embed: The embedder.
        settings: The chunk settings and language mode.
        batch_size: Inputs per embedder call.
        embed_rate: Embedder calls started per second at most; None: no limit.
        cache: The vector cache; None: this machine's clanka-nb vector cache.
        progress: None shows a bar only for work over a second, False never, True always.

    Returns:
        Each repository's outcome and the run's wall time.

    Raises:
        ValueError: Two roots would write the same database.
    """
    given = list(roots)
    absolute = [os.path.abspath(os.path.expanduser(os.fspath(root))) for root in given]
    places = databases(given, absolute, None)
    sync = RepositorySync(model_id_of(embed), settings, batch_size, 30.0)
    opened = cache if cache is not None else default_cache()
    counted = Counted(embed, embed_rate)  # one pace for every repository's calls
    started = time.perf_counter()
    outcomes = []
    with bar(progress, len(absolute), "indexing", unit="repo") as handle:
        for root, db in zip(absolute, places, strict=True):
            outcomes.append(sync.run(root, db, lambda: opened, lambda _: _fresh(counted), "local"))
            if handle is not None:
                handle.update(1)
                handle.set_postfix_str(f"{Path(root).name}: {outcomes[-1].status}", refresh=False)
    return IndexRun(tuple(outcomes), time.perf_counter() - started).said()


def _fresh(counted: Counted) -> Counted:
    """The run's embedder, its count started again for the next repository (its pace kept)."""
    counted.embedded, counted.waited = 0, 0.0
    return counted


def one_line(error: BaseException) -> str:
    """An error as one printable line: its type and message, at most 500 characters of it."""
    text = " ".join(str(error).split()) or type(error).__name__
    text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)
    return f"{type(error).__name__}: {text[:500]}"


def _fingerprint(files: str, db: str, model_id: str, settings: Settings) -> str | None:
    """What decides the index's rows without reading a file: every listed file's size and modification time,
    the database's own, the model and the chunk settings. None when the database does not exist yet."""
    try:
        found = os.stat(db)
    except FileNotFoundError:
        return None
    facts = [files, model_id, repr(settings), found.st_size, found.st_mtime_ns, found.st_ino]
    return hashlib.sha256(json.dumps(facts).encode()).hexdigest()


def _files_digest(root: str, listed: list[str]) -> str:
    """The listed files' names, sizes, modification and change times and inodes (stat only: no file is opened).

    `listed` names the files as on disk (`list_file_names`); each enters the digest as `list_files` shows it.
    """
    digest = hashlib.sha256()
    for on_disk in listed:
        name = on_disk.replace("\\", "/")
        try:
            found = os.stat(os.path.join(root, on_disk))
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
        text = small_regular_file(db + STATE_SUFFIX, _STATE_BYTES)
    except FileNotFoundError:
        return None
    return None if text is None else text.decode("ascii", "replace").strip()


def _write_state(db: str, state: str | None) -> None:
    """Written after the sync committed (atomically): a worker killed between the two only costs a re-read."""
    if state is None:
        return
    temporary = f"{db}{STATE_SUFFIX}.{uuid.uuid4().hex}.tmp"
    with open(temporary, "w", encoding="ascii") as handle:
        handle.write(state)
    os.replace(temporary, db + STATE_SUFFIX)


@functools.lru_cache(maxsize=1024)
def _temporaries(folder: str) -> tuple[str, ...]:
    """The names of possible half-built databases in `folder` (`.<name>.<id>.tmp`), listed the first time this
    process makes a database there (kept for the 1,024 folders used last): listing a folder costs time in proportion
    to what it holds, 0.5 ms for a thousand databases in one folder, for every new one among them. One killed in
    this process's lifetime is swept by the next process."""
    try:
        with os.scandir(folder) as entries:
            return tuple(entry.name for entry in entries if entry.name.startswith(".") and entry.name.endswith(".tmp"))
    except OSError:
        return ()


def _remove_stale(target: Path) -> None:
    """New databases half-built by a worker killed more than an hour ago (a running one is younger): the plain
    files `.NAME.<anything>.tmp` beside `target`. Matched by their names' start and end, not by a glob pattern: a
    name with `[` or `*` in it is taken as written."""
    folder = os.path.abspath(target.parent)
    prefix, now = f".{target.name}.", time.time()
    for name in _temporaries(folder):
        if not name.startswith(prefix):
            continue
        path = os.path.join(folder, name)
        try:
            found = os.stat(path, follow_symlinks=False)
            if stat.S_ISREG(found.st_mode) and now - found.st_mtime > _TEMP_AGE:
                os.unlink(path)
        except OSError:
            continue


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


def databases(given: list[StrPath], absolute: list[str], db: DbPlace) -> list[str]:
    """Each root's database (`db`; `absolute`: the roots `given`, as absolute paths), checked: two roots whose
    databases are one real file (one root given twice, or through a link) are refused, as two syncs of one file would
    each delete the other's rows."""
    places = _places(absolute, given, db)
    real = [os.path.realpath(place) for place in places]  # one root given twice through a link is one database
    twice = next((number for number, place in enumerate(real) if place in real[:number]), None)
    if twice is not None:
        first = places[real.index(real[twice])]
        msg = (f"two roots would write the same index {places[twice]!r} (the real file {real[twice]!r}, also "
               f"{first!r}); give each root once and its own database")
        raise ValueError(msg)
    return places
