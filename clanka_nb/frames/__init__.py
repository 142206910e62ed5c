"""Chunks as pandas DataFrames: chunk tables, the files table, coverage, sweeps and plots (no ipywidgets)."""

from ._chunks import chunk_codebase, chunk_file, chunk_files, chunk_text
from ._embedding import embedding_input

__all__ = [
    "chunk_codebase",
    "chunk_file",
    "chunk_files",
    "chunk_text",
    "embedding_input",
]
