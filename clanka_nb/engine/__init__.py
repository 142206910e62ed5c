"""The chunking engine: clanka's CodeChunker, rule for rule, with no pandas or ipywidgets.

Its public modules hold what every layer above shares: `settings` (every setting, its checks and the
grids of a sweep), `embedding` (clanka's embedding input and its hash), `token_counts` (token counters
and the chars/4 estimate), `progress` (the progress bar) and `source` (what a chunk frame says of its
source, read without pandas), and `internals` (what those layers build on from the engine's own modules).
The names below are the engine's API; its `_` modules are its own.
"""

from ._api import chunk_codebase, chunk_file, chunk_file_content, chunk_files
from ._cache import ParseCache, ParseCacheError, ParseCacheWarning
from ._cache_files import CacheInfo
from ._chunker import CHUNKERS, CodeChunk, FileChunking, PreparedText
from ._codebase import BinaryFileWarning, Codebase, NothingToChunkWarning, UnreadableFileWarning, prepared_texts
from ._declarations import Declaration, GrammarUnavailableError
from ._explain import RULES, ExplainedChunk, explain_file
from ._files import is_meaningful_file, is_probably_minified, language_of
from ._languages import LANGUAGE_MODES
from ._listing import IgnoreFileTooLargeWarning, list_file_names, list_files
from ._reading import FileReport, FileStatus, FileTooLargeError, MissingFileError
from ._skipped import skipped_files
from ._syntax import parses_as_code, syntax_tree
from ._text import is_meaningful_line, js_length
from .settings import ChunkSettings, SettingClampedWarning, Settings

CHUNK_TYPES = ("class", "enum", "function", "interface", "method", "namespace", "type-alias", "variable")

__all__ = [
    "CHUNKERS",
    "CHUNK_TYPES",
    "LANGUAGE_MODES",
    "RULES",
    "BinaryFileWarning",
    "CacheInfo",
    "ChunkSettings",
    "CodeChunk",
    "Codebase",
    "Declaration",
    "ExplainedChunk",
    "FileChunking",
    "FileReport",
    "FileStatus",
    "FileTooLargeError",
    "GrammarUnavailableError",
    "IgnoreFileTooLargeWarning",
    "MissingFileError",
    "NothingToChunkWarning",
    "ParseCache",
    "ParseCacheError",
    "ParseCacheWarning",
    "PreparedText",
    "SettingClampedWarning",
    "Settings",
    "UnreadableFileWarning",
    "chunk_codebase",
    "chunk_file",
    "chunk_file_content",
    "chunk_files",
    "explain_file",
    "is_meaningful_file",
    "is_meaningful_line",
    "is_probably_minified",
    "js_length",
    "language_of",
    "list_file_names",
    "list_files",
    "parses_as_code",
    "prepared_texts",
    "skipped_files",
    "syntax_tree",
]
