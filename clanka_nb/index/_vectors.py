"""Turning texts into vectors once: shape and NaN checks, batches, and the SQLite cache keyed by (model, hash)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

Embedder = Callable[[list[str]], object]
_LOOKUP_BATCH = 500  # SQLite's default limit on host parameters is far above this


def model_id_of(embed: Embedder, model_id: str | None = None) -> str:
    """The cache key's model part: `model_id=`, else the embedder's own `model_id`, else its qualified name."""
    if model_id is not None:
        return str(model_id)
    own = getattr(embed, "model_id", None)
    if isinstance(own, str) and own:
        return own
    qualname = getattr(embed, "__qualname__", type(embed).__qualname__)
    name = f"{getattr(embed, '__module__', '?')}.{qualname}"
    # A lambda or a local function has no stable name: key it by this process's object so two never mix.
    return f"{name}@{id(embed):x}" if "<" in qualname else name


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


class VectorCache:
    """Vectors by (model id, SHA-256 of the input) in SQLite, so no input is embedded twice by one model.

    `path=":memory:"` (the default cache) lasts for the process; a file path keeps vectors across runs.
    """

    def __init__(self, path: str | Path = ":memory:") -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS vectors (model TEXT NOT NULL, hash TEXT NOT NULL, vector BLOB NOT NULL, "
            "PRIMARY KEY (model, hash)) WITHOUT ROWID"
        )

    def get(self, model: str, hashes: Sequence[str]) -> dict[str, bytes]:
        """hash -> float32 bytes for the hashes this model has a vector for."""
        found: dict[str, bytes] = {}
        unique = list(dict.fromkeys(hashes))
        with self._lock:
            for start in range(0, len(unique), _LOOKUP_BATCH):
                part = unique[start : start + _LOOKUP_BATCH]
                marks = ",".join("?" * len(part))
                rows = self._db.execute(
                    f"SELECT hash, vector FROM vectors WHERE model = ? AND hash IN ({marks})", (model, *part)
                )
                found.update(rows)
        return found

    def put(self, model: str, items: Sequence[tuple[str, bytes]]) -> None:
        with self._lock:
            self._db.execute("BEGIN")
            self._db.executemany(
                "INSERT OR REPLACE INTO vectors (model, hash, vector) VALUES (?, ?, ?)",
                [(model, digest, blob) for digest, blob in items],
            )
            self._db.execute("COMMIT")

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM vectors").fetchone()[0])

    def __repr__(self) -> str:
        return f"VectorCache({self.path!r}, {len(self)} vectors)"


_DEFAULT: VectorCache | None = None


def default_cache() -> VectorCache:
    """The process-wide in-memory cache every index and probe shares unless given another."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = VectorCache()
    return _DEFAULT


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
    """Vectors for `texts` (hash -> text): cached ones read, the rest embedded in batches and cached."""
    if batch_size < 1:
        msg = f"batch_size must be at least 1, got {batch_size}; clanka sends batches of 300"
        raise ValueError(msg)
    blobs = cache.get(model, list(texts))
    for blob in blobs.values():
        if dimensions is None:
            dimensions = len(blob) // 4
    missing = [digest for digest in texts if digest not in blobs]
    for start in range(0, len(missing), batch_size):
        part = missing[start : start + batch_size]
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
