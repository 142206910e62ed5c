"""Chunks as pandas DataFrames: chunk tables, the files table, coverage, sweeps and plots (no ipywidgets)."""

from .._extras import require

# Before anything imports them: a missing library is one line naming the extra, not a traceback.
require("clanka_nb.frames", "frames", "pandas", "pyarrow", "tqdm")

from ._chunks import chunk_codebase, chunk_file, chunk_files, chunk_text
from ._coverage import coverage, line_coverage
from ._embedding import embedding_input
from ._explain import explain
from ._files import files
from ._plots import plot_chunk_sizes, plot_sweep
from ._stats import CodebaseStats
from .probe import sweep  # the sweep adds the probe's columns, so it is defined above the probe

__all__ = [
    "CodebaseStats",
    "chunk_codebase",
    "chunk_file",
    "chunk_files",
    "chunk_text",
    "coverage",
    "embedding_input",
    "explain",
    "files",
    "line_coverage",
    "plot_chunk_sizes",
    "plot_sweep",
    "sweep",
]
