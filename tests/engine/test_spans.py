"""`Codebase.file_spans` gives exactly the lines of `file_chunks`, and says which chunker made them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clanka_nb import engine, sample_codebase


@pytest.fixture(scope="module")
def codebase() -> engine.Codebase:
    return engine.Codebase(sample_codebase())


@settings(max_examples=40, deadline=None)
@given(
    size=st.integers(min_value=-2, max_value=70),
    overlap=st.integers(min_value=-1, max_value=80),
    limit=st.one_of(st.none(), st.integers(min_value=1, max_value=3000)),
)
def test_spans_are_the_chunks_lines_at_any_setting(codebase, size, overlap, limit):
    setting = engine.ChunkSettings.build(size, overlap, limit)
    for path in codebase.files:
        chunks = codebase.file_chunks(path, setting)
        spans, chunker = codebase.file_spans(path, setting)
        assert sorted(spans) == sorted((c.start_line, c.end_line) for c in chunks)
        if not chunks:
            assert chunker is None
        else:
            has_metadata = any(c.name or c.type or c.parent for c in chunks)
            assert chunker == ("ast" if has_metadata else "window")


def test_unreadable_files_have_no_spans(tmp_path):
    (tmp_path / "a.ts").write_text("export const a = 1\n")
    codebase = engine.Codebase(tmp_path, paths=["a.ts", "gone.ts"])
    setting = engine.ChunkSettings.build()
    assert codebase.file_spans("gone.ts", setting) == ([], None)
    assert codebase.file_spans("a.ts", setting) == ([(1, 1)], "ast")


TIED = """export class Pair {
  left() { return 1 }
}
export function \u00e9t\u00e9() { return 2 }
export function ete() { return 3 }
declare function over(a: string): string; declare function over(a: number): number; function Over(a: any) { return a }
"""


@settings(max_examples=30, deadline=None)
@given(
    size=st.integers(min_value=1, max_value=40),
    overlap=st.integers(min_value=0, max_value=40),
    limit=st.one_of(st.none(), st.integers(min_value=1, max_value=2000)),
)
def test_heads_are_the_chunks_in_order_without_content(codebase, size, overlap, limit):
    from clanka_nb.engine._chunker import chunks_of, heads_of

    setting = engine.ChunkSettings.build(size, overlap, limit)
    tied = engine.Codebase.from_texts({"tied.ts": TIED, "tied.py": "def a():\n    return 1\n"}, languages="extended")
    for source in (codebase, tied):
        for path in source.files:
            text = source.text(path)
            if text is None:
                continue
            expected = [(c.path, c.start_line, c.end_line, c.name, c.type, c.parent) for c in chunks_of(text, setting)]
            assert [tuple(head) for head in heads_of(text, setting)] == expected


def _segments_by_loop(text, start, end, settings):
    """The reference's loop, one piece at a time (what `_segments` must equal)."""
    size, overlap, limit = settings.chunk_size, settings.chunk_overlap, settings.chunk_max_characters
    if end - start + 1 <= size and (limit is None or text.length(start, end) <= limit):
        return [(start, end)]
    out = []
    while True:
        stop = text.segment_end(start, min(end, start + size - 1), limit)
        out.append((start, stop))
        if stop >= end:
            return out
        start = max(start + 1, stop - overlap + 1)


@settings(max_examples=200, deadline=None)
@given(
    size=st.integers(min_value=-1, max_value=30),
    overlap=st.integers(min_value=-1, max_value=35),
    limit=st.one_of(st.none(), st.integers(min_value=1, max_value=200)),
    first=st.integers(min_value=1, max_value=40),
    length=st.integers(min_value=0, max_value=120),
)
def test_declaration_pieces_are_the_reference_loop(size, overlap, limit, first, length):
    import warnings

    from clanka_nb.engine._chunker import _segments

    content = "".join(f"line {n} " + "x" * (n % 17) + "\n" for n in range(200))
    text = engine.Codebase.from_texts({"a.txt": content}).text("a.txt")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        setting = engine.ChunkSettings.build(size, overlap, limit)
    end = min(text.line_count, first + length)
    assert _segments(text, first, end, setting) == _segments_by_loop(text, first, end, setting)
