"""clanka's semantic index: embedding inputs, hash reuse, sqlite-vec search; the engine below, pandas for results."""

from ..extras import require

# Before anything imports them: a missing library is one line naming the extra, not a traceback.
require("clanka_nb.index", "index", "pandas", "numpy")

from . import embedders
from ._clanka_check import ClankaCheck, ClankaRebuildWarning
from ._db import IndexDatabaseError
from ._index import IndexView, SemanticIndex, SyncReport
from ._open import OpenedIndex, open_index
from ._searcher import IndexSearcher
from ._store import parse_input
from ._vectors import Embedder, VectorCache, VectorCacheError, VectorCacheWarning, default_cache, default_path

__all__ = [
    "ClankaCheck",
    "ClankaRebuildWarning",
    "Embedder",
    "IndexDatabaseError",
    "IndexSearcher",
    "IndexView",
    "OpenedIndex",
    "SemanticIndex",
    "SyncReport",
    "VectorCache",
    "VectorCacheError",
    "VectorCacheWarning",
    "default_cache",
    "default_path",
    "embedders",
    "open_index",
    "parse_input",
]
