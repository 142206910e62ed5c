"""Search over one setting's chunks: what each chunk's indexed text holds (`MaskedText`), code-aware
tokens, BM25 scored once per setting, and the `Searcher` protocol any other searcher meets.

What the other parts of the probe use is named here; the rest stays in its `_` module.
"""

from ._bm25 import ChunkBM25
from ._index import HEADERS, Chunks, LineTokens, MaskedText
from ._search import BM25Searcher, Searcher, resolve_searcher, search_many, searcher_for
from ._search_words import code_tokens

__all__ = [
    "HEADERS",
    "BM25Searcher",
    "ChunkBM25",
    "Chunks",
    "LineTokens",
    "MaskedText",
    "Searcher",
    "code_tokens",
    "resolve_searcher",
    "search_many",
    "searcher_for",
]
