"""One resolver: every function that takes a source resolves it through `engine.source.resolve`, and a chunk
frame's attrs are read by one function (`engine.source.read_frame`), once per call."""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import clanka_nb as cn
from clanka_nb import engine
from clanka_nb.engine import source as resolver

PANDAS = str(Path(pd.__file__).parent)


class CountedFrame(pd.DataFrame):
    """A chunk frame that counts how often clanka_nb reads its attrs.

    pandas itself reads them whenever it copies them onto a frame cut from this one (`__finalize__`): a viewer
    that shows the frame's rows does that per row, and those are no reads of what the frame says."""

    reads = 0

    @property
    def _constructor(self) -> type[CountedFrame]:
        return CountedFrame

    @property
    def attrs(self) -> dict:  # type: ignore[override]
        if not sys._getframe(1).f_code.co_filename.startswith(PANDAS):
            type(self).reads += 1
        return pd.DataFrame.attrs.fget(self)  # type: ignore[attr-defined]

    @attrs.setter
    def attrs(self, value: dict) -> None:
        pd.DataFrame.attrs.fset(self, value)  # type: ignore[attr-defined]


@pytest.fixture
def frame(tmp_path: Path) -> CountedFrame:
    (tmp_path / "a.ts").write_text("/** Returns one. */\nexport function a() {\n  return 1;\n}\n")
    (tmp_path / "b.ts").write_text("export function b() {\n  return 2;\n}\n")
    made = cn.chunk_files(tmp_path, ["a.ts"], chunk_size=2, progress=False)
    counted = CountedFrame(made)
    counted.attrs = dict(made.attrs)
    CountedFrame.reads = 0
    return counted


# Every public entry point that takes a source, called with a chunk frame as that source.
CALLS: dict[str, Callable[[pd.DataFrame], Any]] = {
    "chunk_codebase": lambda frame: cn.chunk_codebase(frame, progress=False),
    "chunk_files": lambda frame: cn.chunk_files(frame, ["a.ts"], progress=False),
    "chunk_file": lambda frame: cn.chunk_file(frame, "a.ts"),
    "files": lambda frame: cn.files(frame, progress=False),
    "coverage": lambda frame: cn.coverage(frame, progress=False),
    "line_coverage": lambda frame: cn.line_coverage(frame, progress=False),
    "explain": lambda frame: cn.explain(frame, "a.ts"),
    "sweep": lambda frame: cn.sweep(frame, progress=False),
    "probe": lambda frame: cn.probe(frame, progress=False),
    "probe_queries": lambda frame: cn.probe_queries(frame, progress=False),
    "dropped_queries": lambda frame: cn.dropped_queries(frame, progress=False),
    "unit_test_queries": lambda frame: cn.unit_test_queries(frame, progress=False),
    "browse": lambda frame: cn.browse(frame),
    "preview": lambda frame: cn.preview(frame, "a.ts"),
    "tune": lambda frame: cn.tune(frame, "a.ts"),
    "compare": lambda frame: cn.compare(frame, "a.ts"),
    "step_through": lambda frame: cn.step_through(frame, "a.ts"),
    "SemanticIndex": lambda frame: cn.SemanticIndex(frame, embed=cn.embedders.hashed_words()),
}
# Beyond the top-level names: the probed sweep resolves its source once too, beside its searcher and queries.
MORE: dict[str, Callable[[pd.DataFrame], Any]] = {
    "sweep(probe=True)": lambda frame: cn.sweep(frame, probe=True, progress=False),
}


def _first_parameter(value: object) -> str | None:
    try:
        parameters = list(inspect.signature(value).parameters)  # type: ignore[arg-type]
    except (TypeError, ValueError):  # not callable, or a builtin type with no signature
        return None
    return parameters[0] if parameters else None


def test_every_public_entry_point_that_takes_a_source_is_tested() -> None:
    takes_a_source = {name for name in cn.__all__ if _first_parameter(getattr(cn, name)) == "source"}
    assert takes_a_source == set(CALLS)


@pytest.mark.filterwarnings("ignore::clanka_nb.retrieval.NoProbeQueriesWarning")  # two small files: no query
@pytest.mark.parametrize("call", [pytest.param(call, id=name) for name, call in {**CALLS, **MORE}.items()])
def test_a_frames_attrs_are_read_once(frame: CountedFrame, call: Callable[[pd.DataFrame], Any]) -> None:
    call(frame)
    assert CountedFrame.reads == 1


def test_churn_takes_a_repository_not_a_source(frame: CountedFrame) -> None:
    # Its source is a git clone's history: a frame is refused, with the fix named, before anything is read.
    with pytest.raises(TypeError, match="the folder of a git clone"):
        cn.churn(frame)
    assert CountedFrame.reads == 0


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
