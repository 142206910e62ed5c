"""`Codebase.file_chunking` gives exactly the lines of `file_chunks`, and the chunker the engine used."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clanka_nb import engine, sample_codebase
from clanka_nb.engine._chunker import declaration_segments


@pytest.fixture(scope="module")
def codebase() -> engine.Codebase:
    return engine.Codebase(sample_codebase())


def _expected_chunker(text: engine.PreparedText, setting: engine.ChunkSettings) -> str | None:
    """The reference's rule written out: declaration chunks when any survive, else windows, else nothing."""
    if text.status is not engine.FileStatus.CHUNKED:
        return None
    return "ast" if text.declarations and declaration_segments(text, setting) else "window"


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.SettingClampedWarning")  # settings out of range, on purpose
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
        record = codebase.file_chunking(path, setting)
        text = codebase.text(path)
        assert record.path == path and record.status is codebase.report(path).status
        assert sorted(record.spans) == sorted((c.start_line, c.end_line) for c in chunks)
        assert record.chunker == _expected_chunker(text, setting)
        assert (record.chunker is None) == (not chunks)
        if record.chunker == "window":
            assert not any(c.name or c.type or c.parent for c in chunks)
        # One pass gives the same chunks and the same record, spans in the chunks' order.
        made, same = text.chunked(setting)
        assert made == chunks
        assert same.chunker == record.chunker and same.spans == tuple((c.start_line, c.end_line) for c in chunks)


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.UnreadableFileWarning")  # a file that cannot be read, on purpose
def test_unreadable_files_have_no_spans(tmp_path):
    (tmp_path / "a.ts").write_text("export const a = 1\n")
    codebase = engine.Codebase(tmp_path, paths=["a.ts", "gone.ts"])
    setting = engine.ChunkSettings.build()
    assert codebase.file_chunking("gone.ts", setting) == engine.FileChunking(
        "gone.ts", engine.FileStatus.UNREADABLE, None, ()
    )
    assert codebase.file_chunking("a.ts", setting) == engine.FileChunking(
        "a.ts", engine.FileStatus.CHUNKED, "ast", ((1, 1),)
    )


# A syntax error on the first line, in extended mode, becomes an unnamed declaration range: its chunk has
# no name, type or parent, yet the engine chunked the file by its declarations.
BROKEN_FIRST = {
    "broken.py": "@@@ broken\nprint(1)\nprint(2)\n",
    "broken.go": "func {\npackage main\nfunc main() {}\n",
}


@pytest.mark.parametrize("path", sorted(BROKEN_FIRST))
def test_a_syntax_error_range_is_chunked_by_declarations(path):
    codebase = engine.Codebase.from_texts(BROKEN_FIRST, languages="extended")
    setting = engine.ChunkSettings.build()
    chunks = codebase.file_chunks(path, setting)
    assert chunks[0].start_line == 1 and (chunks[0].name, chunks[0].type, chunks[0].parent) == (None, None, None)
    assert codebase.file_chunking(path, setting).chunker == "ast"
    assert engine.explain_file(codebase.text(path), setting)[0].rule == "declaration"


def test_the_record_says_why_a_file_gives_no_chunks():
    codebase = engine.Codebase.from_texts({"e.ts": "  \n", "b.ts": "{\n}\n"})
    setting = engine.ChunkSettings.build()
    assert codebase.file_chunking("e.ts", setting) == engine.FileChunking("e.ts", engine.FileStatus.EMPTY, None, ())
    assert codebase.file_chunking("b.ts", setting).status is engine.FileStatus.NOTHING_MEANINGFUL


TIED = """export class Pair {
  left() { return 1 }
}
export function \u00e9t\u00e9() { return 2 }
export function ete() { return 3 }
declare function over(a: string): string; declare function over(a: number): number; function Over(a: any) { return a }
"""


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.SettingClampedWarning")  # settings out of range, on purpose
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
    size, overlap, limit = settings.effective_size, settings.effective_overlap, settings.effective_max_characters
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


def _segments_in_order_model(text: engine.PreparedText, setting: engine.ChunkSettings) -> list[tuple]:
    """The rule as the reference states it, without the engine's shortcuts: every piece of every range in
    declaration order, pieces with no meaningful line dropped, repeats of a (lines, name, type, parent)
    dropped, then a stable sort by start, end and the name's ICU collation key."""
    from clanka_nb.engine._chunker import _segments
    from clanka_nb.engine._collation import collation_key

    kept, seen = [], set()
    for start, end, d, truncates in text.plan():
        pieces = _segments(text, start, end, setting)
        for s, e in pieces[:1] if truncates else pieces:
            key = (s, e, d.name, d.type, d.parent)
            if any(text.is_meaningful(line) for line in range(s, e + 1)) and key not in seen:
                seen.add(key)
                kept.append((s, e, d))
    return sorted(kept, key=lambda k: (k[0], k[1], collation_key(k[2].name or "")))


_NAMES = st.sampled_from([None, "a", "B", "b", "ä", "_x", "a b"])


@settings(max_examples=200, deadline=None)
@given(
    lines=st.lists(st.sampled_from(["x = 1", "", "  }", "// c", "y"]), min_size=1, max_size=30),
    ranges=st.lists(
        st.tuples(
            st.integers(1, 30), st.integers(0, 8), _NAMES, st.sampled_from(["function", "class", "method", None]),
            st.sampled_from([None, "class a", "class B"]),
        ),
        max_size=12,
    ),
    size=st.integers(1, 6),
    overlap=st.integers(0, 5),
    limit=st.one_of(st.none(), st.integers(1, 40)),
)
def test_declaration_segments_follow_the_rule_in_any_declaration_order(lines, ranges, size, overlap, limit):
    # Out of order, repeated, nested and overlapping ranges: the engine's shortcut (no sort and no repeat
    # check while segments come in order) must give what the plain rule gives.
    from clanka_nb.engine._declarations import Declaration

    decls = [Declaration(s, s + length, name, kind, parent) for s, length, name, kind, parent in ranges]
    text = engine.PreparedText("f.ts", lines, "typescript", decls)
    setting = engine.ChunkSettings.build(size, overlap, limit, warn=False)
    assert declaration_segments(text, setting) == _segments_in_order_model(text, setting)
