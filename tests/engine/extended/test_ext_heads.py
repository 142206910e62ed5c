"""Extended mode's head rule: a declaration whose leading comment fills its first piece still has its own first
line (the signature) in its head chunk; clanka mode keeps the reference's comment pieces; `explain` names the
lines of a range that fall in no chunk."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clanka_nb import engine

from ._support import chunks, line

_DOC = "/**\n" + "".join(f" * line {i} of the doc.\n" for i in range(14)) + " */\n"
JAVA = (
    "package x;\n\n" + _DOC + "public final class Gson {\n  private int a;\n\n"
    + "".join(_DOC.replace("\n", "\n  ") + f"public int m{i}() {{\n    return a + {i};\n  }}\n" for i in range(3))
    + "}\n"
)
RUST = "".join("/// words\n" * (4 + 6 * i) + f"pub fn f{i}() -> u32 {{\n" + "    1\n" * 9 + "}\n\n" for i in range(4))
GO = "package x\n\n" + "".join("// words\n" * 25 + f"func F{i}() int {{\n\treturn {i}\n}}\n\n" for i in range(3))
PY = "".join("# words\n" * 18 + f"def f{i}():\n    return {i}\n\n\n" for i in range(3))
FILES = {"Gson.java": JAVA, "lib.rs": RUST, "x.go": GO, "m.py": PY}


def _own_lines(path: str, text: str) -> dict[tuple[str | None, str | None], int]:
    """Each declaration's own first line (after its comments), from the engine's parse."""
    prepared = engine.Codebase.from_texts({path: text}, languages="extended").text(path)
    return {(d.name, d.type): d.body_start for d in prepared.declarations if d.body_start is not None}


@pytest.mark.parametrize("path", sorted(FILES))
@given(size=st.integers(1, 30), overlap=st.integers(0, 29), limit=st.sampled_from([None, 80, 400]))
@settings(max_examples=40, deadline=None)
def test_every_head_chunk_holds_its_declarations_own_first_line(path: str, size: int, overlap: int, limit) -> None:
    text = FILES[path]
    own = _own_lines(path, text)
    got = chunks(path, text, chunk_size=size, chunk_overlap=min(overlap, size - 1), chunk_max_characters=limit)
    first: dict[tuple[str | None, str | None], engine.CodeChunk] = {}
    for chunk in got:
        key = (chunk.name, chunk.type)
        if key in own and (key not in first or chunk.start_line < first[key].start_line):
            first[key] = chunk
    assert set(first) == set(own)  # every declaration has a chunk
    for key, chunk in first.items():
        assert chunk.start_line <= own[key] <= chunk.end_line, (key, chunk.start_line, chunk.end_line, own[key])


def test_a_typed_chunk_is_never_comment_alone() -> None:
    for path, text in FILES.items():
        for chunk in chunks(path, text, chunk_size=10):
            code = [ln for ln in chunk.content.split("\n") if ln.strip() and not ln.strip().startswith(("/", "*", "#"))]
            assert code, (path, chunk.name, chunk.start_line, chunk.end_line)


def test_the_class_line_is_in_the_class_head() -> None:
    (head,) = [c for c in chunks("Gson.java", JAVA, chunk_size=10) if c.name == "Gson"]
    assert "public final class Gson {" in head.content
    assert head.start_line == line(JAVA, "public final class Gson") - 5  # half a chunk of its comment above it


def test_clanka_mode_keeps_the_comment_pieces() -> None:
    ts = "/*\n" + " * words\n" * 40 + " */\nexport function f() {\n" + "  // c\n" * 30 + "}\n"
    got = engine.chunk_file_content("c.ts", ts, chunk_size=10, chunk_overlap=0)
    assert got[0].start_line == 1 and got[0].name == "f"  # the reference's first piece: comment alone
    extended = engine.chunk_file_content("c.ts", ts, chunk_size=10, chunk_overlap=0, languages="extended")
    assert extended[0].start_line == line(ts, "export function f") - 5


def test_explain_names_the_lines_that_fall_in_no_chunk() -> None:
    prepared = engine.Codebase.from_texts({"Gson.java": JAVA}, languages="extended").text("Gson.java")
    explained = engine.explain_file(prepared, engine.ChunkSettings.build(chunk_size=10))
    (head,) = [e for e in explained if e.chunk.name == "Gson"]
    signature = line(JAVA, "public final class Gson")
    assert f"so that it holds the declaration's own first line ({signature})" in head.why
    assert "fall in no chunk (4-" in head.why
    covered = {n for e in explained for n in range(e.chunk.start_line, e.chunk.end_line + 1)}
    assert 4 not in covered  # what the sentence names is really in no chunk
