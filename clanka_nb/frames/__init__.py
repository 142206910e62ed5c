"""Chunks as pandas DataFrames: chunk tables, the files table, coverage, explanations and plots (no ipywidgets).

Its public modules (`chunks`, `source`, `columns`, `lines`, `stats`, `plots`, `cycles`) are what the
layers above (the probe, the sweep, history, Dask, the viewers) build on; its `_` modules are its own.
"""

from ..extras import require

# Before anything imports them: a missing library is one line naming the extra, not a traceback.
require("clanka_nb.frames", "frames", "pandas", "pyarrow", "tqdm")

from ._coverage import coverage, line_coverage
from ._embedding import embedding_input
from ._explain import explain, explain_text
from ._files import files
from .chunks import chunk_codebase, chunk_file, chunk_files, chunk_text
from .plots import plot_chunk_sizes, plot_sweep
from .stats import CodebaseStats

__all__ = [
    "CodebaseStats",
    "chunk_codebase",
    "chunk_file",
    "chunk_files",
    "chunk_text",
    "coverage",
    "embedding_input",
    "explain",
    "explain_text",
    "files",
    "line_coverage",
    "plot_chunk_sizes",
    "plot_sweep",
]
