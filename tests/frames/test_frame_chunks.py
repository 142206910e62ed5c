"""Chunk frames: columns, dtypes, attrs, and the same chunks as the engine, row for row."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pandas as pd
import pytest

from clanka_nb import engine, frames
from tests._shared import NEEDS_CONFORMANCE

from .conftest import PY_FIVE_LINES, TS_EXAMPLE, as_code_chunks

SAMPLE = Path(engine.__file__).resolve().parents[1] / "sample"

EXPECTED_DTYPES = {
    "path": "string",
    "start_line": "Int64",
    "end_line": "Int64",
    "name": "string",
    "type": "category",
    "parent": "string",
    "content": "string",
    "lines": "Int64",
    "characters": "Int64",
    "language": "string",
    "chunker": "category",
}


def check_schema(frame: pd.DataFrame) -> None:
    assert list(frame.columns) == list(EXPECTED_DTYPES)
    assert {name: str(dtype) for name, dtype in frame.dtypes.items()} == EXPECTED_DTYPES
    assert list(frame["type"].cat.categories) == list(engine.CHUNK_TYPES)
    assert list(frame["chunker"].cat.categories) == ["ast", "window"]


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.SettingClampedWarning")  # settings out of range, on purpose
@pytest.mark.parametrize(
    ("size", "overlap", "limit"), [(30, 0, None), (8, 3, None), (12, 2, 300), (5, 9, 80)]
)
def test_codebase_frame_equals_engine_row_for_row(size: int, overlap: int, limit: int | None) -> None:
    frame = frames.chunk_codebase(
        SAMPLE, chunk_size=size, chunk_overlap=overlap, chunk_max_characters=limit, workers=1, progress=False
    )
    expected = list(
        engine.chunk_codebase(SAMPLE, chunk_size=size, chunk_overlap=overlap, chunk_max_characters=limit, workers=1)
    )
    check_schema(frame)
    assert as_code_chunks(frame) == expected
    assert frame.index.equals(pd.RangeIndex(len(expected)))


def test_derived_columns() -> None:
    frame = frames.chunk_codebase(SAMPLE, workers=1, progress=False)
    assert (frame["lines"] == frame["end_line"] - frame["start_line"] + 1).all()
    assert frame["characters"].tolist() == [engine.js_length(text) for text in frame["content"]]
    assert frame["language"].tolist() == [engine.language_of(path) for path in frame["path"]]


def test_characters_count_utf16_units_like_the_limit() -> None:
    frame = frames.chunk_text("emoji = '😀'\n", path="a.py")
    assert frame["characters"].tolist() == [12]  # 11 characters, the emoji counts 2


def test_chunker_says_where_the_chunks_came_from() -> None:
    codebase = engine.Codebase.from_texts(
        {
            "decl.ts": TS_EXAMPLE,
            "bare.ts": "console.log(1)\nconsole.log(2)\n",  # parsed, but no declaration: windows
            "notes.md": "# Title\n\nSome words.\n",
            "sig.ts": "class S {\n  sig(): void\n}\n",
        }
    )
    frame = frames.chunk_codebase(codebase)
    by_path = frame.groupby("path", observed=True)["chunker"].unique()
    assert {path: list(values) for path, values in by_path.items()} == {
        "decl.ts": ["ast"], "bare.ts": ["window"], "notes.md": ["window"], "sig.ts": ["ast"],
    }
    # A method signature chunk has neither name nor type, only its parent, and still counts as AST.
    signature = frame[frame["path"] == "sig.ts"]
    assert signature["parent"].tolist()[-1] == "class S"


def test_missing_values_are_na() -> None:
    frame = frames.chunk_text(PY_FIVE_LINES, path="tool.py")
    assert frame["name"].isna().all()
    assert frame["type"].isna().all()
    assert frame["parent"].isna().all()
    assert frame["name"].dtype.na_value is pd.NA


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.SettingClampedWarning")  # settings out of range, on purpose
def test_attrs_hold_the_settings_and_root(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(PY_FIVE_LINES)
    frame = frames.chunk_codebase(tmp_path, chunk_size=3, chunk_overlap=7, workers=1, progress=False)
    # A Python file in clanka mode: windows extended mode would parse, said once (issue 53 item 5).
    assert 'languages="extended"' in frame.attrs["mode_note"]
    assert {name: value for name, value in frame.attrs.items() if name != "mode_note"} == {
        "root": str(tmp_path.resolve()),
        "languages": "clanka",
        "max_file_size": "1M",
        "chunk_size": 3,
        "chunk_overlap": 2,
        "chunk_max_characters": None,
        "requested_chunk_size": 3,
        "requested_chunk_overlap": 7,
        "clamped": True,
    }


def test_clamped_overlap_chunks_as_the_engine_clamps() -> None:
    with pytest.warns(engine.SettingClampedWarning, match="chunk_overlap=2"):
        frame = frames.chunk_text(PY_FIVE_LINES, path="a.py", chunk_size=3, chunk_overlap=10)
    assert list(zip(frame["start_line"], frame["end_line"], strict=True)) == [(1, 3), (2, 4), (3, 5)]
    assert frame.attrs["clamped"] is True


def test_codebase_in_place_of_root_is_not_parsed_again(monkeypatch: pytest.MonkeyPatch) -> None:
    codebase = engine.Codebase(SAMPLE, workers=1)
    expected = frames.chunk_codebase(SAMPLE, workers=1, progress=False)

    def no_parsing(*args: object, **kwargs: object) -> None:
        raise AssertionError("parsed again")

    monkeypatch.setattr(engine.Codebase, "__init__", no_parsing)
    pd.testing.assert_frame_equal(frames.chunk_codebase(codebase), expected)


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.NothingToChunkWarning")  # a file or folder that gives no chunks
def test_chunk_files_and_chunk_file_keep_the_given_order(small_tree: Path) -> None:
    paths = ["tool.py", "src/example.ts", "Makefile"]  # a file the reference never indexes gives no rows
    frame = frames.chunk_files(small_tree, paths, chunk_size=4, workers=1, progress=False)
    assert as_code_chunks(frame) == list(engine.chunk_files(small_tree, [*paths, "../outside.ts"], chunk_size=4))
    assert frame["path"].unique().tolist() == ["tool.py", "src/example.ts"]
    one = frames.chunk_file(small_tree, "src/example.ts")
    assert as_code_chunks(one) == engine.chunk_file(small_tree, "src/example.ts")


def test_chunk_files_of_a_codebase() -> None:
    codebase = engine.Codebase.from_texts({"a.py": PY_FIVE_LINES, "b.ts": TS_EXAMPLE})
    frame = frames.chunk_files(codebase, ["b.ts", "a.py"])
    assert frame["path"].unique().tolist() == ["b.ts", "a.py"]
    with pytest.raises(KeyError, match=r"c\.py"):
        frames.chunk_files(codebase, ["c.py"])


def test_chunk_text_equals_chunk_file_content() -> None:
    frame = frames.chunk_text(TS_EXAMPLE, chunk_size=2, chunk_overlap=1)
    assert as_code_chunks(frame) == engine.chunk_file_content("snippet.ts", TS_EXAMPLE, chunk_size=2, chunk_overlap=1)


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.NothingToChunkWarning")  # a file or folder that gives no chunks
def test_empty_codebase_gives_an_empty_frame_with_the_right_dtypes(tmp_path: Path) -> None:
    for frame in (
        frames.chunk_codebase(tmp_path, workers=1, progress=False),
        frames.chunk_codebase(engine.Codebase.from_texts({})),
        frames.chunk_text("   \n"),
        frames.chunk_files(tmp_path, []),
    ):
        assert len(frame) == 0
        check_schema(frame)


def test_embedding_column_is_the_embedding_input_of_each_row() -> None:
    frame = frames.chunk_text(TS_EXAMPLE, embedding=True)
    assert list(frame.columns) == [*EXPECTED_DTYPES, "embedding_input"]
    assert frame["embedding_input"].dtype == "string"
    assert frame["embedding_input"].tolist() == [frames.embedding_input(row) for _, row in frame.iterrows()]


@pytest.mark.parametrize(
    ("settings", "error", "words"),
    [
        ({"chunk_size": "30"}, TypeError, "chunk_size must be an int"),
        ({"chunk_overlap": 1.5}, TypeError, "chunk_overlap must be an int"),
        ({"chunk_max_characters": float("nan")}, ValueError, "chunk_max_characters is NaN"),
    ],
)
def test_bad_settings_raise_the_engine_error(settings: dict, error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        frames.chunk_text(TS_EXAMPLE, **settings)
    with pytest.raises(error, match=words):
        frames.chunk_codebase(engine.Codebase.from_texts({}), **settings)


def test_languages_must_match_a_given_codebase() -> None:
    codebase = engine.Codebase.from_texts({"a.py": PY_FIVE_LINES})
    assert frames.chunk_codebase(codebase, languages="clanka").attrs["languages"] == "clanka"
    with pytest.raises(ValueError, match="parsed with languages='clanka'"):
        frames.chunk_codebase(codebase, languages="extended")


def test_missing_root_raises_the_engine_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="does not exist"):
        frames.chunk_codebase(tmp_path / "nowhere", progress=False)


def test_a_path_that_is_no_file_under_the_root_is_an_error_naming_the_fix(
    small_tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = str(small_tree)
    for call in (
        lambda p: frames.chunk_file(root, p),
        lambda p: frames.chunk_files(root, [p, "src/example.ts"], progress=False),
        lambda p: frames.explain(root, p),
        lambda p: frames.chunk_files(engine.Codebase(root), [p]),
    ):
        for path in ("src/nope.ts", "src", "../outside.ts", "/etc/passwd"):
            message = rf"no file '{re.escape(path)}'.*paths are relative to the root"
            with pytest.raises(FileNotFoundError, match=message):
                call(path)
    with pytest.raises(KeyError):  # callers that caught the Codebase's KeyError still do
        frames.chunk_files(engine.Codebase(root), ["src/nope.ts"])
    # A path relative to the working folder instead of the root: the message says which path to pass.
    monkeypatch.chdir(small_tree.parent)
    given = f"{small_tree.name}/src/example.ts"
    with pytest.raises(FileNotFoundError, match=r"relative to the working folder .*: pass 'src/example\.ts'"):
        frames.chunk_file(small_tree.name, given)


CONFORMANCE_CASES = Path(__file__).resolve().parents[2].parent / "shared" / "conformance" / "cases.jsonl"


def _conformance_runs() -> list[tuple[str, dict, dict]]:
    if not CONFORMANCE_CASES.exists():
        return []
    cases = [json.loads(line) for line in CONFORMANCE_CASES.read_text().splitlines() if line.strip()]
    return [
        pytest.param(case, run, id=f"{case['id']}-{i}") for case in cases for i, run in enumerate(case["runs"])
    ]


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.SettingClampedWarning")  # settings out of range, on purpose
@pytest.mark.skipif(not CONFORMANCE_CASES.exists(), reason=NEEDS_CONFORMANCE)
@pytest.mark.parametrize(("case", "run"), _conformance_runs())
def test_chunk_text_matches_the_reference_output(case: dict, run: dict) -> None:
    frame = frames.chunk_text(case["content"], path=case["path"], **run["options"])
    rows = [
        {
            "path": chunk.path, "start_line": chunk.start_line, "end_line": chunk.end_line, "name": chunk.name,
            "type": chunk.type, "parent": chunk.parent,
            "content_sha256": hashlib.sha256(chunk.content.encode("utf-8", "surrogatepass")).hexdigest(),
        }
        for chunk in as_code_chunks(frame)
    ]
    assert rows == run["expected"]


def test_a_chunk_type_outside_the_eight_is_an_error_not_na(monkeypatch: pytest.MonkeyPatch) -> None:
    codebase = engine.Codebase.from_texts({"a.py": PY_FIVE_LINES})
    odd = [engine.CodeChunk("a.py", 1, 5, "m", "macro", None, PY_FIVE_LINES.rstrip("\n"))]
    record = engine.FileChunking("a.py", engine.FileStatus.CHUNKED, "ast", ((1, 5),))
    monkeypatch.setattr(engine.PreparedText, "chunked", lambda self, settings: (odd, record))
    with pytest.raises(ValueError, match=r"chunk types \['macro'\]"):
        frames.chunk_codebase(codebase)


def test_missing_type_name_and_parent_all_show_as_na() -> None:
    frame = frames.chunk_text("a\nb\n", path="notes.md")  # a line window: no type, name or parent
    shown = frame[["type", "name", "parent"]].to_string(index=False).split()
    assert shown == ["type", "name", "parent", "<NA>", "<NA>", "<NA>"]
    assert frame[["type", "name", "parent"]].isna().all(axis=None)
