"""Chunk, list and sweep many repositories on a Dask cluster, in batches of files, with the engine unchanged."""

from ._cluster import local_client
from ._frames import chunk_codebases, files
from ._sweep import sweep

__all__ = ["chunk_codebases", "files", "local_client", "sweep"]
