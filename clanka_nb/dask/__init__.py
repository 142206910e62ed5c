"""Chunk, list, sweep and index many repositories on a Dask cluster, with the engine and the index unchanged."""

from ..extras import require

# Before anything imports them: a missing library is one line naming the extra, not a traceback.
require("clanka_nb.dask", "dask", "pandas", "dask", "distributed", "bm25s")

from ..index.internals import IndexRun, RepositoryIndex
from ._churn import churn
from ._cluster import local_client
from ._frames import chunk_codebases, files
from ._indexes import sync_indexes
from ._sweep import sweep

__all__ = [
    "IndexRun",
    "RepositoryIndex",
    "chunk_codebases",
    "churn",
    "files",
    "local_client",
    "sweep",
    "sync_indexes",
]
