"""Chunk, list and sweep many repositories on a Dask cluster, in batches of files, with the engine unchanged."""

from ..extras import require

# Before anything imports them: a missing library is one line naming the extra, not a traceback.
require("clanka_nb.dask", "dask", "pandas", "dask", "distributed", "bm25s")

from ._cluster import local_client
from ._frames import chunk_codebases, files
from ._sweep import sweep

__all__ = ["chunk_codebases", "files", "local_client", "sweep"]
