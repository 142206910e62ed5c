"""Hypothesis properties of chunking random files: content, bounds, limits, coverage, overlap, order, re-chunking.

The oracles here (lines, JS length, meaning, collation) are written from SPEC.md, not taken from the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import icu
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clanka_nb.engine import Codebase, chunk_file_content

JS_WHITESPACE = frozenset(
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
try:  # Unicode 17.0, as Node 20's `\p{P}`; the engine-only CI venv has no test extras
    import unicodedata2 as ucd

    EXCLUDED: tuple[str, ...] = ("Cs",)
except ImportError:  # Python's older data: draw only characters it has assigned, where the two agree
    import unicodedata as ucd

    EXCLUDED = ("Cs", "Cn")

# ICU's root collator with V8's normalisation, used directly; punctuation from Unicode 17 as in Node 20.
COLLATOR = icu.Collator.createInstance(icu.Locale.getRoot())
COLLATOR.setAttribute(icu.UCollAttribute.NORMALIZATION_MODE, icu.UCollAttributeValue.ON)


def lines_of(text: str) -> list[str]:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return lines[:-1] if lines[-1] == "" else lines


def meaningful(line: str) -> bool:
    return any(ch not in JS_WHITESPACE and not ucd.category(ch).startswith("P") for ch in line)


def js_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def joined(lines: list[str], start: int, end: int) -> str:
    return "\n".join(lines[start - 1 : end])


@dataclass(frozen=True)
class Settings:
    size: int
    overlap: int
    limit: int | None

    def kwargs(self) -> dict:
        return {"chunk_size": self.size, "chunk_overlap": self.overlap, "chunk_max_characters": self.limit}

    @property
    def clamped_size(self) -> int:
        return max(1, self.size)

    @property
    def clamped_overlap(self) -> int:
        return max(0, min(self.clamped_size - 1, self.overlap))


chunk_settings = st.builds(
    Settings,
    size=st.integers(1, 40),
    overlap=st.integers(0, 45),
    limit=st.one_of(st.none(), st.integers(1, 400)),
)

# Lines stay under 300 characters, so no generated file is ever "probably minified".
CODE = ["const a = 1", "  return x + y", "foo(bar, baz);", "if (x) {", "def f():", "x = `tpl`", "a | b", "<div>",
        "SELECT * FROM t", "# Heading", "$price", "~"]
BLANK = ["", " ", "\t", "   ", "\u3000", "\ufeff", "\u00a0"]
PUNCT = ["}", "});", "---", "// ", "#", "*/", "«»", "...", "_", "@", "-- -"]
EMOJI = ["const s = '😀'", "😀😀😀", "🎉 party", "𝒜𝒝", "é" * 5]
LONG = ["x" * 120, "word " * 40, "😀" * 90]
# Characters that break lines in Python's str.splitlines but not in JavaScript.
ODD = ["a\vb", "c\fd", "e\u2028f", "g\u0085h", "\x1c", "\u2029"]
line_text = st.one_of(
    st.sampled_from(CODE + BLANK + PUNCT + EMOJI + LONG + ODD),
    st.text(st.characters(exclude_categories=EXCLUDED, exclude_characters="\r\n"), max_size=30),
)
separator = st.sampled_from(["\n", "\r\n", "\r"])


@st.composite
def documents(draw) -> str:
    parts = draw(st.lists(st.tuples(line_text, separator), max_size=60))
    text = "".join(line + sep for line, sep in parts)
    return text if draw(st.booleans()) else text.removesuffix(parts[-1][1]) if parts else text


def check_common(chunks, lines: list[str], s: Settings, path: str) -> None:
    """Content equals its lines, bounds, size and character limits, meaning, order."""
    for c in chunks:
        assert c.path == path
        assert 1 <= c.start_line <= c.end_line <= len(lines)
        assert c.content == joined(lines, c.start_line, c.end_line)
        assert c.end_line - c.start_line + 1 <= s.clamped_size
        if s.limit is not None and c.end_line > c.start_line:
            assert js_len(c.content) <= s.limit
        assert any(meaningful(line) for line in lines[c.start_line - 1 : c.end_line])
    spans = [(c.start_line, c.end_line) for c in chunks]
    assert spans == sorted(spans)


# --- windows ----------------------------------------------------------------------------------------


def first_meaningful(lines: list[str], at: int) -> int | None:
    return next((n for n in range(at, len(lines) + 1) if meaningful(lines[n - 1])), None)


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.SettingClampedWarning")  # settings out of range, on purpose
@settings(max_examples=400, deadline=None)
@given(documents(), chunk_settings)
def test_line_windows(text, s):
    """Windows of a .md file.

    Asserted exactly: the first window starts at the first meaningful line; each window ends at
    min(last line, start + size - 1), pulled back only as far as needed to fit the character limit
    (never before its start); the next window starts at the first meaningful line at or after
    max(start + 1, end - overlap + 1), so consecutive windows share exactly `overlap` lines (the
    clamped value) unless the window was pulled back to `overlap` lines or fewer, or the line at
    end - overlap + 1 is not meaningful; after the last window no meaningful line is left to start one.
    """
    chunks = chunk_file_content("doc.md", text, **s.kwargs())
    lines = lines_of(text)
    if all(ch in JS_WHITESPACE for ch in text):
        assert chunks == []
        return
    check_common(chunks, lines, s, "doc.md")
    assert all(c.name is None and c.type is None and c.parent is None for c in chunks)

    covered = {n for c in chunks for n in range(c.start_line, c.end_line + 1)}
    assert all(n in covered for n, line in enumerate(lines, 1) if meaningful(line))

    size, overlap, limit = s.clamped_size, s.clamped_overlap, s.limit
    assert (chunks[0].start_line if chunks else None) == first_meaningful(lines, 1)
    for i, c in enumerate(chunks):
        assert meaningful(lines[c.start_line - 1])
        cap = min(len(lines), c.start_line + size - 1)
        if c.end_line < cap:  # pulled back: one more line would exceed the limit
            assert limit is not None
            assert js_len(joined(lines, c.start_line, c.end_line + 1)) > limit
        nominal = max(c.start_line + 1, c.end_line - overlap + 1)
        following = chunks[i + 1].start_line if i + 1 < len(chunks) else None
        expected = first_meaningful(lines, nominal) if c.end_line < len(lines) else None
        assert following == expected
        if following is not None and c.end_line - c.start_line >= overlap and following == nominal:
            assert c.end_line - following + 1 == overlap


# --- declarations -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Record:
    """A declaration the generated file must give chunks for: its range and metadata."""

    start: int
    end: int
    name: str
    type: str
    parent: str | None
    truncates: bool = False  # a class with methods: keeps only its first segment when split


# Each block: (kind, lines for index k). Kinds "comment" and "blank" attach; "skip" nodes give nothing.
BLOCKS = {
    "function": lambda k: [f"function f{k}() {{", f"  return {k}", "}"],
    "arrow": lambda k: [f"const g{k} = (x) => x + {k}"],
    "variable": lambda k: [f"let v{k} = {k}"],
    "pair": lambda k: [f"const a{k} = 1, b{k} = 2"],
    "emoji": lambda k: [f"const s{k} = '😀🎉'"],
    "class": lambda k: [f"class C{k} {{", f"  m{k}() {{", f"    return {k}", "  }", "}"],
    "plain class": lambda k: [f"class P{k} {{", f"  x{k} = {k}", f"  y{k} = {k}", "}"],
    "interface": lambda k: [f"interface I{k} {{", "  id: number", "}"],
    "enum": lambda k: [f"enum E{k} {{ A, B }}"],
    "type": lambda k: [f"type T{k} = string | number"],
    "namespace": lambda k: [f"export namespace N{k} {{", f"  export const n{k} = {k}", "}"],
    "comment": lambda k: [f"// note {k}"],
    "doc comment": lambda k: [f"/** docs {k}", " * more", " */"],
    "blank": lambda k: [""],
    "spaces": lambda k: ["   "],
    "import": lambda k: [f'import {{ i{k} }} from "./i{k}"'],
    "call": lambda k: [f"call{k}()"],
}


def records_for(kind: str, k: int, first: int, start: int) -> list[Record]:
    """What a block of `kind` records, its first line at `first`, its range (with comments) from `start`."""
    last = first + len(BLOCKS[kind](k)) - 1
    simple = {"function": (f"f{k}", "function"), "arrow": (f"g{k}", "function"), "variable": (f"v{k}", "variable"),
              "pair": (f"a{k}, b{k}", "variable"), "emoji": (f"s{k}", "variable"), "plain class": (f"P{k}", "class"),
              "interface": (f"I{k}", "interface"), "enum": (f"E{k}", "enum"), "type": (f"T{k}", "type-alias")}
    if kind in simple:
        return [Record(start, last, *simple[kind], None)]
    if kind == "class":
        return [Record(start, last, f"C{k}", "class", None, truncates=True),
                Record(first + 1, first + 3, f"m{k}", "method", f"class C{k}")]
    if kind == "namespace":
        return [Record(start, last, f"N{k}", "namespace", None),
                Record(first + 1, first + 1, f"n{k}", "variable", f"namespace N{k}")]
    return []


@st.composite
def modules(draw) -> tuple[str, list[Record]]:
    kinds = draw(st.lists(st.sampled_from(sorted(BLOCKS)), min_size=1, max_size=25))
    sep = draw(separator)  # one separator per file: "\r" then an empty line then "\n" would merge
    lines: list[str] = []
    records: list[Record] = []
    for k, kind in enumerate(kinds):
        first = len(lines) + 1
        # The range reaches up over directly preceding comments, across blank lines only.
        start, j = first, k - 1
        while j >= 0 and kinds[j] in ("blank", "spaces"):
            j -= 1
        while j >= 0 and kinds[j] in ("comment", "doc comment"):
            start = sum(len(BLOCKS[kinds[i]](i)) for i in range(j)) + 1
            j -= 1
            while j >= 0 and kinds[j] in ("blank", "spaces"):
                j -= 1
        records.extend(records_for(kind, k, first, start))
        lines.extend(BLOCKS[kind](k))
    text = sep.join(lines) + (sep if draw(st.booleans()) else "")
    return text, records


def segments_count(lines: list[str], r: Record, s: Settings) -> int:
    """1 when the range stays whole, else more (enough to know whether a class is truncated)."""
    fits = s.limit is None or js_len(joined(lines, r.start, r.end)) <= s.limit
    return 1 if fits and r.end - r.start + 1 <= s.clamped_size else 2


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.SettingClampedWarning")  # settings out of range, on purpose
@settings(max_examples=300, deadline=None)
@given(modules(), chunk_settings)
def test_declaration_chunks(module, s):
    text, records = module
    chunks = chunk_file_content("mod.ts", text, **s.kwargs())
    lines = lines_of(text)
    check_common(chunks, lines, s, "mod.ts")

    if not records:  # only comments, blanks and skipped statements: line windows
        assert all(c.type is None and c.name is None and c.parent is None for c in chunks)
        return
    keys = [(c.start_line, c.end_line, c.name, c.type, c.parent) for c in chunks]
    assert len(keys) == len(set(keys)), "a chunk was emitted twice"
    for a, b in pairwise(chunks):
        if (a.start_line, a.end_line) == (b.start_line, b.end_line):
            assert COLLATOR.getSortKey(a.name or "") <= COLLATOR.getSortKey(b.name or "")

    by_meta: dict[tuple, list] = {}
    for c in chunks:
        by_meta.setdefault((c.name, c.type, c.parent), []).append(c)
    assert set(by_meta) == {(r.name, r.type, r.parent) for r in records}
    for r in records:
        mine = by_meta[(r.name, r.type, r.parent)]
        assert min(c.start_line for c in mine) == r.start, r
        assert all(r.start <= c.start_line and c.end_line <= r.end for c in mine), r
        if r.truncates and segments_count(lines, r, s) > 1:
            assert len(mine) == 1, r
            continue
        covered = {n for c in mine for n in range(c.start_line, c.end_line + 1)}
        assert all(n in covered for n in range(r.start, r.end + 1) if meaningful(lines[n - 1])), r
        # A segment starts at max(start + 1, end - overlap + 1) after the one before; any segment in
        # between that was dropped had no meaningful line, so the first line it would start at is not.
        for a, b in pairwise(sorted(mine, key=lambda c: c.start_line)):
            nominal = max(a.start_line + 1, a.end_line - s.clamped_overlap + 1)
            assert b.start_line == nominal or (b.start_line > nominal and not meaningful(lines[nominal - 1])), r


# --- re-chunking -------------------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.SettingClampedWarning")  # settings out of range, on purpose
@settings(max_examples=100, deadline=None)
@given(documents(), modules(), st.lists(chunk_settings, min_size=1, max_size=4))
def test_a_codebase_rechunks_exactly_like_chunk_file_content(doc, module, all_settings):
    texts = {"doc.md": doc, "mod.ts": module[0], "mod.mjs": module[0]}
    codebase = Codebase.from_texts(texts)
    for s in all_settings:
        expected = [c for path, text in texts.items() for c in chunk_file_content(path, text, **s.kwargs())]
        assert codebase.chunks(**s.kwargs()) == expected
