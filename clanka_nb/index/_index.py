"""`SemanticIndex`: clanka's SemanticSearch index built, synced and searched from Python."""

from __future__ import annotations

import functools
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any, Self, TypeVar, Unpack

import numpy as np

from .. import engine
from ..defaults import INDEX_MAX_CHARACTERS
from ..engine.embedding import embedding_text, input_hash
from ..engine.progress import bar
from ..engine.settings import Settings, TextKeywords, setting_keywords
from ..engine.source import resolve
from ..engine.token_counts import TokenCounter
from ..engine.token_counts import token_counter as resolve_counter
from ..engine.warn import warn_at_user
from . import _db, _store, _trust
from ._clanka_check import ClankaRebuildWarning, is_clanka, rebuild_note, reembedded
from ._vectors import Embedder, VectorCache, default_cache, embed_texts, model_id_of

DEFAULT_MAX_CHARACTERS = INDEX_MAX_CHARACTERS  # clanka's chunkMaxCharacters default


@dataclass(frozen=True)
class SyncReport:
    """What one `sync()` or `update_file()` did.

    Attributes:
        chunks: Chunks the chunker gave.
        inputs: Distinct embedding inputs among them.
        embedded: Inputs the embedder computed now.
        cached: New rows whose vector came from the vector cache (embedded before, by this model).
        reused: Inputs already in the index (only their syncId changed).
        deleted: Rows no longer produced, removed.
        tokens: Tokens of the inputs embedded now.
        token_counter: What counted them ("chars/4 estimate" when no tokenizer was given).
        seconds: The sync's wall time.
        sync_id: The sync's id, as clanka writes it in every row it touched.
        clanka_note: Written to a file at other settings or another language mode than clanka's: how many inputs
            clanka's next sync there will embed again (also a `ClankaRebuildWarning`); None otherwise.
    """

    chunks: int  # chunks the chunker gave
    inputs: int  # distinct embedding inputs among them
    embedded: int  # inputs the embedder computed now
    cached: int  # new rows whose vector came from the vector cache (embedded before, by this model)
    reused: int  # inputs already in the index (only their syncId changed)
    deleted: int  # rows no longer produced, removed
    tokens: int  # tokens of the inputs embedded now
    token_counter: str  # what counted them ("chars/4 estimate" when no tokenizer was given)
    seconds: float
    sync_id: str
    clanka_note: str | None = None  # written to a file at other settings than clanka's: what its next sync re-embeds

    def __repr__(self) -> str:
        return (
            f"SyncReport(chunks={self.chunks}, embedded={self.embedded}, cached={self.cached}, reused={self.reused}, "
            f"deleted={self.deleted}, tokens={self.tokens} [{self.token_counter}], seconds={self.seconds:.2f})"
        )


def _inputs(chunks: list[engine.CodeChunk]) -> dict[str, tuple[str, str]]:
    """hash -> (path, input) in chunk order, first occurrence kept."""
    out: dict[str, tuple[str, str]] = {}
    for chunk in chunks:
        text = embedding_text(chunk.path, chunk.start_line, chunk.name, chunk.type, chunk.parent, chunk.content)
        out.setdefault(input_hash(text), (chunk.path, text))
    return out


_Method = TypeVar("_Method", bound=Callable[..., Any])


def _guarded(method: _Method) -> _Method:
    """SQLite's errors about the file (damaged, locked past busy_timeout, read-only, full) as IndexDatabaseError."""

    @functools.wraps(method)
    def run(self: IndexView, *args: Any, **kwargs: Any) -> Any:
        with _db.translated(self.where, self.busy_timeout):
            return method(self, *args, **kwargs)

    return run  # type: ignore[return-value]  # functools.wraps keeps the method's signature


class IndexView:
    """Rows and search of an index database (shared by `SemanticIndex` and `open_index`).

    Args:
        connection: The open database connection (apsw).
        where: The database's place, as shown.
        embed: The embedder of queries; None: no search.
        model_id: The model's id in the vector cache; None: the embedder's own.
        cache: The vector cache; None: the default one.
        busy_timeout: Seconds each step waits while another process writes the same file.
    """

    def __init__(self, connection: Any, where: str, embed: Embedder | None, model_id: str | None,
                 cache: VectorCache | None, busy_timeout: float = _db.BUSY_TIMEOUT) -> None:
        self._db = connection
        self.where = where
        self.busy_timeout = busy_timeout
        self.embed = embed
        self.model_id = None if embed is None else model_id_of(embed, model_id)
        self.cache = cache if cache is not None else default_cache()

    @property
    @_guarded
    def dimensions(self) -> int | None:
        """Vector length the database stores (None while it holds nothing)."""
        return _db.stored_dimensions(self._db)

    @_guarded
    def __len__(self) -> int:
        if "chunks" not in _db.tables(self._db):
            return 0
        return int(self._db.execute("SELECT count(*) FROM chunks").fetchone()[0])

    @_guarded
    def rows(self) -> Any:
        """Every stored row: id, path, lines, name, type, parent (parsed from the input), hash, sync id, input."""
        if "chunks" not in _db.tables(self._db):
            return _store.row_frame([])
        return _store.row_frame(
            self._db.execute("SELECT id, path, content, hash, syncId FROM chunks ORDER BY id").fetchall()
        )

    @_guarded
    def vectors(self) -> tuple[np.ndarray, np.ndarray]:
        """(ids, vectors) of every stored row, for checks and brute-force comparisons."""
        rows = self._db.execute("SELECT id, vector FROM chunks ORDER BY id").fetchall()
        ids = np.asarray([row[0] for row in rows], dtype=np.int64)
        if not rows:
            return ids, np.zeros((0, self.dimensions or 0), dtype=np.float32)
        return ids, np.stack([np.frombuffer(row[1], dtype=np.float32) for row in rows])

    def embed_query(self, query: str) -> np.ndarray:
        if self.embed is None or self.model_id is None:
            msg = "this index has no embedder; pass embed= (the model the index was built with) to search it"
            raise ValueError(msg)
        if not isinstance(query, str) or not query.strip():
            msg = f"query must be a non-empty string, got {query!r}"
            raise ValueError(msg)
        digest = input_hash(query)
        done = embed_texts(self.embed, {digest: query}, model=self.model_id, cache=self.cache,
                           dimensions=self.dimensions)
        return np.frombuffer(done.blobs[digest], dtype=np.float32)

    @_guarded
    def search(self, query: str, limit: int = 10) -> Any:
        """The `limit` chunks nearest the query by L2 distance (sqlite-vec KNN), nearest first, as a DataFrame."""
        _store.check_limit(limit)
        if "chunk_vectors" not in _db.tables(self._db):
            if len(self) == 0:
                return _store.knn(self._db, None, limit)
            msg = (
                f"{self.where} has no chunk_vectors table yet (clanka creates it on start); open it once with "
                "cn.SemanticIndex(root, embed=..., db=path) or let clanka start on it"
            )
            raise ValueError(msg)
        return _store.knn(self._db, self.embed_query(query), limit)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SemanticIndex(IndexView):
    """clanka's semantic index of a codebase: chunk, embed only new inputs, store in clanka's schema, search.

    `embed` is any callable `list[str] -> (n, d) array` (see `cn.embedders`). `db` is ":memory:" or a
    file (clanka's own is `.clanka/search.sqlite`): a database written here is one clanka opens, and the
    reverse. Vectors go through `cache` (a `VectorCache`; by default the file in clanka-nb's cache folder,
    shared by every process), keyed by (model id, SHA-256 of the input), so nothing is embedded twice: not
    in a new kernel, and not after an interrupted sync (each batch is stored as soon as it is embedded).

    `source` is a folder (read again at each sync), one file, a `Codebase` (its folder, in its mode), a
    chunk frame (its root, its settings the defaults) or None for the sample. The chunk settings
    default to clanka's index's own: `chunk_max_characters=10_000`.

    While another process writes the same file (clanka, or another sync), every step waits up to
    `busy_timeout` seconds. A file that is damaged, foreign or locked for longer raises IndexDatabaseError
    naming the fix, before anything is written to it.
    """

    @setting_keywords(chunk_max_characters=INDEX_MAX_CHARACTERS)
    def __init__(
        self,
        source: str | PathLike[str] | engine.Codebase | Any = None,
        *,
        embed: Embedder,
        db: str | PathLike[str] = ":memory:",
        batch_size: int = 300,
        model_id: str | None = None,
        cache: VectorCache | None = None,
        token_counter: object = None,
        workers: int | None = None,
        progress: bool | None = None,
        busy_timeout: float = _db.BUSY_TIMEOUT,
        settings: Settings | None = None, **given: Unpack[TextKeywords],
    ) -> None:
        """Open (or create) the index of `source` in `db`; `sync()` fills it.

        Args:
            source: A folder, one file, a `Codebase`, a chunk frame, or None for the sample codebase.
            embed: The embedder, a callable `list[str] -> (n, d) array` (see `cn.embedders`).
            db: ":memory:" or the database file (clanka's own is `.clanka/search.sqlite`).
            batch_size: Inputs embedded per call of `embed`.
            model_id: The model's id in the vector cache and the database; None: the embedder's own.
            cache: The vector cache; None: the file in clanka-nb's cache folder.
            token_counter: Counts each input's tokens (a callable, a tiktoken encoding or "cl100k_base").
            progress: None shows a bar only for work over a second, False never, True always.
            busy_timeout: Seconds each step waits while another process writes the same file.

        Raises:
            TypeError: `embed` is not callable.
            IndexDatabaseError: `db` is damaged, foreign or locked for longer than `busy_timeout`.

        Examples:
            >>> index = cn.SemanticIndex("my-repo", embed=cn.embedders.hashed_words(), db="search.sqlite")
            >>> index.sync()
            >>> index.search("parse the config", limit=5)
        """
        settings = Settings(**given).over(settings)
        if not callable(embed):
            msg = f"embed must be a callable list[str] -> (n, d) array, got {type(embed).__name__}; see cn.embedders"
            raise TypeError(msg)
        # The one resolver: the folder is read again at each sync, so a Codebase or a chunk frame gives its
        # folder and its settings; one opened on chosen files, or a frame made of them, stands for those alone.
        resolved = resolve(source, settings)
        chosen = resolved.settings
        codebase = resolved.codebase
        self.paths: list[str] | None = resolved.names  # None: every listed file; else the files given
        root = resolved.root
        if codebase is not None and codebase.selected:
            self.paths = list(codebase.files)
        if not root.is_dir():
            msg = f"source {str(source)!r} is not a folder; pass the root of the codebase to index (or one file)"
            raise NotADirectoryError(msg)
        where = str(db)
        connection = _db.connect(db, busy_timeout=busy_timeout)
        try:
            with _db.translated(where, busy_timeout), _db.deadline(connection):
                _db.check_clanka(connection, where)  # the schema first: quick_check runs a file's CHECKs
                if where != ":memory:":
                    _db.check_intact(connection, where)  # before anything is written to a file it did not write
        except _db.IndexDatabaseError:
            connection.close()
            raise
        super().__init__(connection, where, embed, model_id, cache, busy_timeout)
        self.root = root.resolve()
        self.settings = {**chosen.chunking(), "languages": chosen.mode}
        self._chosen = chosen
        self.max_file_size = chosen.max_file_size
        self.batch_size = batch_size
        self.token_counter: TokenCounter = resolve_counter(token_counter)
        self.workers = workers
        self.progress = progress
        self._known: int | None = None  # PRAGMA data_version when the rows were last found this model's
        try:
            self._start()
        except _db.IndexDatabaseError:
            connection.close()
            raise

    @_guarded
    def _start(self) -> None:
        if self.dimensions is not None:
            _db.create_schema(self._db, self.dimensions)  # clanka's start-up: triggers and backfill

    def _provenance(self) -> _trust.Provenance:
        """Whether the stored rows are this toolkit's with this model (checked again only after another process
        wrote: SQLite's data_version counts other connections' commits). An index in memory is only ever ours."""
        if self.where == ":memory:":
            return _trust.TRUSTED
        version = self._db.execute("PRAGMA data_version").fetchone()[0]
        if self._known == version:
            return _trust.TRUSTED
        assert self.model_id is not None  # set in __init__
        found = _trust.provenance(self._db, self.model_id)
        self._known = version if found.trusted else None
        return found

    def _record(self) -> None:
        """The model's record over the rows as now written (inside the write transaction)."""
        if self.where != ":memory:":
            assert self.model_id is not None  # set in __init__
            _trust.record(self._db, self.model_id, _db.stored_dimensions(self._db))

    def _written(self, recorded: bool = True) -> None:
        """After a commit of ours (its own writes leave data_version as it was): the rows are known to be this
        model's when this commit recorded them, else they stay untrusted."""
        if self.where != ":memory:":
            self._known = self._db.execute("PRAGMA data_version").fetchone()[0] if recorded else None

    def __repr__(self) -> str:
        return f"SemanticIndex({str(self.root)!r}, db={self.where!r}, {len(self)} rows, model={self.model_id!r})"

    def chunks(self) -> list[engine.CodeChunk]:
        """What the chunker gives now at this index's settings."""
        return self._chunks(None)

    def _chunks(self, listed: list[str] | None) -> list[engine.CodeChunk]:
        """The chunks of the files given, else of `listed` (the root's listing made by the caller, names as on disk:
        not listed again), else of every file the root lists now."""
        names = self.paths if self.paths is not None else listed
        if names is not None:
            return list(engine.chunk_files(self.root, names, workers=self.workers, **self.settings))
        return list(engine.chunk_codebase(self.root, workers=self.workers, max_file_size=self.max_file_size,
                                          **self.settings))

    def sync(self) -> SyncReport:
        """Bring the index in step with the source, as clanka's index run does, in one transaction.

        The new inputs are embedded before the write lock is taken (that can take minutes, and others may
        read and write meanwhile), each batch going to the vector cache as it arrives. Under the lock the
        stored hashes are read again: rows another process wrote in between are kept, not written twice.

        Returns:
            What the sync did.
        """
        return self._sync(None)

    @_guarded
    def _sync(self, listed: list[str] | None) -> SyncReport:
        """`sync()`; `listed`: the root's listing (`engine.list_file_names` at this index's max_file_size) made by
        the caller a moment ago, used instead of listing the root again (None: listed here)."""
        started = time.perf_counter()
        chunks = self._chunks(listed)
        inputs = _inputs(chunks)
        sync_id = str(uuid.uuid4())
        # Rows written by another model, or by anyone but this toolkit, are embedded again (the vector cache
        # first): their vectors are not trusted as they are.
        before = self._stored_hashes(list(inputs)) if self._provenance().trusted else set()
        vectors, computed, tokens = self._vectors(
            {digest: text for digest, (_, text) in inputs.items() if digest not in before}
        )
        with _db.writing(self._db):  # waits up to busy_timeout for another writer; an error rolls it all back
            replaced = self._replace_untrusted()
            stored = self._stored_hashes(list(inputs))
            new = {digest: text for digest, (_, text) in inputs.items() if digest not in stored}
            late = {digest: text for digest, text in new.items() if digest not in vectors}  # deleted meanwhile
            if late:
                more, also, more_tokens = self._vectors(late)
                vectors.update(more)
                computed, tokens = computed + also, tokens + more_tokens
            if new:
                _db.create_schema(self._db, len(vectors[next(iter(new))]) // 4)
            elif "chunks" not in _db.tables(self._db):
                self._db.execute(_db.CHUNKS_TABLE)
                self._db.execute(_db.HASH_INDEX)
            self._db.execute("CREATE TEMP TABLE IF NOT EXISTS current_hashes (hash TEXT PRIMARY KEY)")
            self._db.execute("DELETE FROM temp.current_hashes")
            self._db.executemany("INSERT INTO temp.current_hashes VALUES (?)", [(h,) for h in stored])
            # clanka's exists(hash) finds one row per hash and setSyncId marks that row only.
            self._db.execute(
                "UPDATE chunks SET syncId = ? WHERE id IN (SELECT min(id) FROM chunks "
                "WHERE hash IN (SELECT hash FROM temp.current_hashes) GROUP BY hash)",
                (sync_id,),
            )
            self._insert(inputs, new, vectors, sync_id)
            self._db.execute("DELETE FROM chunks WHERE syncId != ?", (sync_id,))
            deleted = self._db.changes() + replaced
            self._db.execute("DROP TABLE temp.current_hashes")
            if new or deleted:  # else the rows are as the record found them (syncId aside, which it leaves out)
                self._record()
        self._written()
        used = sum(digest in new for digest in computed)
        note = None
        if self.where != ":memory:" and not is_clanka(self._chosen):  # never written silently where clanka reads
            note = rebuild_note(self.where, self._chosen, reembedded(
                self.root, inputs, self.max_file_size, self.paths if self.paths is not None else listed))
            warn_at_user(note, ClankaRebuildWarning)
        return SyncReport(
            chunks=len(chunks), inputs=len(inputs), embedded=len(computed), cached=len(new) - used,
            reused=len(stored), deleted=deleted, tokens=tokens, token_counter=self.token_counter.name,
            seconds=time.perf_counter() - started, sync_id=sync_id, clanka_note=note,
        )

    def _replace_untrusted(self) -> int:
        """Under the write lock: delete every row unless they are this model's, written here; how many went."""
        if self._provenance().trusted or "chunks" not in _db.tables(self._db):
            return 0
        self._db.execute("DELETE FROM chunks")
        replaced = int(self._db.changes())
        if "chunk_vectors" in _db.tables(self._db):
            self._db.execute("DELETE FROM chunk_vectors")  # derived from chunks: none of a file's own may stay
        return replaced

    @_guarded
    def update_file(self, path: str | PathLike[str]) -> SyncReport:
        """Re-index one file as clanka's `updateFile`: drop its rows, insert its chunks now under a new syncId.

        A path outside the root is ignored (as clanka does); a file that is gone or gives no chunks just
        loses its rows. Vectors of inputs the file already had are reused rather than computed again.
        """
        started = time.perf_counter()
        relative = self._relative(path)
        sync_id = str(uuid.uuid4())
        if relative is None:
            return SyncReport(0, 0, 0, 0, 0, 0, 0, self.token_counter.name, time.perf_counter() - started, sync_id)
        chunks = engine.chunk_file(self.root, relative, **self.settings) if (self.root / relative).is_file() else []
        inputs = _inputs(chunks)
        has_table = "chunks" in _db.tables(self._db)
        old = dict(self._db.execute("SELECT hash, vector FROM chunks WHERE path = ?", (relative,)).fetchall()) \
            if has_table and self._provenance().trusted else {}
        new = {digest: text for digest, (_, text) in inputs.items() if digest not in old}
        vectors, computed, tokens = self._vectors(new)
        vectors.update({digest: old[digest] for digest in inputs if digest in old})
        with _db.writing(self._db):
            trusted = self._provenance().trusted  # else the other rows stay untrusted: the next sync replaces them
            if vectors:
                _db.create_schema(self._db, len(next(iter(vectors.values()))) // 4)
            deleted = 0
            if has_table:
                self._db.execute("DELETE FROM chunks WHERE path = ?", (relative,))
                deleted = self._db.changes()
            self._insert(inputs, inputs, vectors, sync_id)
            if trusted:
                self._record()
        self._written(trusted)
        reused = len(inputs) - len(new)
        return SyncReport(
            chunks=len(chunks), inputs=len(inputs), embedded=len(computed), cached=len(new) - len(computed),
            reused=reused,
            deleted=deleted - reused, tokens=tokens, token_counter=self.token_counter.name,
            seconds=time.perf_counter() - started, sync_id=sync_id,
        )

    @_guarded
    def remove_file(self, path: str | PathLike[str]) -> int:
        """Drop one file's rows, as clanka's `removeFile`; returns how many were deleted (0 outside the root)."""
        relative = self._relative(path)
        if relative is None or "chunks" not in _db.tables(self._db):
            return 0
        with _db.writing(self._db):
            trusted = self._provenance().trusted
            self._db.execute("DELETE FROM chunks WHERE path = ?", (relative,))
            removed = int(self._db.changes())
            if trusted:
                self._record()
        self._written(trusted)
        return removed

    def _relative(self, path: str | PathLike[str]) -> str | None:
        candidate = Path(path)
        absolute = (candidate if candidate.is_absolute() else self.root / candidate).resolve()
        try:
            relative = absolute.relative_to(self.root).as_posix()
        except ValueError:
            return None
        return relative if relative not in ("", ".") else None

    def _stored_hashes(self, hashes: list[str]) -> set[str]:
        if "chunks" not in _db.tables(self._db):
            return set()
        found: set[str] = set()
        for start in range(0, len(hashes), 500):
            part = hashes[start : start + 500]
            marks = ",".join("?" * len(part))
            found.update(row[0] for row in self._db.execute(f"SELECT hash FROM chunks WHERE hash IN ({marks})", part))
        return found

    def _vectors(self, new: dict[str, str]) -> tuple[dict[str, bytes], list[str], int]:
        """Vectors for the new inputs (cache first), the hashes computed now, and their tokens."""
        if not new:
            return {}, [], 0
        assert self.embed is not None and self.model_id is not None  # set in __init__
        with bar(self.progress, len(new), "embedding", unit="input") as handle:
            done = embed_texts(
                self.embed, new, model=self.model_id, cache=self.cache, batch_size=self.batch_size,
                dimensions=self.dimensions, on_batch=None if handle is None else handle.update,
            )
        if done.dimensions is not None:  # kept in the cache, but no index can hold them
            _db.check_dimensions(done.dimensions, f"the embedder {self.model_id} gives")
        tokens = sum(self.token_counter.count_many([new[digest] for digest in done.computed]))
        return done.blobs, list(done.computed), tokens

    def _insert(self, inputs: dict[str, tuple[str, str]], new: dict[str, Any], vectors: dict[str, bytes],
                sync_id: str) -> None:
        self._db.executemany(
            "INSERT INTO chunks (path, content, hash, vector, syncId) VALUES (?, ?, ?, ?, ?)",
            [(path, text, digest, vectors[digest], sync_id) for digest, (path, text) in inputs.items()
             if digest in new],
        )

