"""A sweep's report: the model is gathered from the table and its attrs, the page says the decision first, draws
the verdict's metric with its interval for every setting, and gives commands that reproduce the same sweep.
Its rendering in a real browser, in both themes: tests/browser/test_exported_pages.py."""

from __future__ import annotations

import shlex
import subprocess

import pandas as pd
import pytest
from bs4 import BeautifulSoup

import clanka_nb as cn
from clanka_nb.widgets import Report
from clanka_nb.widgets._report import commit_of, report_model


@pytest.fixture(scope="module")
def probed() -> pd.DataFrame:
    return cn.sweep(None, chunk_size=[10, 20, 40], probe=True, progress=False)


def test_the_page_puts_the_decision_first_and_marks_the_chosen_setting(probed, tmp_path) -> None:
    shown = cn.report(probed)
    assert isinstance(shown, Report)
    soup = BeautifulSoup(shown.save(tmp_path / "r.html").read_text(encoding="utf-8"), "html.parser")
    sections = [s.get("data-section") for s in soup.select("[data-section]")]
    assert sections[:2] == ["decision", "verdict"]
    assert sections[2:] == ["trade-off", "settings", "queries", "swept", "commands"]
    verdict = probed.attrs["verdict"]
    assert soup.select_one('[data-section="decision"]').get_text() == verdict["decision"]
    chosen = soup.select('tr[data-chosen]')
    assert len(chosen) == 1 and chosen[0]["data-row"] == str(verdict["choice"])


def test_the_trade_off_draws_every_setting_with_its_interval(probed) -> None:
    soup = BeautifulSoup(cn.report(probed).html, "html.parser")
    metric = probed.attrs["verdict"]["metric"]
    points = soup.select('svg[data-clanka="report-trade-off"] g[data-point]')
    assert len(points) == len(probed)
    for point, (_, row) in zip(points, probed.iterrows(), strict=True):
        hover = point.find("title").get_text()
        assert f"{row[metric]:.3f} [{row[f'{metric}_low']:.3f}, {row[f'{metric}_high']:.3f}]" in hover
        line = point.find("line")
        assert float(line["y1"]) > float(line["y2"])  # low drawn below high: the interval has a length


def test_the_commands_sweep_the_same_settings_again(probed) -> None:
    model = report_model(probed)
    line, call = model.commands
    words = shlex.split(line)
    assert words[:3] == ["clanka-nb", "sweep", probed.attrs["root"]]
    assert words[words.index("--chunk-size") + 1] == "10,20,40"
    assert words[words.index("--metric") + 1] == probed.attrs["verdict"]["metric"]
    again = eval(call.removeprefix("table = "), {"cn": cn})  # the call the page prints, run
    pd.testing.assert_series_equal(again["chunks"], probed["chunks"])
    assert again.attrs["verdict"]["choice"] == probed.attrs["verdict"]["choice"]


def test_the_queries_per_source_and_what_was_swept_are_said(probed) -> None:
    model = report_model(probed)
    assert dict(model.sources) == probed.attrs["query_sources"]
    assert model.swept["chunk_size"] == (10, 20, 40)


def test_the_commit_is_the_roots_head(tmp_path) -> None:
    def run(*args: str) -> str:
        return subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True, text=True).stdout

    assert commit_of(str(tmp_path)).startswith("none: ")
    run("init", "-q")
    (tmp_path / "a.ts").write_text("export const a = 1;\n")
    run("add", "a.ts")
    run("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "a")
    head = run("rev-parse", "HEAD").strip()
    assert commit_of(str(tmp_path)) == head
    (tmp_path / "a.ts").write_text("export const a = 2;\n")
    assert commit_of(str(tmp_path)) == f"{head} + changes not committed"


def test_an_unprobed_sweep_says_there_is_no_decision_and_why() -> None:
    table = cn.sweep(None, chunk_size=[10, 20], progress=False)
    soup = BeautifulSoup(cn.report(table).html, "html.parser")
    assert soup.select_one('[data-section="decision"]').get_text() == "No decision"
    assert "probe=True" in soup.select_one('[data-section="verdict"]').get_text()
    assert soup.find("svg") is None and len(soup.select("tr[data-row]")) == 2


@pytest.mark.parametrize(("given", "error"), [(None, TypeError), (pd.DataFrame(), ValueError)])
def test_anything_but_a_sweep_table_is_one_clear_error(given, error) -> None:
    with pytest.raises(error, match=r"cn\.sweep"):
        cn.report(given)
