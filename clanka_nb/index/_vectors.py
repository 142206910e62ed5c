"""Turning texts into vectors once: shape and NaN checks, batches, and the cache keyed by (model, hash) that
keeps every vector on disk, so no run, kernel or interrupted sync pays for an input twice."""

from __future__ import annotations

import contextlib
import hmac
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from os import PathLike
from pathlib import Path

import numpy as np

from ..engine import CacheInfo
from ..engine.internals import (
    CACHE_DIR_ENV,
    CACHE_SWITCH_ENV,
    check_schema,
    default_directory,
    emptied,
    evict_if_over,
    failure_text,
    key_path,
    keyed_check,
    load_secret,
    open_cache_file,
    write,
)
from ..engine.settings import checked_init
from ..engine.warn import warn_at_user
from ..warning import ClankaWarning

Embedder = Callable[[list[str]], object]
_LOOKUP_BATCH = 500  # SQLite's default limit on host parameters is far above this
MEMORY = ":memory:"
FILE_NAME = "vector-cache.sqlite3"
# 1 GiB: about 700,000 vectors of 384 dimensions, or 170,000 of 1,536 (text-embedding-3-small).
DEFAULT_MAX_BYTES = 2**30
LOCAL = "local:"  # the prefix of a model id made up from an embedder's name
_BUSY_SECONDS = 30  # how long a write waits for another process's write to finish
_USE_GRANULARITY = 3600.0  # seconds: a vector read again within this is not marked used again
_SCHEMA = """
CREATE TABLE IF NOT EXISTS vectors (
    model TEXT NOT NULL,
    hash TEXT NOT NULL,
    vector BLOB NOT NULL,
    checksum BLOB NOT NULL,
    size INTEGER NOT NULL,
    used REAL NOT NULL,
    PRIMARY KEY (model, hash)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS vectors_used ON vectors(used);
"""
_NAMES = "model, hash, vector, checksum, size, used"


def model_id_of(embed: Embedder, model_id: str | None = None) -> str:
    """The cache key's model part: `model_id=`, else the embedder's own `model_id`, else "local:" and its
    qualified name (such vectors are never written to disk: see `VectorCache`)."""
    if model_id is not None:
        return str(model_id)
    own = getattr(embed, "model_id", None)
    if isinstance(own, str) and own:
        return own
    qualname = getattr(embed, "__qualname__", type(embed).__qualname__)
    name = f"{getattr(embed, '__module__', '?')}.{qualname}"
    # A lambda or a local function has no stable name: key it by this process's object so two never mix.
    return f"{LOCAL}{name}@{id(embed):x}" if "<" in qualname else f"{LOCAL}{name}"


def check_vectors(result: object, count: int, model: str, dimensions: int | None = None) -> np.ndarray:
    """The embedder's answer as a (count, d) float32 array, or a ValueError saying what is wrong with it."""
    try:
        array = np.asarray(result, dtype=np.float32)
    except (TypeError, ValueError) as error:
        msg = f"the embedder {model} returned {type(result).__name__}, not numbers ({error}); return an (n, d) array"
        raise ValueError(msg) from error
    if array.ndim != 2 or array.shape[0] != count or array.shape[1] == 0:
        msg = (
            f"the embedder {model} returned shape {array.shape} for {count} texts; it must return one row per text, "
            f"shape ({count}, d)"
        )
        raise ValueError(msg)
    if dimensions is not None and array.shape[1] != dimensions:
        msg = (
            f"the embedder {model} returned {array.shape[1]}-dimensional vectors but this index stores {dimensions}; "
            "use the embedder the index was built with, or a new db="
        )
        raise ValueError(msg)
    bad = ~np.isfinite(array).all(axis=1)
    if bad.any():
        msg = (
            f"the embedder {model} returned NaN or infinite values for {int(bad.sum())} of {count} texts "
            f"(first: text {int(np.flatnonzero(bad)[0])}); fix the model or its inputs, nothing was stored"
        )
        raise ValueError(msg)
    return array



class VectorCacheWarning(ClankaWarning, UserWarning):
    """The vector cache on disk could not be used: vectors are kept in memory for this process instead."""


class VectorCacheError(OSError):
    """`VectorCache.clear()` left vectors behind; the message says why and what to do."""


@checked_init
class VectorCache:
    """Vectors by (model id, SHA-256 of the input), so no input is embedded twice by one model.

    `path` is a SQLite file (WAL and a busy timeout: processes may share it) or ":memory:" (this
    object's life). `default_cache()` is the file in clanka-nb's cache folder, beside the parse cache.
    A file holds at most about `max_bytes` of vectors: the least recently used go first. Each entry
    carries a checksum keyed with the user's secret (the parse cache's key file): a damaged or forged
    entry, or a vector that is not whole finite float32 numbers, is removed and its input embedded
    again; a file that cannot be opened, read or written, or that is not this user's cache (another
    user's, a link, a planted trigger or view), makes the cache keep vectors in memory from then on. Either way one
    `VectorCacheWarning` per file and process says so. Vectors of a model whose id was made up from
    its name (no `model_id` on the embedder and no `model_id=`: the id starts with "local:") stay in
    memory: a function edited and run again keeps its name, and must not get its old vectors.

    Args:
        path: A SQLite file, or ":memory:" for this object's life.
        max_bytes: About the most bytes of vectors the file holds; the least recently used go first.

    Examples:
        >>> cache = cn.VectorCache("vectors.sqlite")
        >>> index = cn.SemanticIndex("my-repo", embed=cn.embedders.hashed_words(), cache=cache)
    """

    def __init__(self, path: str | PathLike[str] = MEMORY, *, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 0:
            msg = f"max_bytes must be a whole number of bytes >= 0, got {max_bytes!r}"
            raise ValueError(msg)
        self.path = MEMORY if str(path) == MEMORY else str(Path(path).expanduser())
        self.max_bytes = max_bytes
        self._lock = threading.RLock()
        self._memory: dict[tuple[str, str], bytes] = {}  # ":memory:", "local:" models, and after a failure
        self._db: sqlite3.Connection | None = None
        self._broken = self.path == MEMORY
        self._secret = b""

    # --- use ---

    def get(self, model: str, hashes: Sequence[str]) -> dict[str, bytes]:
        """hash -> float32 bytes for the hashes this model has a vector for."""
        unique = list(dict.fromkeys(hashes))
        with self._lock:
            found = {digest: self._memory[model, digest] for digest in unique if (model, digest) in self._memory}
            db = None if is_local(model) else self._connection()
            if db is None:
                return found
            try:
                found.update(self._read(db, model, [digest for digest in unique if digest not in found]))
            except sqlite3.Error as exc:
                self._fail(exc)
            return found

    def put(self, model: str, items: Sequence[tuple[str, bytes]]) -> None:
        """Store vectors (hash, float32 bytes) of one model."""
        with self._lock:
            db = None if is_local(model) else self._connection()
            if db is not None:
                try:
                    self._write(db, model, items)
                    return
                except sqlite3.Error as exc:
                    self._fail(exc)
            self._memory.update(((model, digest), blob) for digest, blob in items)

    def info(self) -> CacheInfo:
        """Where the cache is, how many vectors and bytes it holds, its bound, and whether its file is usable."""
        with self._lock:
            entries, size = len(self._memory), sum(len(blob) for blob in self._memory.values())
            db = self._connection(create=False)
            if db is not None:
                try:
                    stored, stored_size = db.execute("SELECT count(*), coalesce(sum(size), 0) FROM vectors").fetchone()
                    entries, size = entries + stored, size + stored_size
                except sqlite3.Error as exc:
                    self._fail(exc)
        file_bytes = 0
        if self.path != MEMORY:
            where = Path(self.path)
            file_bytes = sum(p.stat().st_size for p in where.parent.glob(where.name + "*") if p.is_file())
        usable = self.path == MEMORY or not self._broken
        return CacheInfo(self.path, entries, size, file_bytes, self.max_bytes, usable=usable)

    def clear(self) -> int:
        """Delete every vector; returns how many there were. Raises `VectorCacheError` when vectors stay
        behind in the file (a full disk, a folder or a foreign file in its place), saying what to do."""
        with self._lock:
            removed = len(self._memory)
            self._memory.clear()
            self.close()  # its own connection: a failure here is the answer, not a fallback to memory
            if self.path == MEMORY or not Path(self.path).exists():
                return removed
            try:
                db = sqlite3.connect(self.path, timeout=_BUSY_SECONDS, isolation_level=None)
                try:
                    check_schema(db, self.path, _SCHEMA)  # a planted trigger would run on every row deleted
                    removed += emptied(db, "vectors") if _has_vectors(db) else 0
                finally:
                    db.close()
            except sqlite3.Error as exc:
                what = "it is a folder" if Path(self.path).is_dir() else str(exc)
                msg = (
                    f"could not clear the vector cache {self.path!r}: {what}; free some disk space and run it again, "
                    f"or delete {self.path!r} (and any -wal/-shm beside it) by hand: it holds only a cache"
                )
                raise VectorCacheError(msg) from None
            return removed

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def __len__(self) -> int:
        return self.info().entries

    def __repr__(self) -> str:
        return f"VectorCache({self.path!r}, {len(self)} vectors)"

    # --- inside ---

    def _read(self, db: sqlite3.Connection, model: str, hashes: list[str]) -> dict[str, bytes]:
        found: dict[str, bytes] = {}
        damaged: list[str] = []
        now = time.time()
        for start in range(0, len(hashes), _LOOKUP_BATCH):
            part = hashes[start : start + _LOOKUP_BATCH]
            marks = ",".join("?" * len(part))
            # CAST: a damaged value stored as text comes back as bytes (and then fails its checksum).
            rows = db.execute(
                f"SELECT hash, CAST(vector AS BLOB), CAST(checksum AS BLOB) FROM vectors "
                f"WHERE model = ? AND hash IN ({marks})",
                (model, *part),
            ).fetchall()
            for digest, blob, check in rows:
                if _usable(blob) and hmac.compare_digest(check or b"", _checksum(self._secret, model, digest, blob)):
                    found[digest] = blob
                else:
                    damaged.append(digest)
            if rows:  # marking use costs a write: an entry marked within the hour is not marked again
                db.execute(
                    f"UPDATE vectors SET used = ? WHERE model = ? AND used < ? AND hash IN ({marks})",
                    (now, model, now - _USE_GRANULARITY, *part),
                )
        if damaged:
            write(db, ("DELETE FROM vectors WHERE model = ? AND hash = ?", [(model, d) for d in damaged]))
            self._warn(
                f"{len(damaged)} damaged entries (or ones written without this user's key) were removed; "
                "their inputs are embedded again"
            )
        return found

    def _write(self, db: sqlite3.Connection, model: str, items: Sequence[tuple[str, bytes]]) -> None:
        now = time.time()
        rows = [(model, digest, blob, _checksum(self._secret, model, digest, blob),
                 len(blob) + len(digest) + len(model), now) for digest, blob in items]  # fmt: skip
        write(db, (f"INSERT OR REPLACE INTO vectors ({_NAMES}) VALUES (?, ?, ?, ?, ?, ?)", rows))
        self._evict(db)  # two pragmas unless the file is over its bound: every process keeps it bounded

    def _connection(self, *, create: bool = True) -> sqlite3.Connection | None:
        if self._db is not None or self._broken:
            return self._db
        if not create and not Path(self.path).exists():
            return None
        try:
            self._secret = load_secret(key_path())
            # Refuses, before anything is written, a file that is not this user's vector cache.
            db = open_cache_file(Path(self.path), _SCHEMA, timeout=_BUSY_SECONDS)
        except (sqlite3.Error, OSError) as exc:
            self._fail(exc)
            return None
        self._db = db
        return db

    def _evict(self, db: sqlite3.Connection) -> None:
        evict_if_over(db, "vectors", ("model", "hash"), self.max_bytes)

    def _fail(self, exc: Exception) -> None:
        self._broken = True
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            self._db = None
        self._warn(f"{failure_text(exc)}; vectors are kept in memory for this process from now on")

    def _warn(self, what: str) -> None:
        if self.path in _warned:
            return
        _warned.add(self.path)
        msg = (
            f"vector cache at {self.path}: {what}. Search results are unaffected. Set {CACHE_DIR_ENV} to a writable "
            f"folder, run `clanka-nb cache clear`, or set {CACHE_SWITCH_ENV}=off to keep vectors in memory only"
        )
        warn_at_user(msg, VectorCacheWarning)


_warned: set[str] = set()  # one warning per cache file and process, whatever fails


def _has_vectors(db: sqlite3.Connection) -> bool:
    return db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'vectors'").fetchone() is not None


def _checksum(secret: bytes, model: str, digest: str, blob: bytes) -> bytes:
    """The entry's checksum, keyed with the user's secret (the parse cache's implementation): whoever can
    write the cache folder but not read the key file cannot make an entry the cache accepts."""
    name = model.encode("utf-8", "surrogatepass")
    # The model's length first: no (model, hash) pair spells the same bytes as another.
    key = b"%d:%s\0%s" % (len(name), name, digest.encode("utf-8", "surrogatepass"))
    return keyed_check(secret, key, blob)


def _usable(blob: bytes) -> bool:
    """Whole float32 numbers, all finite: what `check_vectors` asks of a fresh vector."""
    return bool(blob) and len(blob) % 4 == 0 and bool(np.isfinite(np.frombuffer(blob, dtype=np.float32)).all())


def is_local(model: str) -> bool:
    """Whether a model id was made up from the embedder's name (no stable identity: kept in memory only)."""
    return model.startswith(LOCAL)


def cache_switched_off() -> bool:
    """`CLANKA_NB_CACHE=off` (or 0, false, no): the default vector cache stays in memory."""
    return os.environ.get(CACHE_SWITCH_ENV, "").strip().lower() in ("off", "0", "false", "no")


def default_path() -> Path:
    """The default vector cache's file, in clanka-nb's cache folder (`$CLANKA_NB_CACHE_DIR` moves it).

    Returns:
        The file's path.
    """
    return default_directory() / FILE_NAME


def default_cache() -> VectorCache:
    """The cache every index and probe shares unless given another: the file in clanka-nb's cache folder
    (one object per folder and process), or one in memory for the process with `CLANKA_NB_CACHE=off`.

    Returns:
        The shared `VectorCache`.
    """
    return _shared(MEMORY if cache_switched_off() else str(default_path()))


@cache
def _shared(path: str) -> VectorCache:
    return VectorCache(path)



@dataclass
class Embedded:
    """Vectors for a list of texts, and how many of them had to be computed."""

    blobs: dict[str, bytes]  # hash -> float32 bytes
    computed: list[str]  # hashes the embedder computed now (the rest came from the cache)
    dimensions: int | None


def embed_texts(
    embed: Embedder,
    texts: dict[str, str],
    *,
    model: str,
    cache: VectorCache,
    batch_size: int = 300,
    dimensions: int | None = None,
    on_batch: Callable[[int], None] | None = None,
) -> Embedded:
    """Vectors for `texts` (hash -> text): cached ones read, the rest embedded in batches and cached (an embedder
    with `concurrency` N is handed N batches per call, its requests in flight together)."""
    if batch_size < 1:
        msg = f"batch_size must be at least 1, got {batch_size}; clanka sends batches of 300"
        raise ValueError(msg)
    blobs = cache.get(model, list(texts))
    if dimensions is not None:
        # Checked as a fresh vector is: one of another length than the index's is embedded again (and replaced).
        blobs = {digest: blob for digest, blob in blobs.items() if len(blob) == dimensions * 4}
    for blob in blobs.values():
        if dimensions is None:
            dimensions = len(blob) // 4
    missing = [digest for digest in texts if digest not in blobs]
    # An embedder that sends several requests at once (`concurrency`) gets that many batches per call, so they are
    # in flight together; each call's vectors are cached as soon as it returns, as one batch's were.
    concurrency = getattr(embed, "concurrency", 1)
    step = batch_size * (concurrency if isinstance(concurrency, int) and concurrency > 1 else 1)
    for start in range(0, len(missing), step):
        part = missing[start : start + step]
        vectors = check_vectors(embed([texts[digest] for digest in part]), len(part), model, dimensions)
        dimensions = vectors.shape[1]
        fresh = [(digest, vector.tobytes()) for digest, vector in zip(part, vectors, strict=True)]
        cache.put(model, fresh)
        blobs.update(fresh)
        if on_batch is not None:
            on_batch(len(part))
    if dimensions is not None:
        wrong = next((len(b) // 4 for b in blobs.values() if len(b) != dimensions * 4), None)
        if wrong is not None:
            msg = (
                f"the cache holds {wrong}-dimensional vectors for model {model} next to {dimensions}-dimensional ones; "
                "give each model its own model_id="
            )
            raise ValueError(msg)
    return Embedded(blobs=blobs, computed=missing, dimensions=dimensions)
