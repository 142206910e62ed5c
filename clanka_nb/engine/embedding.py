"""The exact text clanka's semantic search embeds for a chunk: a metadata header, then numbered lines."""

from __future__ import annotations

import hashlib


def embedding_text(
    path: str, start_line: int, name: str | None, type_: str | None, parent: str | None, content: str
) -> str:
    """clanka's `chunkEmbeddingInput`: `---`, `file:`, name/type/parent where set, `---`, blank, numbered lines."""
    header = ["---", f"file: {path}"]
    fields = (("name", name), ("type", type_), ("parent", parent))
    header += [f"{label}: {value}" for label, value in fields if value is not None]
    return "\n".join([*header, "---", "", numbered_lines(start_line, content)])


def numbered_lines(start_line: int, content: str) -> str:
    """The body of clanka's embedding input: each line of `content` behind its number (`12: ...`)."""
    return "\n".join(f"{number}: {line}" for number, line in enumerate(content.split("\n"), start_line))


def input_hash(text: str) -> str:
    """clanka's `hashChunkInput`: hex SHA-256 of the UTF-8 embedding input.

    Node encodes a lone surrogate (possible in a JavaScript string) as U+FFFD; a round trip through
    UTF-16 does the same here, where encoding it would otherwise fail.
    """
    if not text.isascii():
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
