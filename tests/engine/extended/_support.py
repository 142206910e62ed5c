"""Helpers for the extended-mode tests: chunk a source and locate lines in it by their text."""

from __future__ import annotations

import textwrap

from clanka_nb.engine import CodeChunk, chunk_file_content

Row = tuple[str | None, str | None, str | None, int, int]


def source(text: str) -> str:
    """Dedented source without its first newline, so line 1 is the first written line."""
    return textwrap.dedent(text).lstrip("\n")


def chunks(path: str, text: str, *, chunk_size: int = 500, **settings: object) -> list[CodeChunk]:
    return chunk_file_content(path, text, chunk_size=chunk_size, languages="extended", **settings)  # type: ignore[arg-type]


def rows(path: str, text: str, **settings: object) -> set[Row]:
    """(name, type, parent, start, end) of every chunk; large chunk_size: one chunk per declaration."""
    return {(c.name, c.type, c.parent, c.start_line, c.end_line) for c in chunks(path, text, **settings)}


def line(text: str, needle: str, nth: int = 1) -> int:
    """1-based number of the nth line containing `needle`."""
    found = [i for i, content in enumerate(text.split("\n"), 1) if needle in content]
    if len(found) < nth:
        msg = f"{needle!r} is on {len(found)} lines of the test source, wanted occurrence {nth}"
        raise AssertionError(msg)
    return found[nth - 1]


def named(path: str, text: str) -> dict[str | None, list[CodeChunk]]:
    """Chunks by name."""
    out: dict[str | None, list[CodeChunk]] = {}
    for chunk in chunks(path, text):
        out.setdefault(chunk.name, []).append(chunk)
    return out


def closing(text: str, needle: str, nth: int = 1) -> int:
    """1-based line closing the block opened on the line containing `needle`.

    The first later line, indented no deeper than the opening one, that starts with `}`, `end` or `)`.
    """
    all_lines = text.split("\n")
    opening = line(text, needle, nth)
    indent = len(all_lines[opening - 1]) - len(all_lines[opening - 1].lstrip())
    for number in range(opening + 1, len(all_lines) + 1):
        content = all_lines[number - 1]
        stripped = content.lstrip()
        if stripped and len(content) - len(stripped) <= indent and stripped.startswith(("}", "end", ")")):
            return number
    msg = f"no closing line for {needle!r} in the test source"
    raise AssertionError(msg)
