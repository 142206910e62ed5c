"""The chunking engine: clanka's CodeChunker, rule for rule, with no pandas or ipywidgets.

Its public modules hold what every layer above shares: `settings` (every setting, its checks and the
grids of a sweep), `embedding` (clanka's embedding input and its hash), `token_counts` (token counters
and the chars/4 estimate), `progress` (the progress bar) and `source` (what a chunk frame says of its
source, read without pandas). The names below are the engine's API; its `_` modules are its own.
"""

from ._api import chunk_codebase, chunk_file, chunk_file_content, chunk_files, one_file
from ._cache import ParseCache, ParseCacheWarning, resolve_cache
from ._chunker import CHUNKERS, ChunkHead, CodeChunk, FileChunking, PreparedText, chunks_of, heads_of
from ._codebase import Codebase, UnreadableFileWarning, prepared_texts
from ._codebase import load as load_file
from ._collation import sorted_like_js
from ._declarations import Declaration, GrammarUnavailableError
from ._explain import RULES, ExplainedChunk, explain_file
from ._files import is_meaningful_file, is_probably_minified, language_of
from ._languages import LANGUAGE_MODES, check_languages
from ._listing import ListingCache, list_file_names, list_files, resolve_root
from ._reading import FileReport, FileStatus, MissingFileError, check_file
from ._skipped import skipped_files
from ._text import is_meaningful_line, js_length
from .settings import ChunkSettings, SettingClampedWarning, Settings, SourceSettings

CHUNK_TYPES = ("class", "enum", "function", "interface", "method", "namespace", "type-alias", "variable")

__all__ = [
    "CHUNKERS",
    "CHUNK_TYPES",
    "LANGUAGE_MODES",
    "RULES",
    "ChunkHead",
    "ChunkSettings",
    "CodeChunk",
    "Codebase",
    "Declaration",
    "ExplainedChunk",
    "FileChunking",
    "FileReport",
    "FileStatus",
    "GrammarUnavailableError",
    "ListingCache",
    "MissingFileError",
    "ParseCache",
    "ParseCacheWarning",
    "PreparedText",
    "SettingClampedWarning",
    "Settings",
    "SourceSettings",
    "UnreadableFileWarning",
    "check_file",
    "check_languages",
    "chunk_codebase",
    "chunk_file",
    "chunk_file_content",
    "chunk_files",
    "chunks_of",
    "explain_file",
    "heads_of",
    "is_meaningful_file",
    "is_meaningful_line",
    "is_probably_minified",
    "js_length",
    "language_of",
    "list_file_names",
    "list_files",
    "load_file",
    "one_file",
    "prepared_texts",
    "resolve_cache",
    "resolve_root",
    "skipped_files",
    "sorted_like_js",
]
