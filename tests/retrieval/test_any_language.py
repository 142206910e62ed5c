"""The probe in the default mode on code the reference does not parse, and what it says when it has no query."""

from __future__ import annotations

import shutil
import textwrap
import warnings
from pathlib import Path

import pandas as pd
import pytest

import clanka_nb as cn
from clanka_nb import engine, frames
from clanka_nb.retrieval import NoProbeQueriesWarning, probe, probe_queries, probe_summary
from clanka_nb.retrieval.internals import ProbeSet

# Real, documented Python nobody here wrote: a few modules of the machine's standard library.
STDLIB = Path(textwrap.__file__).parent
MODULES = ("textwrap.py", "shlex.py", "heapq.py", "queue.py")


@pytest.fixture(scope="module")
def python_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("stdlib")
    for name in MODULES:
        shutil.copy(STDLIB / name, root / name)
    return root


def test_python_in_clanka_mode_has_the_queries_of_extended_mode(python_dir: Path) -> None:
    clanka = probe_queries(python_dir)
    extended = probe_queries(python_dir, languages="extended")
    assert len(clanka) >= 20  # these modules document most of their functions with docstrings
    assert set(clanka["path"]) == set(MODULES)
    pd.testing.assert_frame_equal(clanka, extended)
    # Each target is a named declaration of the file, read off the file itself.
    for row in clanka.itertuples(index=False):
        first = (python_dir / row.path).read_text().split("\n")[row.start_line - 1]
        assert row.name.split(".")[-1] in first or first.lstrip().startswith("@")


def test_queries_are_scored_against_the_chosen_modes_chunks(python_dir: Path) -> None:
    windows = frames.chunk_codebase(python_dir, chunk_size=30, progress=False)
    assert set(windows["chunker"]) == {"window"}  # clanka mode cuts Python into line windows
    frame = probe(python_dir, chunk_size=30)
    assert frame.attrs["chunks"] == len(windows) and frame.attrs["probe_reason"] is None
    declared = probe(python_dir, chunk_size=30, languages="extended")
    assert declared.attrs["chunks"] == len(frames.chunk_codebase(python_dir, languages="extended", progress=False))
    assert declared.attrs["chunks"] != frame.attrs["chunks"]
    # Same queries, different chunks: both find most of their code.
    assert frame["query"].tolist() == declared["query"].tolist()
    clanka_recall = probe_summary(frame)["recall@5"].iloc[0]
    assert 0.3 < clanka_recall <= 1
    # A hit is a window that overlaps the target: check one found query by hand.
    found = frame[frame["rank"].notna()].iloc[0]
    mine = windows[windows["path"] == found["path"]]
    assert ((mine["start_line"] <= found["end_line"]) & (mine["end_line"] >= found["start_line"])).any()


def test_sweep_on_python_in_the_default_mode_gives_recall(python_dir: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = cn.sweep(python_dir, chunk_size=[10, 20, 30, 40], chunk_overlap=[0, 5], probe=True, progress=False)
    assert (table["queries"] == len(probe_queries(python_dir))).all()
    assert table["recall@5"].notna().all() and (table["recall@5"] > 0).all()
    assert table.attrs["probe_reason"] is None and table.attrs["languages"] == "clanka"


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.NothingToChunkWarning")  # a file or folder that gives no chunks
@pytest.mark.parametrize(
    ("files", "reason"),
    [
        ({}, "has no file with lines"),
        ({"notes.md": "# Notes\n\nSome prose.\n", "data.json": '{"a": 1}\n'}, "is in a language the probe reads"),
        ({"a.py": "import os\n\nprint(os.sep)\n"}, "have no declarations"),
        ({"a.py": "def f():\n    return 1\n\n\nclass C:\n    pass\n"}, "none of its 2 declarations has a doc comment"),
        ({"a.go": "package a\n\n// Tiny.\nfunc F() {}\n"}, "none of its 1 doc comments gives a query"),
    ],
)
def test_no_queries_warns_with_the_reason(tmp_path: Path, files: dict[str, str], reason: str) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    with pytest.warns(NoProbeQueriesWarning, match=reason) as caught:
        table = cn.sweep(tmp_path, chunk_size=[10, 20], probe=True, progress=False)
    caught = [w for w in caught if w.category is NoProbeQueriesWarning]  # an empty folder also says "no files"
    assert len(caught) == 1  # once per sweep, not once per setting
    assert caught[0].filename == __file__  # it points at the caller's line
    assert (table["queries"] == 0).all() and table["recall@5"].isna().all()
    assert reason in table.attrs["probe_reason"]
    with pytest.warns(NoProbeQueriesWarning, match=reason):
        frame = probe(tmp_path)
    assert frame.empty and reason in frame.attrs["probe_reason"]


def test_an_empty_queries_frame_says_so(python_dir: Path) -> None:
    codebase = engine.Codebase(python_dir)
    none = probe_queries(codebase).iloc[:0]
    with pytest.warns(NoProbeQueriesWarning, match="queries frame given has no rows"):
        prepared = ProbeSet(codebase, none)
    assert prepared.reason == "the queries frame given has no rows"


def test_a_codebase_with_queries_does_not_warn(python_dir: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ProbeSet(engine.Codebase(python_dir)).reason is None
