"""The engine's own helpers that the layers above build on (the index, frames, the probe, history, Dask, the viewers).

Not the user's API (that is `clanka_nb.engine`'s `__all__`): one place that says which parts of the
engine's `_` modules other packages may use, so none of them imports those modules directly.
"""

from ._api import one_file
from ._cache import CACHE_SWITCH_ENV, default_directory, fingerprint, resolve_cache
from ._cache_files import (
    CACHE_DIR_ENV,
    check_schema,
    emptied,
    evict_if_over,
    failure_text,
    foreign_schema,
    key_path,
    keyed_check,
    load_secret,
    normalised_sql,
    open_cache_file,
    small_regular_file,
    write,
)
from ._chunker import ChunkHead, chunks_of, front, heads_of, prepare, prepared, window_segments
from ._codebase import load as load_file
from ._collation import sorted_like_js
from ._languages import check_languages
from ._listing import MAX_IGNORE_FILE, ListingCache
from ._mode_note import windowed_grammar_note
from ._reading import check_file, read_text
from ._text import normalize_newlines, normalize_path
from ._workers import enter_worker, expected_ppid, sigint_held

__all__ = [
    "CACHE_DIR_ENV",
    "CACHE_SWITCH_ENV",
    "MAX_IGNORE_FILE",
    "ChunkHead",
    "ListingCache",
    "check_file",
    "check_languages",
    "check_schema",
    "chunks_of",
    "default_directory",
    "emptied",
    "enter_worker",
    "evict_if_over",
    "expected_ppid",
    "failure_text",
    "fingerprint",
    "foreign_schema",
    "front",
    "heads_of",
    "key_path",
    "keyed_check",
    "load_file",
    "load_secret",
    "normalised_sql",
    "normalize_newlines",
    "normalize_path",
    "one_file",
    "open_cache_file",
    "prepare",
    "prepared",
    "read_text",
    "resolve_cache",
    "sigint_held",
    "small_regular_file",
    "sorted_like_js",
    "window_segments",
    "windowed_grammar_note",
    "write",
]
