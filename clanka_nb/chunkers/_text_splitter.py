"""semantic-text-splitter's CodeSplitter as a peer chunker: the one place it is imported and described."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, cast

from ..engine.settings import checked_keywords
from ..extras import require
from ._adapter import Adapter, Result
from ._budget import Budget, as_budget
from ._peer import EXTRA, Peer, pack_language, peer, per_language, version
from ._spans import spans_at_offsets

if TYPE_CHECKING:
    from tree_sitter_language_pack import SupportedLanguage


# Its own size parameters for a budget: what the factory passes, and what `peer_parameters` states.
def sizes(budget: Budget) -> dict[str, Any]:
    return {"capacity": budget.characters, "unit": "characters"}


@checked_keywords
def semantic_text_splitter(
    budget: Budget | int | None = None, *, label: str = "semantic-text-splitter CodeSplitter"
) -> Adapter:
    """semantic-text-splitter's `CodeSplitter` at `capacity` characters, with its own character offsets.

    Args:
        budget: The size of a chunk: a `Budget`, or characters; None: `CHUNKER_BUDGET` characters.
        label: Its label in tables.

    Returns:
        The chunker (needs the `chunkers` extra when it runs).
    """
    require(f"chunkers.semantic_text_splitter ({label!r})", EXTRA, "semantic_text_splitter")
    from semantic_text_splitter import CodeSplitter
    from tree_sitter_language_pack import get_binding

    parameters = sizes(as_budget(budget))
    # cast: `pack_language` names only grammars the pack has, which is what its Literal type lists.
    splitter = per_language(
        lambda language: CodeSplitter(get_binding(cast("SupportedLanguage", language)), parameters["capacity"])
    )

    def run(path: str, text: str) -> list[tuple[int, str]] | None:
        language = pack_language(path)
        # chunk_indices: (character offset, chunk text), its chunks trimmed of outer whitespace.
        return None if language is None else splitter(language).chunk_indices(text)

    def spans(path: str, text: str, chunks: list[tuple[int, str]]) -> Result:
        return spans_at_offsets(text, ((at, at + len(piece)) for at, piece in chunks))

    installed = version("semantic-text-splitter")
    return peer(label, run, spans, lambda chunk: chunk[1], {**parameters, "version": installed},
                functools.partial(semantic_text_splitter, as_budget(budget), label=label))


PEER = Peer(semantic_text_splitter, sizes)
