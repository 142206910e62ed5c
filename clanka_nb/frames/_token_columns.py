"""The `tokens` and `over_limit` columns: tokens of each chunk's embedding input, by the counter asked for."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine import CodeChunk
from ..engine.embedding import embedding_text
from ..engine.token_counts import TokenCounter, check_limit
from ..engine.token_counts import token_counter as resolve
from . import columns as _columns


class TokenColumns:
    """The `tokens` (and `over_limit`) columns of a chunk frame, counted file by file as the frame is built."""

    def __init__(self, token_counter: object, token_limit: object) -> None:
        self.limit = check_limit(token_limit)
        self.counter = resolve(token_counter)
        self.tokens: list[int] = []

    def count(self, chunks: Sequence[CodeChunk]) -> None:
        inputs = [embedding_text(c.path, c.start_line, c.name, c.type, c.parent, c.content) for c in chunks]
        self.tokens += self.counter.count_many(inputs)

    def add_to(self, cols: dict[str, Any]) -> tuple[_columns.Schema, dict[str, Any]]:
        """Add the columns; returns the schema and attrs to use."""
        return add_token_columns(cols, self.tokens, self.counter, self.limit)


def add_token_columns(
    cols: dict[str, Any], tokens: list[int], counter: TokenCounter, limit: int | None
) -> tuple[_columns.Schema, dict[str, Any]]:
    """Add `tokens` (and `over_limit` with a limit) to the frame's columns; returns the schema and attrs to use."""
    cols["tokens"] = tokens
    schema = {**_columns.CHUNKS, "tokens": _columns.INT}
    if limit is not None:
        cols["over_limit"] = [count > limit for count in cols["tokens"]]
        schema["over_limit"] = _columns.BOOL
    return schema, {"token_counter": counter.name, "token_limit": limit}
