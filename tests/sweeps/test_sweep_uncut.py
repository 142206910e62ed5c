"""A chunker that cut nothing of a language is not judged as if it had (issue 52, item 5): its fallback (clanka's
line windows) holds every file there, so its row is named as such, left out of the verdict's ranking, and left
out of the plots, while its columns stay in the table."""

from __future__ import annotations

import pandas as pd
import pytest

import clanka_nb as cn
from clanka_nb.sweeps._chunkers import ChunkerRun, uncut_reason

pytest.importorskip("bm25s")


def ts_only(path: str, text: str) -> list[tuple[int, int]] | None:
    """A chunker with no Go grammar: every Go file falls back to clanka's line windows."""
    count = max(1, text.count("\n"))
    return [(1, count)] if path.endswith(".ts") else None


def halves(path: str, text: str) -> list[tuple[int, int]]:
    count = max(2, text.count("\n"))
    return [(1, count // 2), (count // 2 + 1, count)]


@pytest.fixture(scope="module")
def go_folder(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("gocode")
    for index in range(12):
        body = "\n".join(f"\tv = v + {step}*{index}" for step in range(10))
        (root / f"money{index}.go").write_text(
            f"package money\n\n// Rounds the amount of basket {index} to whole cents for the invoice.\n"
            f"func Round{index}(v int) int {{\n{body}\n\treturn v\n}}\n\n"
            f"// Formats the invoice number {index} with its currency sign.\nfunc Label{index}(v int) string {{\n"
            f'\treturn "EUR"\n}}\n'
        )
    (root / "README.md").write_text("# money\n\nRounding and labels.\n")
    return root


@pytest.fixture(scope="module")
def table(go_folder) -> pd.DataFrame:
    return cn.sweep(go_folder, chunk_size=[10, 40], languages="extended", probe=cn.Probe(reference=False),
                    progress=False, chunkers={"ts only": ts_only, "halves": halves})  # fmt: skip


@pytest.mark.filterwarnings("ignore::clanka_nb.retrieval.FlatRecallWarning")  # few queries, each found at every setting
def test_the_row_names_the_language_it_cut_nothing_of(table: pd.DataFrame) -> None:
    rows = table.set_index("chunker_label")
    assert rows.loc["ts only", "uncut_languages"] == "go"  # README.md: no grammar parses Markdown, not named
    assert rows.loc["halves", "uncut_languages"] == ""
    assert rows.loc["ts only", "ranked"] == False  # noqa: E712  # a pandas boolean
    assert rows.loc["halves", "ranked"] == True  # noqa: E712
    assert table["ranked"].iloc[:2].tolist() == [True, True]
    assert rows.loc["ts only", "queries"] == 24  # its columns stay in the table


def test_the_verdict_ranks_every_row_but_it_and_says_why(table: pd.DataFrame) -> None:
    verdict = table.attrs["verdict"]
    assert verdict["columns"] == [0, 1, 3]
    assert table.attrs["unranked"] == {"2": "ts only: no Go grammar, clanka's cut there"}
    message = verdict["message"]
    assert message.startswith(verdict["decision"])
    assert "left out of the ranking (its row there is clanka's own cut, not the chunker's): ts only: no Go " \
        "grammar, clanka's cut there" in message  # fmt: skip
    assert "chunker=ts only" not in message


def test_the_plot_leaves_it_out_and_says_so(table: pd.DataFrame) -> None:
    figure = cn.plot_sweep(table)
    texts = [text.get_text() for text in figure.texts]
    assert any("not ranked: ts only: no Go grammar, clanka's cut there" in text for text in texts)
    labels = [text.get_text() for axes in figure.axes for text in axes.texts]
    assert not any("ts only" in label for label in labels)


@pytest.mark.filterwarnings("ignore::clanka_nb.retrieval.FlatRecallWarning")  # few queries, each found at every setting
def test_a_chunker_that_handles_a_language_is_ranked_on_it(go_folder) -> None:
    table = cn.sweep(go_folder, chunk_size=[10], languages="extended", probe=cn.Probe(reference=False), progress=False,
                     chunkers={"halves": halves})  # fmt: skip
    assert "unranked" not in table.attrs or table.attrs["unranked"] == {}
    assert table.attrs["verdict"]["columns"] == [0, 1]


def test_uncut_counts_only_languages_every_file_of_which_fell_back() -> None:
    run = ChunkerRun("astchunk", {}, [], 0.0, 2, frozenset({"a.go", "b.go", "c.py", "notes.txt"}))
    assert run.uncut(["a.go", "b.go", "c.py", "d.py", "notes.txt", "LICENSE"]) == ["go"]  # text: no grammar
    assert run.uncut(["d.py"]) == []
    assert uncut_reason("astchunk", ["go", "rust"]) == "astchunk: no Go or Rust grammar, clanka's cut there"
