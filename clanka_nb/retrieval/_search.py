"""Searchers for the retrieval probe: index texts, then rank them for a query (BM25 or any embedding)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from ._search_words import code_tokens

if TYPE_CHECKING:  # the one name of an embedder's type: the semantic index's (importing it loads sqlite-vec)
    from ..index import Embedder

WordSplitter = Callable[[str], list[str]]  # a text -> its words (not a token counter)


@runtime_checkable
class Searcher(Protocol):
    """What the probe needs of a search engine.

    `index(texts)` replaces whatever was indexed before; `search(query, k)` returns the ids
    (positions in `texts`) of at most `k` texts, best first. Texts that do not match at all may be
    left out. A searcher may also have `search_many(queries, k)`, one ranking per query, for speed.
    """

    def index(self, texts: Sequence[str]) -> None: ...

    def search(self, query: str, k: int) -> list[int]: ...


def search_many(searcher: Searcher, queries: Sequence[str], k: int) -> list[list[int]]:
    """Rankings of all queries, in one batch when the searcher can, else one query at a time."""
    batch = getattr(searcher, "search_many", None)
    if callable(batch):
        return batch(queries, k)
    return [list(searcher.search(query, k)) for query in queries]


def _check_k(k: object) -> int:
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or k < 1:
        msg = f"k must be a positive int (how many results to return), got {k!r}"
        raise ValueError(msg)
    return int(k)


class BM25Searcher:
    """Lexical search: BM25 (Lucene's variant, by the `bm25s` library) over code-aware tokens.

    `tokenizer` turns a text into tokens (default: `code_tokens`, which splits camelCase and
    snake_case and keeps the compound too). Texts sharing no token with a query are not returned.
    Needs the `probe` extra: `pip install "clanka-nb[probe]"`.
    """

    def __init__(self, tokenizer: WordSplitter = code_tokens, *, k1: float = 1.5, b: float = 0.75) -> None:
        if not callable(tokenizer):
            msg = f"tokenizer must be a function str -> list[str] (e.g. code_tokens), got {tokenizer!r}"
            raise TypeError(msg)
        self.tokenizer = tokenizer
        self.k1, self.b = k1, b
        self._model: Any = None
        self._count = 0

    def __repr__(self) -> str:
        return f"BM25Searcher(tokenizer={getattr(self.tokenizer, '__name__', self.tokenizer)!r})"

    def index(self, texts: Sequence[str]) -> None:
        vocab: dict[str, int] = {}
        ids = [[vocab.setdefault(token, len(vocab)) for token in self.tokenizer(text)] for text in texts]
        self.index_ids(ids, vocab)

    def index_ids(self, documents: list[list[int]], vocab: Mapping[str, int]) -> None:
        """Index documents given as token ids, `vocab` mapping every token to its id (0, 1, 2…).

        The probe uses this to tokenize each line of a codebase once for all settings.
        """
        try:
            import bm25s
        except ImportError as error:
            msg = 'BM25 search needs the bm25s library: pip install "clanka-nb[probe]"'
            raise ImportError(msg) from error
        model = bm25s.BM25(k1=self.k1, b=self.b)
        if documents:
            # bm25s scores ids 0..len(vocab)-1; a corpus without tokens gets one so that it can be built.
            model.index((documents, dict(vocab) or {"": 0}), show_progress=False)
        # (An empty corpus is not given to bm25s, whose average length of no documents warns; nothing matches.)
        self._model, self._count = model, len(documents)

    def search(self, query: str, k: int) -> list[int]:
        return self.search_many([query], k)[0]

    def search_many(self, queries: Sequence[str], k: int) -> list[list[int]]:
        k = _check_k(k)
        if self._model is None:
            msg = "nothing is indexed yet; call index(texts) before searching"
            raise RuntimeError(msg)
        if not queries or not self._count:
            return [[] for _ in queries]
        return [self._top(self.tokenizer(query), k) for query in queries]

    def _top(self, tokens: list[str], k: int) -> list[int]:
        """Ids of the best `k` documents sharing a token with the query, ties broken by lower id.

        Not bm25s's `retrieve`: its top-k selection is slow when most scores are 0, as they are here.
        """
        if not tokens:
            return []
        scores = self._model.get_scores(tokens)
        matching = np.flatnonzero(scores > 0)
        if len(matching) > k:
            matching = np.sort(matching[np.argpartition(-scores[matching], k - 1)[:k]])
        return matching[np.argsort(-scores[matching], kind="stable")].tolist()


class EmbeddingSearcher:
    """Semantic search: cosine similarity of vectors from any `embed(texts) -> vectors` function.

    `embed` takes a list of strings and returns one vector per string (a list of lists or a
    2-D array). Nothing is downloaded by clanka-nb; bring your own model. For a local
    sentence-transformers model (`pip install sentence-transformers`, model already on disk)::

        from sentence_transformers import SentenceTransformer
        model = SentenceTransformer("all-MiniLM-L6-v2", local_files_only=True)
        searcher = EmbeddingSearcher(model.encode)
        probe(codebase, Probe(searcher=searcher))

    Vectors are cached by text (`cache=True`), so chunks that stay the same from one setting to
    the next, and the queries, are embedded once.
    """

    def __init__(self, embed: Embedder, *, cache: bool = True) -> None:
        if not callable(embed):
            msg = f"embed must be a function list[str] -> vectors (e.g. SentenceTransformer(...).encode), got {embed!r}"
            raise TypeError(msg)
        self.embed = embed
        self._cache: dict[str, np.ndarray] | None = {} if cache else None
        self._matrix: np.ndarray | None = None

    def __repr__(self) -> str:
        return f"EmbeddingSearcher({getattr(self.embed, '__name__', self.embed)!r})"

    def _vectors(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors of `texts`, one row each (embedding only texts not seen before)."""
        cache = self._cache if self._cache is not None else {}
        missing = list(dict.fromkeys(text for text in texts if text not in cache))
        if missing:
            vectors = np.asarray(self.embed(missing), dtype=np.float32)
            if vectors.ndim != 2 or len(vectors) != len(missing):
                msg = (
                    f"embed returned an array of shape {vectors.shape} for {len(missing)} texts; "
                    "it must return one vector per text (shape (len(texts), dimensions))"
                )
                raise ValueError(msg)
            norms = np.linalg.norm(vectors, axis=1, keepdims=True)
            vectors = vectors / np.where(norms > 0, norms, 1)
            cache.update(zip(missing, vectors, strict=True))
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([cache[text] for text in texts])

    def index(self, texts: Sequence[str]) -> None:
        self._matrix = self._vectors(list(texts))

    def search(self, query: str, k: int) -> list[int]:
        return self.search_many([query], k)[0]

    def search_many(self, queries: Sequence[str], k: int) -> list[list[int]]:
        k = _check_k(k)
        if self._matrix is None:
            msg = "nothing is indexed yet; call index(texts) before searching"
            raise RuntimeError(msg)
        if not queries or not len(self._matrix):
            return [[] for _ in queries]
        similarity = self._vectors(list(queries)) @ self._matrix.T
        depth = min(k, similarity.shape[1])
        top = np.argpartition(-similarity, depth - 1, axis=1)[:, :depth]
        order = np.argsort(-np.take_along_axis(similarity, top, axis=1), axis=1, kind="stable")
        return np.take_along_axis(top, order, axis=1).tolist()


def searcher_for(searcher: str | Searcher, embed: Embedder | None) -> str | Searcher:
    """`embed=` as a searcher: an `IndexSearcher` (sqlite-vec KNN over clanka's schema, vectors cached)."""
    if embed is None:
        return searcher
    if not (isinstance(searcher, str) and searcher == "bm25"):
        msg = f"pass either embed= or searcher=, not both (got searcher={searcher!r})"
        raise ValueError(msg)
    from ..index import IndexSearcher

    return IndexSearcher(embed)


def resolve_searcher(searcher: str | Searcher) -> Searcher:
    """The searcher to use: "bm25" for the built-in lexical one, or any object with index() and search()."""
    if isinstance(searcher, str):
        if searcher == "bm25":
            return BM25Searcher()
        msg = (
            f'searcher must be "bm25", a BM25Searcher, an EmbeddingSearcher or any object with '
            f"index() and search(), got {searcher!r}"
        )
        raise ValueError(msg)
    if not isinstance(searcher, Searcher):
        msg = (
            f"searcher must have index(texts) and search(query, k) methods, got {type(searcher).__name__}; "
            'pass "bm25" or EmbeddingSearcher(embed)'
        )
        raise TypeError(msg)
    return searcher
