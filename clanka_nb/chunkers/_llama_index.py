"""LlamaIndex's CodeSplitter as a peer chunker: the one place it is imported and described."""

from __future__ import annotations

import functools
from typing import Any, cast

from ..engine.settings import checked_keywords
from ..extras import require
from ._adapter import Adapter, Result
from ._budget import Budget, as_budget
from ._peer import EXTRA, Peer, pack_language, peer, per_language, version
from ._spans import place_texts, warn_unplaced


# Its own size parameters for a budget: what the factory passes, and what `peer_parameters` states.
def sizes(budget: Budget) -> dict[str, Any]:
    return {"max_chars": budget.characters, "count_mode": "char", "unit": "characters"}


@checked_keywords
def llama_index(budget: Budget | int | None = None, *, label: str = "LlamaIndex CodeSplitter") -> Adapter:
    """LlamaIndex's `CodeSplitter` at `max_chars` characters. It gives texts alone (stripped), so each is found in
    the file in order; a file whose parse begins with an error it refuses (ValueError): not handled.

    Args:
        budget: The size of a chunk: a `Budget`, or characters; None: `CHUNKER_BUDGET` characters.
        label: Its label in tables.

    Returns:
        The chunker (needs the `chunkers` extra when it runs).
    """
    require(f"chunkers.llama_index ({label!r})", EXTRA, "llama_index")
    from llama_index.core.node_parser import CodeSplitter

    parameters = sizes(as_budget(budget))
    # tokenizer=list: without one it builds a tiktoken tokenizer (a download); in "char" mode it is not used.
    # split_text reads max_chars only, but the line overlap must be above 0.
    splitter = per_language(lambda language: CodeSplitter(
        language=language, chunk_lines_overlap=1, max_chars=parameters["max_chars"], tokenizer=list))  # fmt: skip

    def run(path: str, text: str) -> list[str] | None:
        language = pack_language(path)
        if language is None:
            return None
        try:
            return cast("list[str]", splitter(language).split_text(text))
        except ValueError:  # "Could not parse code with language ...": it refuses the file
            return None

    def spans(path: str, text: str, pieces: list[str]) -> Result:
        placed = place_texts(text, pieces)
        warn_unplaced(label, path, placed.unplaced, len(pieces))
        return placed.spans

    return peer(label, run, spans, str, {**parameters, "version": version("llama-index-core")},
                functools.partial(llama_index, as_budget(budget), label=label))


PEER = Peer(llama_index, sizes)
