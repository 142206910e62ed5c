"""What every peer chunker's module shares: the adapter from a peer's own run, a grammar of the language pack
per file, a splitter built once per language, the peer's installed version, and `Peer`, the one entry a peer's
module gives `_peers.py`.

Every peer is set up so that nothing downloads at run time: characters, not a tokenizer from a hub; grammars
bundled in wheels (tree-sitter-language-pack below 1.0, astchunk's grammar packages); a fixed language per
file, never a language detector. A file whose language a peer has no grammar for gives None (not handled).
"""

from __future__ import annotations

import functools
import importlib.metadata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine import language_of
from ._adapter import Adapter, Result
from ._budget import Budget
from ._guard import InputLimits

EXTRA = "chunkers"


@dataclass(frozen=True)
class Peer:
    """One peer chunker: its adapter factory and its own size parameters for a budget (what the factory passes,
    stated by `peer_parameters` without importing the peer)."""

    factory: Callable[..., Adapter]
    sizes: Callable[[Budget], dict[str, Any]]


@functools.cache
def _pack_has(language: str) -> bool:
    from tree_sitter_language_pack import get_language

    try:
        get_language(language)  # type: ignore[arg-type]  # probing a name against the pack's Literal list is the point
    except LookupError:
        return False
    return True


def pack_language(path: str) -> str | None:
    """The tree-sitter-language-pack grammar a file of this name is split with (None: the pack has none)."""
    language = language_of(path)
    return language if _pack_has(language) else None


def per_language(make: Callable[[str], Any]) -> Callable[[str], Any]:
    """`make(language)` built once per language (a splitter holds its parser; building one is the slow part)."""
    return functools.cache(make)


def version(distribution: str) -> str:
    return importlib.metadata.version(distribution)


def peer(label: str, run: Callable[[str, str], list[Any] | None], spans: Callable[[str, str, list[Any]], Result],
          text_of: Callable[[Any], str], parameters: dict[str, Any], rebuilt: Callable[[], Adapter]) -> Adapter:
    """An adapter from a peer's own run on one file (its chunk objects, None when it does not handle the file),
    how those become spans of the file, how each gives its text, and how the same adapter is built again in the
    process it runs in (`rebuilt`: its factory with the same arguments, which pickles)."""

    def split(path: str, text: str) -> Result:
        found = run(path, text)
        return None if found is None else spans(path, text, found)

    def texts(path: str, text: str) -> list[str] | None:
        found = run(path, text)
        return None if found is None else [text_of(piece) for piece in found]

    # Bounded input: a peer's time on a deep syntax tree or one long line grows too fast for a time limit
    # (_guard.py); and it runs in a process of its own, killed at its time limit (_process.py).
    return Adapter(label, split, parameters, texts, limits=InputLimits(), isolated=rebuilt)
