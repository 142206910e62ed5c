"""`IndexSearcher`: the retrieval probe's searcher backed by a real index (sqlite-vec KNN over clanka's schema)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ..engine.embedding import input_hash
from ..engine.settings import checked_init
from . import _db
from ._store import MAX_K
from ._vectors import Embedder, VectorCache, default_cache, embed_texts, model_id_of


@checked_init
class IndexSearcher:
    """Index texts into an in-memory index with clanka's schema and rank by sqlite-vec KNN (L2), as clanka searches.

    Vectors go through `cache` keyed by (model id, SHA-256 of the text), so texts shared between the
    settings of a sweep, and the queries, are embedded once; `embedded` counts texts the model computed
    and `indexed` the texts indexed over all settings.

    Args:
        embed: The embedder, a callable `list[str] -> (n, d) array`.
        cache: The vector cache; None: the default one.
        model_id: The model's id in the vector cache; None: the embedder's own.
        batch_size: Texts embedded per call of `embed`.

    Examples:
        >>> cn.probe("my-repo", cn.Probe(searcher=cn.IndexSearcher(cn.embedders.hashed_words())))
    """

    def __init__(self, embed: Embedder, *, cache: VectorCache | None = None, model_id: str | None = None,
                 batch_size: int = 300) -> None:
        if not callable(embed):
            msg = f"embed must be a callable list[str] -> (n, d) array, got {type(embed).__name__}; see cn.embedders"
            raise TypeError(msg)
        self.embed = embed
        self.model_id = model_id_of(embed, model_id)
        self.cache = cache if cache is not None else default_cache()
        self.batch_size = batch_size
        self.embedded = 0
        self.indexed = 0
        self.dimensions: int | None = None
        self._db: object | None = None
        self._count = 0

    def __repr__(self) -> str:
        return f"IndexSearcher({self.model_id!r}, embedded={self.embedded}, indexed={self.indexed})"

    def _vectors(self, texts: Sequence[str]) -> list[bytes]:
        by_hash = {input_hash(text): text for text in texts}
        done = embed_texts(self.embed, by_hash, model=self.model_id, cache=self.cache, batch_size=self.batch_size,
                           dimensions=self.dimensions)
        self.embedded += len(done.computed)
        self.dimensions = done.dimensions
        return [done.blobs[input_hash(text)] for text in texts]

    def call_size(self) -> int:
        """How many inputs go to the embedder per call: a few of its batches, all its concurrent requests.

        Small enough for a progress bar to move every second or so, large enough that an HTTP embedder has
        `concurrency` batches to send at once.
        """
        batch = getattr(self.embed, "batch_size", None)
        concurrency = getattr(self.embed, "concurrency", 1)
        if not isinstance(batch, int) or isinstance(batch, bool) or batch < 1:
            return self.batch_size
        return max(1, batch * (concurrency if isinstance(concurrency, int) and concurrency > 1 else 2))

    def missing(self, texts: Iterable[str]) -> dict[str, str]:
        """hash -> text of the distinct `texts` the cache has no vector of for this model (what embedding costs)."""
        by_hash = {input_hash(text): text for text in texts}
        found = self.cache.get(self.model_id, list(by_hash))
        return {digest: text for digest, text in by_hash.items() if digest not in found}

    def embed_missing(self, by_hash: dict[str, str], on_batch: Callable[[int], None] | None = None) -> None:
        """Embed and cache these texts (hash -> text) in order, `call_size()` at a time; `on_batch(n)` after each."""
        done = embed_texts(self.embed, by_hash, model=self.model_id, cache=self.cache, batch_size=self.call_size(),
                           dimensions=self.dimensions, on_batch=on_batch)
        self.embedded += len(done.computed)
        self.dimensions = done.dimensions

    def index(self, texts: Sequence[str]) -> None:
        texts = list(texts)
        blobs = self._vectors(texts)
        self.indexed += len(texts)
        connection = _db.connect(":memory:")
        if blobs:
            _db.create_schema(connection, len(blobs[0]) // 4)
            with connection:
                connection.executemany(
                    "INSERT INTO chunks (id, path, content, hash, vector, syncId) VALUES (?, '', ?, ?, ?, 'probe')",
                    ((i + 1, text, input_hash(text), blob) for i, (text, blob) in enumerate(zip(texts, blobs,
                                                                                                  strict=True))),
                )
        if self._db is not None:
            self._db.close()  # type: ignore[attr-defined]  # an apsw connection (apsw is untyped here)
        self._db, self._count = connection, len(texts)

    def search(self, query: str, k: int) -> list[int]:
        return self.search_many([query], k)[0]

    def search_many(self, queries: Sequence[str], k: int) -> list[list[int]]:
        if self._db is None:
            msg = "nothing is indexed yet; call index(texts) before searching"
            raise RuntimeError(msg)
        if not queries or self._count == 0:
            return [[] for _ in queries]
        depth = min(int(k), self._count, MAX_K)
        out = []
        for blob in self._vectors(list(queries)):
            rows = self._db.execute(  # type: ignore[attr-defined]  # an apsw connection (apsw is untyped here)
                "SELECT rowid FROM chunk_vectors WHERE vector MATCH ? AND k = ? ORDER BY distance",
                (blob, depth),
            ).fetchall()
            out.append([row[0] - 1 for row in rows])
        return out
