"""The engine's own helpers that the layers above build on (the index, frames, the probe, history, Dask, the viewers).

Not the user's API (that is `clanka_nb.engine`'s `__all__`): one place that says which parts of the
engine's `_` modules other packages may use, so none of them imports those modules directly.
"""

from ._api import one_file
from ._cache import (
    CACHE_DIR_ENV,
    CACHE_SWITCH_ENV,
    default_directory,
    evict_least_recent,
    resolve_cache,
    set_up_wal,
)
from ._chunker import ChunkHead, chunks_of, heads_of
from ._codebase import load as load_file
from ._collation import sorted_like_js
from ._languages import check_languages
from ._listing import MAX_IGNORE_FILE, ListingCache
from ._reading import check_file

__all__ = [
    "CACHE_DIR_ENV",
    "CACHE_SWITCH_ENV",
    "MAX_IGNORE_FILE",
    "ChunkHead",
    "ListingCache",
    "check_file",
    "check_languages",
    "chunks_of",
    "default_directory",
    "evict_least_recent",
    "heads_of",
    "load_file",
    "one_file",
    "resolve_cache",
    "set_up_wal",
    "sorted_like_js",
]
