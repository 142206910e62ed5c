"""The chunking engine: clanka's CodeChunker, rule for rule, with no pandas or ipywidgets."""

from ._chunker import CodeChunk
from ._files import is_meaningful_file, is_probably_minified
from ._settings import ChunkSettings
from ._api import chunk_file_content

__all__ = [
    "ChunkSettings",
    "CodeChunk",
    "chunk_file_content",
    "is_meaningful_file",
    "is_probably_minified",
]
