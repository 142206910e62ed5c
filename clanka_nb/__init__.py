"""clanka-nb: see, measure and tune how clanka's CodeChunker cuts code into chunks, in notebooks.

The packages are a star around `clanka_nb.engine` (the chunker, the settings, the one source resolver):
`clanka_nb.index` (the semantic index), `clanka_nb.frames` (DataFrames, plots) and `clanka_nb.history` (git
churn) stand side by side on it; `clanka_nb.retrieval` (the probe) on those three; `clanka_nb.sweeps` on the
probe; `clanka_nb.widgets` and `clanka_nb.dask` side by side on top (docs/architecture.md draws it).
Top-level names load their layer on first use, so `import clanka_nb.engine` never pulls in
pandas or ipywidgets. Chunking functions here return DataFrames; `clanka_nb.engine` has the
same names returning `CodeChunk` objects.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .extras import missing_extra

# The names in the order a reader meets them (the README's tour): the chunks of a codebase, how to tune them,
# the viewers, the semantic index and its churn, then the engine's own types.
_FRAMES = (
    "chunk_codebase", "chunk_files", "chunk_file", "chunk_text", "files", "coverage", "line_coverage", "explain",
    "explain_text",
    "embedding_input", "plot_chunk_sizes", "plot_sweep",
)
_SWEEP = ("sweep",)
_PROBE = (
    "probe", "probe_summary", "probe_queries", "dropped_queries", "history_queries", "unit_test_queries",
    "Probe", "BM25Searcher",
)
_WIDGETS = ("browse", "preview", "preview_text", "tune", "compare", "search_panel", "step_through", "report")
_INDEX = ("SemanticIndex", "open_index", "IndexSearcher", "VectorCache", "embedders")
_HISTORY = ("churn", "churn_files", "churn_summary", "plot_churn")
_ENGINE = ("Codebase", "CodeChunk", "list_files", "SettingClampedWarning")

# name -> module that defines it; resolved lazily by __getattr__.
_EXPORTS = {
    "sample_codebase": "clanka_nb.bundled",
    **dict.fromkeys(_FRAMES, "clanka_nb.frames"),
    **dict.fromkeys(_SWEEP, "clanka_nb.sweeps"),
    **dict.fromkeys(_PROBE, "clanka_nb.retrieval"),
    **dict.fromkeys(_WIDGETS, "clanka_nb.widgets"),
    **dict.fromkeys(_INDEX, "clanka_nb.index"),
    **dict.fromkeys(_HISTORY, "clanka_nb.history"),
    **dict.fromkeys(_ENGINE, "clanka_nb.engine"),
    "ClankaWarning": "clanka_nb.warning",  # the base of every warning above (a leaf: loads nothing)
}

__all__ = list(_EXPORTS)  # one table, in the README's order: a name exported is a name listed

if TYPE_CHECKING:
    from .bundled import sample_codebase
    from .engine import Codebase, CodeChunk, SettingClampedWarning, list_files
    from .frames import (
        chunk_codebase,
        chunk_file,
        chunk_files,
        chunk_text,
        coverage,
        embedding_input,
        explain,
        explain_text,
        files,
        line_coverage,
        plot_chunk_sizes,
        plot_sweep,
    )
    from .history import churn, churn_files, churn_summary, plot_churn
    from .index import IndexSearcher, SemanticIndex, VectorCache, embedders, open_index
    from .retrieval import (
        BM25Searcher,
        Probe,
        dropped_queries,
        history_queries,
        probe,
        probe_queries,
        probe_summary,
        unit_test_queries,
    )
    from .sweeps import sweep
    from .warning import ClankaWarning
    from .widgets import browse, compare, preview, preview_text, report, search_panel, step_through, tune


# The packages as attributes too (`cn.engine.Codebase`), loaded on first use like the names above; written as
# whole module names so that the import graph (tests/test_import_graph.py) sees the top level load each one.
_LAYERS = {
    name.rpartition(".")[2]: name
    for name in (
        "clanka_nb.chunkers", "clanka_nb.dask", "clanka_nb.engine", "clanka_nb.frames", "clanka_nb.history",
        "clanka_nb.index", "clanka_nb.retrieval", "clanka_nb.sweeps", "clanka_nb.widgets",
    )
}  # fmt: skip

# The extra a name needs: the one that brings its layer (a viewer needs pandas too, but `widgets` is what to
# install). Engine names and the sample need none.
_NAME_EXTRAS = {
    **dict.fromkeys(_FRAMES, "frames"),
    **dict.fromkeys(_HISTORY, "frames"),
    **dict.fromkeys(_SWEEP, "frames"),
    **dict.fromkeys(_PROBE, "probe"),
    **dict.fromkeys(_INDEX, "index"),
    **dict.fromkeys(_WIDGETS, "widgets"),
}


def __getattr__(name: str) -> Any:
    if name in _LAYERS:
        return import_module(_LAYERS[name])
    module = _EXPORTS.get(name)
    if module is None:
        msg = f"module 'clanka_nb' has no attribute {name!r}"
        raise AttributeError(msg)
    try:
        value = getattr(import_module(module), name)
    except ModuleNotFoundError as error:
        said = missing_extra(error, f"clanka_nb.{name}", _NAME_EXTRAS.get(name))
        if said is None:
            raise
        raise said from None
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__) | set(_LAYERS))
