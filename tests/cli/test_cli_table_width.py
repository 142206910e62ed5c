"""Every table the command line prints fits 100 columns; a footer names the columns left out, which -o has."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from clanka_nb._cli._fit import TABLE_WIDTH, cells, render
from tests._shared import run_cli as run

LONG_DIRS = ("a_folder_whose_name_is_rather_long", "and_another_folder_below_it_with_a_long_name")
LONG_FILE = "a_file_whose_own_name_is_long_enough_to_fill_most_of_a_line_by_itself_pricing_rules.ts"
LONG_TS = """\
export class AShoppingCartWithAVeryLongNameThatDescribesEverythingItDoesInDetail {
  computeTheTotalPriceIncludingTaxesDiscountsAndShippingForEveryItemInTheCart(): number {
    return 0;
  }
}

export function aFunctionWithANameSoLongThatNoTerminalColumnCouldHoldItWhole(a: number): number {
  return a + 1;
}
"""


def git(folder: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.invalid", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", *args], cwd=folder, env=env, check=True, capture_output=True, timeout=60)


@pytest.fixture
def deep(code: Path) -> Path:
    """The CLI tests' codebase plus a file deep in long folders, with long names, in a git repository of two
    commits (the second edits the long file)."""
    folder = code.joinpath(*LONG_DIRS)
    folder.mkdir(parents=True)
    (folder / LONG_FILE).write_text(LONG_TS, encoding="utf-8")
    git(code, "init", "-q", "-b", "main")
    git(code, "add", "-A")
    git(code, "commit", "-q", "-m", "first")
    with (folder / LONG_FILE).open("a", encoding="utf-8") as handle:
        handle.write("\nexport const anotherConstantWithALongName = 1;\n")
    git(code, "commit", "-q", "-am", "second")
    return code


LONG_PATH = "/".join((*LONG_DIRS, LONG_FILE))
COMMANDS = {
    "chunk": ["chunk"],
    "files": ["files", "--include-skipped"],
    "sweep": ["sweep", "--chunk-size", "10,20,30", "--chunk-overlap", "0,2"],
    "sweep --probe": ["sweep", "--probe", "--chunk-size", "10,20", "--k", "1,3,5"],
    "sweep --chunkers": ["sweep", "--chunk-size", "30", "--chunkers", "line_windows"],
    "explain": ["explain", "{root}", LONG_PATH],
    "churn": ["churn", "--revs", "HEAD~1..HEAD"],
    "churn --by-file": ["churn", "--revs", "HEAD~1..HEAD", "--by-file"],
}


def argv(command: str, root: Path) -> list[str]:
    words = COMMANDS[command]
    if "{root}" in words:
        return [str(root) if word == "{root}" else word for word in words]
    return [words[0], str(root), *words[1:]]


def left_out(table: str, width: int = TABLE_WIDTH) -> list[str]:
    """The columns the footer names as left out (none without a footer); the footer follows a blank line."""
    if "\n\n" not in table:
        return []
    footer = " ".join(table.split("\n\n", 1)[1].split())
    match = re.fullmatch(rf"\(left out to fit {width} columns: (.*); -o FILE\.csv, \.jsonl or \.parquet "
                         r"writes every column\)", footer)  # fmt: skip
    assert match, footer
    return match.group(1).split(", ")


@pytest.mark.parametrize("command", COMMANDS)
def test_every_table_fits_100_columns_and_names_what_it_left_out(capsys, deep: Path, tmp_path: Path, command):
    status, out, err = run(capsys, *argv(command, deep), "-q")
    assert status == 0, err
    too_wide = [line for line in out.splitlines() if cells(line) > TABLE_WIDTH]
    assert not too_wide, too_wide
    header = out.splitlines()[0].split()
    missing = left_out(out)
    assert not set(header) & set(missing)
    # What the footer says is true: -o FILE.csv has every column it names.
    target = tmp_path / "all.csv"
    assert run(capsys, *argv(command, deep), "-q", "-o", str(target))[0] == 0
    assert set(missing) <= set(pd.read_csv(target).columns)
    if command.startswith("sweep"):  # a sweep's table always says which setting each row is
        assert header[header[0] == "chunker_label" :][:3] == ["chunk_size", "chunk_overlap", "chunk_max_characters"]


@pytest.mark.parametrize("command", ["chunk", "files"])
def test_a_long_path_keeps_its_end_where_the_file_name_is(capsys, deep: Path, command: str) -> None:
    status, out, _ = run(capsys, *argv(command, deep), "-q")
    rows = out.split("\n\n", 1)[0].splitlines()
    cut = [row.split()[0] for row in rows if "…" in row.split()[0]]
    assert status == 0 and cut, out  # the long path had to be cut
    assert all(path.startswith("…") and LONG_PATH.endswith(path[1:]) for path in cut)
    assert all(LONG_FILE[-20:] in path for path in cut)


def test_a_probed_sweep_shows_the_settings_the_verdict_s_measure_and_mrr(capsys, deep: Path) -> None:
    status, out, err = run(capsys, *argv("sweep --probe", deep))
    assert status == 0
    verdict = re.search(r"verdict: .*", err)
    assert verdict, err
    header = out.splitlines()[0].split()
    assert {"chunk_size", "chunk_overlap", "chunk_max_characters", "mrr"} <= set(header)
    assert any(name.startswith(("recall@", "budget_covered@", "budget_found@")) for name in header)
    assert "recall@5" in left_out(out)  # the wide view (every cut-off, every budget) cannot all fit


def test_a_table_that_fits_is_printed_whole_without_a_footer(capsys, code: Path) -> None:
    status, out, _ = run(capsys, "chunk", str(code))
    assert status == 0 and "\n\n" not in out and "left out" not in out
    assert out.splitlines()[0].split() == ["path", "line_range", "type", "name", "parent"]


def test_the_txt_file_is_the_terminal_s_table(capsys, deep: Path, tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    assert run(capsys, *argv("sweep --probe", deep), "-q", "-o", str(target))[:2] == (0, "")
    assert target.read_text(encoding="utf-8") == run(capsys, *argv("sweep --probe", deep), "-q")[1]


def numbers(names: str, width: int = 8) -> pd.DataFrame:
    return pd.DataFrame({name: [float(10 ** (width - 1))] for name in names.split()})  # `width` digits


def test_essential_columns_stay_and_the_others_go_least_important_first() -> None:
    frame = numbers("a b c d e f g h i j")  # ten columns of 8 characters: 98 wide
    text = render(frame, width=30, essential=("j",), priority=("i", "h"))
    assert text.splitlines()[0].split() == ["h", "i", "j"]  # shown in the frame's order, 8 + 2 + 8 + 2 + 8
    assert left_out(text, 30) == list("abcdefg")
    # With room for one more, the next in the frame's order (priority names only some).
    assert render(frame, width=40, essential=("j",), priority=("i", "h")).splitlines()[0].split() == list("ahij")
    assert render(frame, width=98) == render(frame) and "left out" not in render(frame)


def test_a_column_that_does_not_fit_is_skipped_for_a_narrower_one_after_it() -> None:
    frame = pd.concat([numbers("a"), numbers("wide", 30), numbers("b")], axis=1)
    shown = render(frame, width=30, essential=("a",), priority=("wide", "b")).splitlines()[0].split()
    assert shown == ["a", "b"]


def test_text_is_cut_to_fit_a_path_at_its_start_other_text_at_its_end() -> None:
    frame = pd.DataFrame({"path": ["x" * 50 + "/file.ts"], "why": ["because_" + "y" * 80], "n": [1]})
    text = render(frame, width=60, essential=("path", "why", "n"))
    row = text.splitlines()[1]
    assert all(len(line) <= 60 for line in text.splitlines())
    path, why = row.split()[:2]
    assert path.startswith("…") and path.endswith("/file.ts")
    assert why.startswith("because") and why.endswith("…")


def test_when_not_even_the_essential_columns_fit_the_last_go() -> None:
    frame = numbers("a b c", width=40)
    text = render(frame, width=50, essential=("a", "b", "c"))
    assert text.splitlines()[0].split() == ["a"]
    assert all(len(line) <= 50 for line in text.splitlines())


def test_cells_count_what_a_terminal_shows() -> None:
    assert cells("src/app.ts") == 10
    assert cells("源代码/购物车.ts") == 2 * 6 + 4  # wide characters take two cells, "/" and ".ts" one each
    assert cells("ＡＢ") == 4  # fullwidth forms
    assert cells("📦") == 2 and cells("e\u0301") == 1  # an emoji; an accent combined with its letter
    assert cells("a\u200db\ufe0f") == 2  # a zero-width joiner and a variation selector take none


def _column_starts(line: str, texts: list[str]) -> list[int]:
    """The cell at which each of `texts` starts in `line` (found in order)."""
    starts, at = [], 0
    for text in texts:
        at = line.index(text, at)
        starts.append(cells(line[:at]))
        at += len(text)
    return starts


WIDE_PATHS = ["项目/源代码/组件/购物车/价格规则/" + "很长的文件名" * 4 + ".ts", "📦/🚀/" + "emoji_" * 8 + "🎉.ts",
              "docs/cafe\u0301/notes.md"]


def test_wide_characters_are_fitted_by_cells_and_the_columns_stay_aligned() -> None:
    frame = pd.DataFrame({"path": WIDE_PATHS, "name": ["价格" * 30, "total", "说明"], "n": [1, 22, 333]})
    text = render(frame, width=60, essential=("path", "name", "n"))
    lines = text.splitlines()
    assert all(cells(line) <= 60 for line in lines), [cells(line) for line in lines]
    rows = lines[1:4]
    shown = [row.split("  ") for row in rows]
    texts = [[part.strip() for part in row if part.strip()] for row in shown]
    # The text columns start at one cell in every row, the numbers (right-aligned) end at one.
    assert {(*_column_starts(row, parts[:2]), cells(row)) for row, parts in zip(rows, texts, strict=True)} == {
        (*_column_starts(lines[0], ["path", "name"]), cells(lines[0]))}
    assert texts[0][0].startswith("…") and texts[0][0].endswith(".ts")  # a path keeps its end
    assert texts[1][0].endswith("🎉.ts") and texts[2][0] == WIDE_PATHS[2]  # the accent fits whole: 1 cell


def test_a_cut_never_leaves_half_a_wide_character_or_a_lone_mark() -> None:
    frame = pd.DataFrame({"path": ["a/" + "\u0301界" * 40], "why": ["界" * 50]})
    rows = render(frame, width=31, essential=("path", "why")).splitlines()
    assert all(cells(row) <= 31 for row in rows)
    path, why = rows[1].split()
    assert path.startswith("…界") and why.endswith("界…")


def test_the_command_line_fits_cjk_and_emoji_paths_in_100_cells(capsys, code: Path) -> None:
    folder = code.joinpath("项目", "源代码", "组件", "购物车")
    folder.mkdir(parents=True)
    (folder / ("价格规则与折扣计算" * 3 + ".ts")).write_text(LONG_TS, encoding="utf-8")
    (code / "📦🚀🎉").mkdir()
    (code / "📦🚀🎉" / ("部署" * 10 + ".ts")).write_text(LONG_TS, encoding="utf-8")
    for command in (["chunk", str(code)], ["files", str(code)]):
        status, out, err = run(capsys, *command, "-q")
        assert status == 0, err
        assert "价格规则" in out and "部署" in out
        too_wide = [line for line in out.splitlines() if cells(line) > TABLE_WIDTH]
        assert not too_wide, [cells(line) for line in too_wide]


@pytest.fixture(scope="module")
def address():
    pytest.importorskip("apsw")
    pytest.importorskip("distributed")
    from clanka_nb.dask import local_client

    client = local_client(1)
    yield client.scheduler.address
    cluster = client.cluster
    client.close()
    cluster.close()


def test_the_index_table_fits_with_a_long_root(capsys, deep: Path, address) -> None:
    root = deep.joinpath(*LONG_DIRS)
    status, out, err = run(capsys, "index", str(root), str(deep), "--dask", address, "--stand-in", "-q")
    assert status == 0, err
    assert all(len(line) <= TABLE_WIDTH for line in out.splitlines()), out
    rows = out.split("\n\n", 1)[0].splitlines()
    assert rows[0].split()[:2] == ["root", "status"] and len(rows) == 3
