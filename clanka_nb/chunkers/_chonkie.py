"""chonkie's CodeChunker as a peer chunker: the one place it is imported and described."""

from __future__ import annotations

import functools
from typing import Any

from ..engine.settings import checked_keywords
from ..extras import require
from ._adapter import Adapter, Result
from ._budget import Budget, as_budget
from ._peer import EXTRA, Peer, pack_language, peer, per_language, version
from ._spans import spans_at_offsets


# Its own size parameters for a budget: what the factory passes, and what `peer_parameters` states.
def sizes(budget: Budget) -> dict[str, Any]:
    return {"chunk_size": budget.characters, "tokenizer": "character", "unit": "characters"}


@checked_keywords
def chonkie(budget: Budget | int | None = None, *, label: str = "chonkie CodeChunker") -> Adapter:
    """chonkie's `CodeChunker` at a character budget (tokenizer "character"), one grammar per language, with its
    own character offsets.

    Args:
        budget: The size of a chunk: a `Budget`, or characters; None: `CHUNKER_BUDGET` characters.
        label: Its label in tables.

    Returns:
        The chunker (needs the `chunkers` extra when it runs).
    """
    require(f"chunkers.chonkie ({label!r})", EXTRA, "chonkie")
    from chonkie import CodeChunker

    parameters = sizes(as_budget(budget))
    # tokenizer="character" keeps it off the model hub; a fixed language keeps it off magika's detector.
    chunker = per_language(lambda language: CodeChunker(
        tokenizer="character", chunk_size=parameters["chunk_size"], language=language))  # fmt: skip

    def run(path: str, text: str) -> list[Any] | None:
        language = pack_language(path)
        if language is None:
            return None
        return chunker(language).chunk(text) if text.strip() else []

    def spans(path: str, text: str, chunks: list[Any]) -> Result:
        return spans_at_offsets(text, ((c.start_index, c.end_index) for c in chunks))

    return peer(label, run, spans, lambda chunk: chunk.text, {**parameters, "version": version("chonkie")},
                functools.partial(chonkie, as_budget(budget), label=label))


PEER = Peer(chonkie, sizes)
