"""Reading an index: the stored input parsed back into path, lines and name; KNN search through vec0."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engine.settings import checked_keywords

MAX_K = 4096  # sqlite-vec's limit on k in a KNN query

SEARCH_COLUMNS = ("path", "start_line", "end_line", "name", "type", "parent", "distance", "input", "content")


@dataclass(frozen=True, slots=True)
class ParsedInput:
    path: str | None
    start_line: int | None
    end_line: int | None
    name: str | None
    type: str | None
    parent: str | None
    content: str | None


_EMPTY = ParsedInput(None, None, None, None, None, None, None)


@checked_keywords
def parse_input(text: str) -> ParsedInput:
    """Invert clanka's `chunkEmbeddingInput`; all None when the text is not in that form.

    Args:
        text: An embedding input, as clanka's `chunkEmbeddingInput` writes it.

    Returns:
        Its path, lines, name, type, parent and content; all None when the text is not in that form.

    Examples:
        >>> from clanka_nb.index import parse_input
        >>> parse_input(cn.embedding_input(cn.chunk_codebase().iloc[0])).path
    """
    lines = text.split("\n")
    if not lines or lines[0] != "---":
        return _EMPTY
    try:
        end = lines.index("---", 1)
    except ValueError:
        return _EMPTY
    fields: dict[str, str] = {}
    for line in lines[1:end]:
        label, _, value = line.partition(": ")
        fields.setdefault(label, value)
    body = lines[end + 2 :] if len(lines) > end + 1 and lines[end + 1] == "" else None
    if "file" not in fields or not body:
        return _EMPTY
    number, colon, _ = body[0].partition(": ")
    if not colon or not number.isdigit():
        return _EMPTY
    start = int(number)
    content: list[str] = []
    for offset, line in enumerate(body):
        prefix = f"{start + offset}: "
        if not line.startswith(prefix):
            return _EMPTY
        content.append(line[len(prefix) :])
    return ParsedInput(
        fields["file"], start, start + len(body) - 1, fields.get("name"), fields.get("type"), fields.get("parent"),
        "\n".join(content),
    )


def row_frame(rows: list[tuple[Any, ...]]) -> Any:
    """id, path, start_line, end_line, name, type, parent, hash, sync_id, input as a DataFrame."""
    import pandas as pd

    records = []
    for row_id, path, content, digest, sync_id in rows:
        parsed = parse_input(content)
        records.append(
            (row_id, path, parsed.start_line, parsed.end_line, parsed.name, parsed.type, parsed.parent, digest,
             sync_id, content)
        )
    frame = pd.DataFrame.from_records(
        records,
        columns=["id", "path", "start_line", "end_line", "name", "type", "parent", "hash", "sync_id", "input"],
    )
    for column in ("start_line", "end_line"):
        frame[column] = frame[column].astype("Int64")
    return frame


def check_limit(limit: object) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_K:
        msg = f"limit must be an int from 1 to {MAX_K} (sqlite-vec's largest k), got {limit!r}"
        raise ValueError(msg)
    return limit


def knn(connection: Any, vector: np.ndarray | None, limit: int) -> Any:
    """The `limit` stored chunks nearest `vector` (L2), nearest first, as the search DataFrame (None: no rows)."""
    import pandas as pd

    rows = [] if vector is None else connection.execute(
        """select chunks.path, chunks.content, chunk_vectors.distance
          from chunk_vectors
          JOIN chunks ON chunks.id = chunk_vectors.rowid
          WHERE chunk_vectors.vector MATCH ?
          AND k = CAST(? AS INTEGER)
          ORDER BY chunk_vectors.distance""",
        (np.ascontiguousarray(vector, dtype=np.float32).tobytes(), check_limit(limit)),
    ).fetchall()
    records = []
    for path, text, distance in rows:
        parsed = parse_input(text)
        records.append(
            (path, parsed.start_line, parsed.end_line, parsed.name, parsed.type, parsed.parent, float(distance),
             text, parsed.content)
        )
    frame = pd.DataFrame.from_records(records, columns=list(SEARCH_COLUMNS))
    # As in the chunk frames: a missing name, type or parent is <NA> (the string dtype), not None beside NaN.
    return frame.astype({
        "start_line": "Int64", "end_line": "Int64", "distance": "float64",
        **dict.fromkeys(("path", "name", "type", "parent", "input", "content"), "string"),
    })
