"""LangChain's RecursiveCharacterTextSplitter.from_language as a peer chunker: the one place it is imported and
described."""

from __future__ import annotations

import functools
from typing import Any

from ..engine import language_of
from ..engine.settings import checked_keywords
from ..extras import require
from ._adapter import Adapter, Result
from ._budget import Budget, as_budget
from ._peer import EXTRA, Peer, peer, per_language, version
from ._spans import spans_at_offsets, warn_unplaced

# The engine's language names -> LangChain's `Language` values where they differ (the rest are the same word).
_LANGCHAIN_NAMES = {"javascript": "js", "typescript": "ts", "tsx": "ts"}


# Its own size parameters for a budget: what the factory passes, and what `peer_parameters` states.
def sizes(budget: Budget) -> dict[str, Any]:
    return {"chunk_size": budget.characters, "chunk_overlap": 0, "length_function": "len", "unit": "characters"}


@checked_keywords
def langchain(budget: Budget | int | None = None, *, label: str = "LangChain from_language") -> Adapter:
    """LangChain's `RecursiveCharacterTextSplitter.from_language`: the language's separators tried in turn
    (regular expressions, no parse), chunks of at most `chunk_size` characters, no overlap, with the offsets it
    finds itself (`add_start_index`).

    Args:
        budget: The size of a chunk: a `Budget`, or characters; None: `CHUNKER_BUDGET` characters.
        label: Its label in tables.

    Returns:
        The chunker (needs the `chunkers` extra when it runs).
    """
    require(f"chunkers.langchain ({label!r})", EXTRA, "langchain_text_splitters")
    from langchain_text_splitters import Language, RecursiveCharacterTextSplitter

    parameters = sizes(as_budget(budget))
    known = {language.value for language in Language}
    splitter = per_language(lambda value: RecursiveCharacterTextSplitter.from_language(
        Language(value), chunk_size=parameters["chunk_size"], chunk_overlap=0, add_start_index=True))  # fmt: skip

    def run(path: str, text: str) -> list[Any] | None:
        name = language_of(path)
        value = _LANGCHAIN_NAMES.get(name, name)
        return splitter(value).create_documents([text]) if value in known else None

    def spans(path: str, text: str, documents: list[Any]) -> Result:
        # Each chunk's offset as it found it in the text, in order; -1 where it found none.
        found = [(d.metadata["start_index"], len(d.page_content)) for d in documents]
        placed = [(start, start + length) for start, length in found if start >= 0]
        warn_unplaced(label, path, len(found) - len(placed), len(found))
        return spans_at_offsets(text, placed)

    installed = version("langchain-text-splitters")
    return peer(label, run, spans, lambda document: document.page_content, {**parameters, "version": installed},
                functools.partial(langchain, as_budget(budget), label=label))


PEER = Peer(langchain, sizes)
