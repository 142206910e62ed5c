"""The `tokens` and `over_limit` columns: tokens of each chunk's embedding input, by the counter asked for."""

from __future__ import annotations

from typing import Any

from ..engine._embedding import embedding_text
from ..index._tokens import token_counter as resolve
from . import _columns


def check_limit(token_limit: object) -> int | None:
    if token_limit is None:
        return None
    if isinstance(token_limit, bool) or not isinstance(token_limit, int) or token_limit < 1:
        msg = (
            f"token_limit must be a positive int (e.g. 8191, the input limit of OpenAI's embedding models), "
            f"got {token_limit!r}"
        )
        raise ValueError(msg)
    return token_limit


def add_token_columns(cols: dict[str, list[Any]], token_counter: object, token_limit: object) -> tuple[
        _columns.Schema, dict[str, Any]]:
    """Add `tokens` (and `over_limit` with a limit) to the frame's columns; returns the schema and attrs to use."""
    limit = check_limit(token_limit)
    counter = resolve(token_counter)
    inputs = [
        embedding_text(*fields)
        for fields in zip(cols["path"], cols["start_line"], cols["name"], cols["type"], cols["parent"],
                          cols["content"], strict=True)
    ]
    cols["tokens"] = counter.count_many(inputs)
    schema = {**_columns.CHUNKS, "tokens": _columns.INT}
    if limit is not None:
        cols["over_limit"] = [count > limit for count in cols["tokens"]]
        schema["over_limit"] = _columns.BOOL
    return schema, {"token_counter": counter.name, "token_limit": limit}
