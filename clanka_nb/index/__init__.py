"""clanka's semantic index: embedding inputs, hash reuse, sqlite-vec search; the engine below, pandas for results."""

from .._extras import require

# Before anything imports them: a missing library is one line naming the extra, not a traceback.
require("clanka_nb.index", "index", "pandas", "numpy")

from . import embedders
from ._db import IndexDatabaseError
from ._index import IndexView, SemanticIndex, SyncReport
from ._open import OpenedIndex, open_index
from ._searcher import IndexSearcher
from ._store import parse_input
from ._tokens import TokenCounter, token_counter
from ._vectors import VectorCache, VectorCacheError, VectorCacheWarning, default_cache

__all__ = [
    "IndexDatabaseError",
    "IndexSearcher",
    "IndexView",
    "OpenedIndex",
    "SemanticIndex",
    "SyncReport",
    "TokenCounter",
    "VectorCache",
    "VectorCacheError",
    "VectorCacheWarning",
    "default_cache",
    "embedders",
    "open_index",
    "parse_input",
    "token_counter",
]
