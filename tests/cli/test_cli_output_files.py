"""-o writes once: a FIFO's reader gets the whole output, a failed write leaves the file it was replacing as it was
(issue 34, item 13); CSV cells cannot become spreadsheet formulas or carry controls (issue 34, item 14)."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pandas as pd
import pytest

from clanka_nb._cli import _output
from clanka_nb.cli import main

# The CLI in a child whose files may not grow past 512 bytes: a write fails midway, as on a full disk.
SMALL_FILES = """\
import resource, sys
resource.setrlimit(resource.RLIMIT_FSIZE, (512, 512))
from clanka_nb.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "CLANKA_NB_CACHE": "off",
            "CLANKA_NB_CACHE_DIR": str(tmp_path / "cache"), "CLANKA_NB_CONFIG_DIR": str(tmp_path / "config")}


# --- 13: -o to a FIFO, and a write that fails -------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_reader_gets_the_whole_output(code: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "out.jsonl"
    os.mkfifo(fifo)
    got: list[bytes] = []

    def read() -> None:
        with fifo.open("rb") as handle:  # blocks until the CLI opens it for writing
            got.append(handle.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        result = subprocess.run([sys.executable, "-m", "clanka_nb.cli", "chunk", str(code), "-q", "-o", str(fifo)],
                                capture_output=True, text=True, timeout=120, env=_env(tmp_path))
    finally:
        reader.join(timeout=30)
        if reader.is_alive():  # the CLI never opened it: release the reader (a writer that closes at once)
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            reader.join(timeout=30)
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in got[0].decode("utf-8").splitlines()]
    assert rows and {row["path"] for row in rows} >= {"src/app.ts"}
    assert fifo.exists() and not fifo.is_file()  # still the FIFO, not replaced by a file


def test_a_write_that_fails_midway_leaves_the_old_file_and_no_partial_one(code: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    target = out / "chunks.jsonl"
    target.write_text("old\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-c", SMALL_FILES, "chunk", str(code), "-q", "-o", str(target)],
                            capture_output=True, text=True, timeout=120, env=_env(tmp_path))
    assert result.returncode == 1, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot write" in lines[0] and "Traceback" not in result.stderr
    assert target.read_text(encoding="utf-8") == "old\n"  # the file it was replacing, as it was
    assert sorted(p.name for p in out.iterdir()) == ["chunks.jsonl"]  # and no partial temporary file beside it


def test_a_replaced_file_keeps_its_mode_and_a_link_keeps_pointing_at_it(capsys, code: Path, tmp_path: Path) -> None:
    target = tmp_path / "chunks.jsonl"
    target.write_text("old\n", encoding="utf-8")
    target.chmod(0o640)
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    assert main(["chunk", str(code), "-q", "-o", str(link)]) == 0
    capsys.readouterr()
    assert link.is_symlink() and link.resolve() == target.resolve()
    assert target.read_text(encoding="utf-8").startswith("{") and (target.stat().st_mode & 0o777) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".jsonl")) == ["chunks.jsonl", "link.jsonl"]


def test_a_read_only_file_is_still_refused(capsys, code: Path, tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root may write any file")
    target = tmp_path / "chunks.jsonl"
    target.write_text("old\n", encoding="utf-8")
    target.chmod(0o444)
    assert main(["chunk", str(code), "-q", "-o", str(target)]) == 1
    assert "cannot write" in capsys.readouterr().err
    assert target.read_text(encoding="utf-8") == "old\n"


# --- 14: CSV cells ------------------------------------------------------------------------------------------------

HOSTILE = [
    '=HYPERLINK("http://evil.example/","click")', "+1+2", "-2+3", "@SUM(A1)", "\tstart", "\rstart",
    "fix \u202eevil\u202c name", "bell\x07 and esc\x1b[2J", "plain subject", "multi\nline",
]


def test_csv_neutralises_formulas_and_escapes_controls_in_text_only(tmp_path: Path) -> None:
    frame = pd.DataFrame({
        "subject": HOSTILE,
        "delta": [-1, -2, -3, 4, 5, -6, 7, 8, 9, -10],
        "share": [-0.5] * 10,
    })
    target = tmp_path / "out.csv"
    _output.write(frame, "csv", str(target))
    raw = target.read_text(encoding="utf-8")
    for character in ("\x07", "\x1b", "\u202e", "\u202c", "\r"):
        assert character not in raw
    rows = list(csv.DictReader(io.StringIO(raw, newline="")))
    subjects = [row["subject"] for row in rows]
    assert subjects[:6] == [
        "'=HYPERLINK(\"http://evil.example/\",\"click\")", "'+1+2", "'-2+3", "'@SUM(A1)", "'\tstart", "\\x0dstart",
    ]
    assert subjects[6:] == ["fix \\u202eevil\\u202c name", "bell\\x07 and esc\\x1b[2J", "plain subject", "multi\nline"]
    # Numbers stay numbers: a negative delta is not text and gets no quote.
    assert [row["delta"] for row in rows] == [str(v) for v in frame["delta"]]
    assert {row["share"] for row in rows} == {"-0.5"}


def test_csv_to_the_terminal_is_neutralised_too(capsys) -> None:
    frame = pd.DataFrame({"subject": ["=1+1"], "n": [-1]})
    _output.write(frame, "csv", None)
    assert capsys.readouterr().out.splitlines() == ["subject,n", "'=1+1,-1"]
