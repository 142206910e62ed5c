"""Searchers for the retrieval probe: index texts, then rank them for a query.

BM25 is here; search by vectors is `Probe(embed=...)`, the one embedding searcher: `index.IndexSearcher`, sqlite-vec
KNN over clanka's schema with every vector in the one on-disk vector cache (no second, in-memory cache here).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast, runtime_checkable

import numpy as np

from ...engine.settings import checked_init
from ._search_words import code_tokens

if TYPE_CHECKING:  # the one name of an embedder's type: the semantic index's (importing it loads sqlite-vec)
    from ...index import Embedder

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
        return cast("list[list[int]]", batch(queries, k))
    return [list(searcher.search(query, k)) for query in queries]


def _check_k(k: object) -> int:
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or k < 1:
        msg = f"k must be a positive int (how many results to return), got {k!r}"
        raise ValueError(msg)
    return int(k)


@checked_init
class BM25Searcher:
    """Lexical search: BM25 (Lucene's variant, by the `bm25s` library) over code-aware tokens.

    `tokenizer` turns a text into tokens (default: `code_tokens`, which splits camelCase and
    snake_case and keeps the compound too). Texts sharing no token with a query are not returned.
    Needs the `probe` extra: `pip install "clanka-nb[probe]"`.

    Args:
        tokenizer: Turns a text into tokens (default `code_tokens`).
        k1: BM25's term-frequency saturation.
        b: BM25's length normalisation, 0 (none) to 1 (full).

    Examples:
        >>> cn.probe("my-repo", cn.Probe(searcher=cn.BM25Searcher(k1=1.2)))
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
        return cast("list[int]", matching[np.argsort(-scores[matching], kind="stable")].tolist())


def searcher_for(searcher: str | Searcher, embed: Embedder | None) -> str | Searcher:
    """`embed=` as a searcher: an `IndexSearcher` (sqlite-vec KNN over clanka's schema, vectors cached)."""
    if embed is None:
        return searcher
    if not (isinstance(searcher, str) and searcher == "bm25"):
        msg = f"pass either embed= or searcher=, not both (got searcher={searcher!r})"
        raise ValueError(msg)
    from ...index import IndexSearcher

    return IndexSearcher(embed)


def resolve_searcher(searcher: str | Searcher) -> Searcher:
    """The searcher to use: "bm25" for the built-in lexical one, or any object with index() and search()."""
    if isinstance(searcher, str):
        if searcher == "bm25":
            return BM25Searcher()
        msg = (
            f'searcher must be "bm25", a BM25Searcher or any object with index() and search(), got {searcher!r}; '
            "to search by vectors, pass Probe(embed=embedder) instead"
        )
        raise ValueError(msg)
    if not isinstance(searcher, Searcher):
        msg = (
            f"searcher must have index(texts) and search(query, k) methods, got {type(searcher).__name__}; "
            'pass "bm25", or Probe(embed=embedder) to search by vectors'
        )
        raise TypeError(msg)
    return searcher
