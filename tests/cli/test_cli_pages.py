"""The views leave the terminal too: `explain --html/--svg/--png`, `chunk --html` and `sweep --report` write the
same pages and pictures as the library's `save`; a wrong suffix or a missing folder is refused before any work."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from clanka_nb.cli import main


def test_explain_writes_the_steps_page_and_a_picture(code: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    out.mkdir()
    args = ["explain", str(code), "src/app.ts", "-q", "--html", str(out / "s.html"), "--svg", str(out / "s.svg"),
            "--png", str(out / "s.png")]  # fmt: skip
    assert main(args) == 0
    assert "add" in capsys.readouterr().out  # the table is written as ever
    soup = BeautifulSoup((out / "s.html").read_text(encoding="utf-8"), "html.parser")
    steps = json.loads(soup.find("script", id="cn-steps").string)
    assert [(s["start"], s["end"]) for s in steps] == [(1, 4), (6, 10), (7, 9)]
    assert all(s["why"] for s in steps)
    texts = [t.text for t in ET.parse(out / "s.svg").getroot().iter("{http://www.w3.org/2000/svg}text")]
    assert "export function add(a: number, b: number): number {" in texts
    assert (out / "s.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_sweep_writes_its_report_and_chunk_its_browser_page(code: Path, tmp_path: Path) -> None:
    assert main(["sweep", str(code), "--chunk-size", "2,30", "-q", "--report", str(tmp_path / "r.html")]) == 0
    soup = BeautifulSoup((tmp_path / "r.html").read_text(encoding="utf-8"), "html.parser")
    assert len(soup.select('[data-report="settings"] tr[data-row]')) == 2
    assert "clanka-nb sweep" in soup.select_one('[data-command="cli"]').get_text()
    assert main(["chunk", str(code), "-q", "--html", str(tmp_path / "b.html")]) == 0
    assert BeautifulSoup((tmp_path / "b.html").read_text(encoding="utf-8"), "html.parser").find(
        attrs={"data-clanka": "preview"}
    )


@pytest.mark.parametrize(
    ("args", "code_", "said"),
    [
        (["sweep", "{code}", "--report", "r.pdf"], 2, "'r.pdf' must be a file name ending in .html"),
        (["explain", "{code}", "src/app.ts", "--svg", "x.png"], 2, "'x.png' must be a file name ending in .svg"),
        (["explain", "{code}", "src/app.ts", "--html", "--svg"], 2, "expected one argument"),
        (["sweep", "{code}", "--report", "{tmp}/nope/r.html"], 1, "the folder"),
    ],
)
def test_a_wrong_file_is_refused_before_any_work(code: Path, tmp_path: Path, capsys, args, code_, said) -> None:
    filled = [a.format(code=code, tmp=tmp_path) for a in args]
    try:
        returned = main(filled)
    except SystemExit as usage:  # argparse's usage errors exit 2 from inside main
        returned = usage.code
    assert returned == code_
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
    assert not (tmp_path / "nope").exists()
