"""benchmarks/bench_peers.py starts, explains itself and rejects a missing folder, without the peers installed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "bench_peers.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, env=env, timeout=120)


def test_help_names_the_options_and_the_extra():
    result = run("--help")
    assert result.returncode == 0, result.stderr
    for option in ("--package", "--fetch", "--repeat", "--size"):
        assert option in result.stdout
    assert "read + parse" in result.stdout and ".[bench]" in result.stdout


def test_a_missing_folder_is_one_line_naming_the_fix(tmp_path):
    result = run(str(tmp_path / "nowhere"))
    assert result.returncode != 0
    assert "is missing" in result.stderr and "--fetch" in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_numbers_are_rejected_before_any_work(tmp_path):
    result = run(str(tmp_path), "--repeat", "0")
    assert result.returncode != 0
    assert "--repeat and --size must be at least 1" in result.stderr
