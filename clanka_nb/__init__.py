"""clanka-nb: see, measure and tune how clanka's CodeChunker cuts code into chunks, in notebooks.

Layers depend downward only: `clanka_nb.widgets` -> `clanka_nb.frames` -> `clanka_nb.engine`.
Top-level names load their layer on first use, so `import clanka_nb.engine` never pulls in
pandas or ipywidgets.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

# name -> module that defines it; resolved lazily by __getattr__.
_EXPORTS = {
    "Codebase": "clanka_nb.engine",
    "CodeChunk": "clanka_nb.engine",
    "list_files": "clanka_nb.engine",
    "sample_codebase": "clanka_nb._sample",
}

__all__ = ["CodeChunk", "Codebase", "list_files", "sample_codebase"]  # kept equal to _EXPORTS by a test

if TYPE_CHECKING:
    from ._sample import sample_codebase
    from .engine import Codebase, CodeChunk, list_files


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        msg = f"module 'clanka_nb' has no attribute {name!r}"
        raise AttributeError(msg)
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
