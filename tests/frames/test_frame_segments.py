"""The splitting rule in its two places: `SegmentPlan.spans` (numpy, every file at once) gives the same spans as
the engine's `declaration_segments` / `_segments`, file by file, at any line setting."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clanka_nb import engine, sample_codebase
from clanka_nb.frames._segments import SegmentPlan
from clanka_nb.frames.lines import LineIndex

REPO = Path(__file__).resolve().parents[2]

# Classes whose methods make them truncate, declarations longer than any small size, blank and
# comment-only stretches (segments with no meaningful line are dropped), a file with no declaration.
EDGES = {
    "shapes.ts": "export class Shape {\n"
    + "".join(f"  area{i}(): number {{\n    // note\n\n    return {i};\n  }}\n" for i in range(6))
    + "}\n\n" + "export function long() {\n" + "".join(f"  let v{i} = {i};\n\n\n" for i in range(25)) + "}\n",
    "twice.ts": "export namespace A {\n  export const x = 1;\n}\nexport namespace A {\n  export const y = 2;\n}\n",
    # Equal segments of one name: `a` twice on a line; an inner `twin` on the lines of an outer one's piece.
    "same.ts": "let a = 1; let a = 2\nfunction twin() {\n" + "  x();\n" * 9
    + "  function twin() {\n" + "    y();\n" * 8 + "  }\n" + "  z();\n" * 19 + "}\n",
    "notes.md": "".join(f"note {i}\n\n" for i in range(30)),
    "comments.ts": "/*\n" + " * words\n" * 40 + " */\nexport function f() {\n" + "  // c\n" * 30 + "}\n",
}


# Extended mode's head rule: doc comments longer than small sizes above classes and their methods.
_DOC = "/**\n" + "".join(f" * line {i} of the doc.\n" for i in range(14)) + " */\n"
EXTENDED_EDGES = {
    "Gson.java": "package x;\n\n" + _DOC + "public final class Gson {\n  private int a;\n\n"
    + "".join(_DOC.replace("\n", "\n  ") + f"public int m{i}() {{\n    return {i};\n  }}\n" for i in range(3))
    + "}\n",
    "lib.rs": "".join("/// w\n" * (5 + 3 * i) + f"pub fn f{i}() {{\n" + "    1\n" * 12 + "}\n\n" for i in range(4)),
    "comments.ts": EDGES["comments.ts"],
}


def _codebases() -> list[engine.Codebase]:
    return [
        engine.Codebase(sample_codebase()),
        engine.Codebase(REPO / "clanka_nb" / "engine"),  # real Python
        engine.Codebase.from_texts(EDGES),
        engine.Codebase(REPO / "clanka_nb" / "engine", languages="extended"),  # real Python, parsed
        engine.Codebase.from_texts(EXTENDED_EDGES, languages="extended"),
    ]


CODEBASES = _codebases()
INDEXES = [(codebase, LineIndex(codebase, codebase.files)) for codebase in CODEBASES]
PLANS = [(codebase, index, SegmentPlan(index)) for codebase, index in INDEXES]


def _check(size: int, overlap: int) -> None:
    setting = engine.ChunkSettings.build(size, overlap, None, warn=False)
    for codebase, index, plan in PLANS:
        starts, ends, counts = plan.spans(setting)
        files = index.file_of(starts)
        for i, path in enumerate(index.paths):
            chunking = codebase.file_chunking(path, setting)
            spans, chunker = list(chunking.spans), chunking.chunker
            shift = int(index.offsets[i]) - 1
            here = zip(starts[files == i].tolist(), ends[files == i].tolist(), strict=True)
            mine = Counter((s - shift, e - shift) for s, e in here)
            if chunker == "ast":
                assert mine == Counter(spans), (path, size, overlap)
                assert counts[i] == len(spans)
            else:  # windows or nothing: left to the engine
                assert counts[i] == 0 and not mine, (path, size, overlap)


@pytest.mark.parametrize(("size", "overlap"), [(1, 0), (2, 1), (5, 0), (10, 3), (30, 0), (40, 39), (200, 0)])
def test_spans_equal_the_engines(size: int, overlap: int) -> None:
    _check(size, overlap)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=1, max_value=120), st.data())
def test_spans_equal_the_engines_at_any_line_setting(size: int, data: st.DataObject) -> None:
    _check(size, data.draw(st.integers(min_value=0, max_value=size + 5)))  # over size - 1: clamped as the engine


def test_a_character_limit_is_refused() -> None:
    plan = PLANS[0][2]
    with pytest.raises(ValueError, match="chunk_max_characters"):
        plan.spans(engine.ChunkSettings.build(10, 0, 500))
