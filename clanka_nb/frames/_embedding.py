"""The exact text clanka's semantic search embeds for a chunk: a metadata header, then numbered lines."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from .. import engine
from ..engine.embedding import embedding_text
from ..engine.settings import checked_keywords

_FIELDS = ("path", "start_line", "name", "type", "parent", "content")
_REQUIRED = ("path", "start_line", "content")


def _present(value: Any) -> Any:
    return None if value is None or value is pd.NA or (isinstance(value, float) and value != value) else value


@checked_keywords
def embedding_input(chunk: pd.Series | engine.CodeChunk | Mapping[str, Any]) -> str:
    """What clanka embeds for this chunk (a chunk-frame row, an `engine.CodeChunk` or a mapping).

    `---`, `file: <path>`, then `name:`, `type:`, `parent:` where present (not NA), `---`, a blank line,
    and each content line as `<line number>: <text>`, joined with LF.

    Args:
        chunk: A chunk-frame row, an `engine.CodeChunk` or a mapping with the same keys.

    Returns:
        The text clanka embeds for the chunk, lines joined with LF.

    Examples:
        >>> print(cn.embedding_input(cn.chunk_codebase().iloc[0]))
    """
    if isinstance(chunk, engine.CodeChunk):
        values = [getattr(chunk, field) for field in _FIELDS]
    elif isinstance(chunk, pd.Series | Mapping):
        missing = [field for field in _REQUIRED if field not in chunk]
        if missing:
            msg = f"the chunk has no {', '.join(missing)}; pass a row of a chunk frame (frame.iloc[i]) or a CodeChunk"
            raise KeyError(msg)
        values = [_present(chunk.get(field)) for field in _FIELDS]
    else:
        msg = f"embedding_input takes a chunk-frame row, a CodeChunk or a mapping, got {type(chunk).__name__}"
        raise TypeError(msg)
    path, start, name, type_, parent, content = values
    return embedding_text(str(path), int(start), name, type_, parent, str(content))
