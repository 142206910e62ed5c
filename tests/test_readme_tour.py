"""The README's tour runs as written, in a fresh process, and is six lines."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def tour() -> str:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## A six-line tour\n", 1)[1].split("\n## ", 1)[0]
    match = re.search(r"```python\n(.*?)```", section, flags=re.DOTALL)
    assert match, "the tour has no python block"
    return match.group(1)


def test_the_tour_is_six_lines() -> None:
    assert len(tour().strip().splitlines()) == 6


def test_the_tour_runs_as_written(tmp_path: Path) -> None:
    env = {**os.environ, "MPLBACKEND": "Agg"}
    done = subprocess.run(
        [sys.executable, "-c", tour()], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    printed = done.stdout.strip().splitlines()
    assert printed, "the verdict's message was not printed"
    assert "Traceback" not in done.stderr
