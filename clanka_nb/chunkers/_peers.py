"""The field's code chunkers, one module each (`_astchunk.py`, `_chonkie.py`, `_langchain.py`, `_llama_index.py`,
`_text_splitter.py`: the one place its library is imported and described), registered here by the name
`peer_parameters` states its sizes under. Adding a peer: its module with a `PEER`, one line in `_REGISTERED`,
its library's extra in pyproject.toml and extras.py; its factory's export in `__init__.py`
is optional (docs/architecture.md, "Adding a peer chunker").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine.settings import checked_keywords
from . import _astchunk, _chonkie, _langchain, _llama_index, _text_splitter
from ._adapter import Adapter
from ._budget import Budget, as_budget
from ._peer import Peer, pack_language

_REGISTERED: dict[str, Peer] = {
    "astchunk": _astchunk.PEER,
    "chonkie": _chonkie.PEER,
    "langchain": _langchain.PEER,
    "llama_index": _llama_index.PEER,
    "semantic_text_splitter": _text_splitter.PEER,
}

# Each peer's adapter factory, by the name `peer_parameters` states its sizes under.
PEERS: dict[str, Callable[..., Adapter]] = {name: peer.factory for name, peer in _REGISTERED.items()}

__all__ = ["PEERS", "pack_language", "peer_parameters"]


@checked_keywords
def peer_parameters(budget: Budget | int | None = None) -> dict[str, dict[str, Any]]:
    """For one budget, each peer's own size parameters as its adapter passes them, with the unit it counts in
    (for a table: every chunker at the same size); nothing is imported, so it works without the extra.

    Args:
        budget: The size: a `Budget`, or characters; None: `CHUNKER_BUDGET` characters.

    Returns:
        Each peer's size parameters by its name, with the unit it counts in.
    """
    budget = as_budget(budget)
    return {name: peer.sizes(budget) for name, peer in _REGISTERED.items()}
