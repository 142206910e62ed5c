"""`sweep(..., probe=Probe(queries=...))` and the tuning panel score any queries frame; by default the sweep
combines the sources that exist (doc comments; commit messages at the top of a git clone) and says so."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from clanka_nb import engine, sweep
from clanka_nb.retrieval import Probe, history_queries, probe, probe_queries, probe_summary

CODE = {
    "src/price.ts": "/** Parses a price label such as 12.50 EUR into cents. */\n"
    "export function parsePrice(label: string) {\n  const [amount] = label.split(' ');\n"
    "  return Math.round(Number(amount) * 100);\n}\n",
    "src/tax.ts": "/** Adds the value added tax of the given country to a net amount. */\n"
    "export function addTax(net: number, rate: number) {\n  const gross = net * (1 + rate);\n  return gross;\n}\n",
}


def run_git(repo: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "A", "GIT_AUTHOR_EMAIL": "a@example.org", "GIT_COMMITTER_NAME": "A",
           "GIT_COMMITTER_EMAIL": "a@example.org", "GIT_CONFIG_GLOBAL": os.devnull}  # fmt: skip
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    if shutil.which("git") is None:
        pytest.skip("needs the git command")
    root = tmp_path / "shop"
    root.mkdir()
    run_git(root, "init", "-q", "-b", "main")
    write(root, {"src/price.ts": CODE["src/price.ts"]})
    run_git(root, "add", "-A")
    run_git(root, "commit", "-q", "-m", "Parse price labels with their currency into cents")
    write(root, {"src/tax.ts": CODE["src/tax.ts"]})
    run_git(root, "add", "-A")
    run_git(root, "commit", "-q", "-m", "Add the value added tax to net amounts")
    return root


@pytest.mark.filterwarnings("ignore::clanka_nb.retrieval.FlatRecallWarning")  # few queries, each found at every setting
def test_the_default_combines_doc_comments_and_history_at_a_clone_top_and_says_so(clone):
    table = sweep(clone, chunk_size=[4, 20], probe=Probe(reference=False), progress=False)
    assert table.attrs["query_sources"] == {"doc_comments": 2, "test_names": 0, "history": 2}
    assert table["queries"].tolist() == [4, 4]
    note = table.attrs["probe_note"]
    assert "2 from doc comments" in note and "2 from commit messages" in note
    alone = probe(clone, chunk_size=20, progress=False)  # probe() says the same in its frame's attrs
    assert alone.attrs["query_sources"] == table.attrs["query_sources"] and len(alone) == 4
    assert alone.attrs["probe_note"] == note
    # A folder inside the clone: its history is its parent's, so only doc comments, and the note says why.
    inside = sweep(clone / "src", chunk_size=[20], probe=Probe(reference=False), progress=False)
    assert inside.attrs["query_sources"] == {"doc_comments": 2, "test_names": 0}
    assert "inside a git clone" in inside.attrs["probe_note"]


def test_a_folder_without_git_uses_doc_comments_and_says_why_not_history(tmp_path):
    write(tmp_path, CODE)
    table = sweep(tmp_path, chunk_size=[20], probe=Probe(reference=False), progress=False)
    assert table.attrs["query_sources"] == {"doc_comments": 2, "test_names": 0}
    assert "none from commit messages" in table.attrs["probe_note"]


@pytest.mark.filterwarnings("ignore::clanka_nb.retrieval.FlatRecallWarning")  # few queries, each found at every setting
def test_a_queries_frame_is_what_the_sweep_scores(clone):
    history = history_queries(clone, progress=False)
    both = pd.concat([probe_queries(clone, progress=False).assign(source="doc_comments"),
                      history.assign(source="history")], ignore_index=True)  # fmt: skip
    for queries in (history, both):
        table = sweep(clone, chunk_size=[4, 20], probe=Probe(reference=False, queries=queries), progress=False)
        assert table["queries"].tolist() == [len(queries)] * 2
        for row in table.itertuples(index=False):
            alone = probe_summary(probe(clone, Probe(queries=queries), chunk_size=row.chunk_size, progress=False))
            assert row.mrr == pytest.approx(alone["mrr"].iloc[0])
    assert table.attrs["query_sources"] == {"doc_comments": 2, "history": 2}
    assert "4 given" in table.attrs["probe_note"]
    own = pd.DataFrame({"query": ["tax of a country"], "path": ["src/tax.ts"], "start_line": [2], "end_line": [5]})
    table = sweep(clone, chunk_size=[20], probe=Probe(reference=False, queries=own), progress=False)
    assert table["queries"].tolist() == [1] and table.attrs["query_sources"] == {"given": 1}


def test_a_queries_frame_without_a_column_is_an_error_naming_it(clone):
    bad = history_queries(clone, progress=False).drop(columns=["start_line"])
    with pytest.raises(KeyError, match="no start_line column"):
        sweep(clone, chunk_size=[20], probe=Probe(queries=bad), progress=False)
    with pytest.raises(TypeError, match="queries must be a DataFrame"):
        Probe(queries=bad.to_dict())  # type: ignore[arg-type]


def test_the_tuning_panel_scores_the_queries_given(clone):
    pytest.importorskip("ipywidgets")
    from clanka_nb.widgets import tune

    own = pd.DataFrame({"query": ["tax of a country"], "path": ["src/tax.ts"], "start_line": [2], "end_line": [5]})
    tuner = tune(clone, probe=Probe(queries=own), chunk_size=20)
    assert tuner.model.stats["queries"] == 1
    expected = probe_summary(probe(engine.Codebase(clone), Probe(queries=own), chunk_size=20, progress=False))
    assert tuner.model.stats["mrr"] == pytest.approx(expected["mrr"].iloc[0])
    with pytest.raises(KeyError, match="no path column"):
        tune(clone, probe=Probe(queries=own.drop(columns=["path"])))


def test_the_command_line_sweep_notes_the_query_sources(clone, capsys):
    from clanka_nb.cli import main

    assert main(["sweep", str(clone), "--chunk-size", "20", "--probe"]) == 0
    err = capsys.readouterr().err
    assert "note: queries: 2 from doc comments; 0 from test names; 2 from commit messages" in err
