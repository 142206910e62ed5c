"""One resolver: every function that takes a source resolves it through `engine.source.resolve`, and a chunk
frame's attrs are read by one function (`engine.source.read_frame`), once per call."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import clanka_nb as cn
from clanka_nb import engine
from clanka_nb.engine import source as resolver


class CountedFrame(pd.DataFrame):
    """A chunk frame that counts how often its attrs are read."""

    reads = 0

    @property
    def _constructor(self) -> type[CountedFrame]:
        return CountedFrame

    @property
    def attrs(self) -> dict:  # type: ignore[override]
        type(self).reads += 1
        return pd.DataFrame.attrs.fget(self)  # type: ignore[attr-defined]

    @attrs.setter
    def attrs(self, value: dict) -> None:
        pd.DataFrame.attrs.fset(self, value)  # type: ignore[attr-defined]


@pytest.fixture
def frame(tmp_path: Path) -> CountedFrame:
    (tmp_path / "a.ts").write_text("export function a() {\n  return 1;\n}\n")
    (tmp_path / "b.ts").write_text("export function b() {\n  return 2;\n}\n")
    made = cn.chunk_files(tmp_path, ["a.ts"], chunk_size=2, progress=False)
    counted = CountedFrame(made)
    counted.attrs = dict(made.attrs)
    CountedFrame.reads = 0
    return counted


@pytest.mark.parametrize(
    "call",
    [
        lambda frame: cn.chunk_codebase(frame, progress=False),
        lambda frame: cn.files(frame, progress=False),
        lambda frame: cn.coverage(frame, progress=False),
        lambda frame: cn.SemanticIndex(frame, embed=cn.embedders.hashed_words()),
    ],
    ids=["chunk_codebase", "files", "coverage", "SemanticIndex"],
)
def test_a_frames_attrs_are_read_once(frame: CountedFrame, call) -> None:
    call(frame)
    assert CountedFrame.reads == 1


def test_a_frame_of_chosen_files_stands_for_them_in_frames_and_the_index(frame: CountedFrame) -> None:
    chunks = cn.chunk_codebase(frame, progress=False)
    index = cn.SemanticIndex(frame, embed=cn.embedders.hashed_words())
    assert set(chunks["path"]) == {"a.ts"} and index.paths == ["a.ts"]
    assert chunks.attrs["requested_chunk_size"] == 2 and index.settings["chunk_size"] == 2


def test_every_kind_of_source_resolves_to_a_root_its_files_and_settings(tmp_path: Path, frame) -> None:
    (tmp_path / "x.ts").write_text("let x = 1\n")
    settings = engine.Settings()
    codebase = engine.Codebase(tmp_path)
    assert resolver.resolve(codebase, settings).codebase is codebase
    one = resolver.resolve(tmp_path / "x.ts", settings)
    assert (one.root, one.names) == (tmp_path, ["x.ts"])
    chosen = resolver.resolve(tmp_path, settings, paths="x.ts")
    assert (chosen.root, chosen.names) == (tmp_path, ["x.ts"])
    framed = resolver.resolve(frame, settings)
    assert framed.names == ["a.ts"] and framed.settings.chunk_size == 2
    assert resolver.resolve(None, settings).root == cn.sample_codebase()
    with pytest.raises(TypeError, match="a source is a folder"):
        resolver.resolve(3, settings)
