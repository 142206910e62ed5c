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
    for option in ("--rounds", "--size"):
        assert option in result.stdout
    assert "--fetch" not in result.stdout  # nothing is downloaded
    assert "read + parse" in result.stdout and ".[bench]" in result.stdout


def test_a_missing_folder_is_one_line_naming_the_fix(tmp_path):
    result = run(str(tmp_path / "nowhere"))
    assert result.returncode != 0
    assert "is missing" in result.stderr and "nothing is downloaded" in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_numbers_are_rejected_before_any_work(tmp_path):
    result = run(str(tmp_path), "--rounds", "0")
    assert result.returncode != 0
    assert "--rounds and --size must be at least 1" in result.stderr


def test_the_network_guard_refuses_and_records_a_connection():
    code = (
        "import socket, sys\n"
        "import bench_peers\n"
        "sys.addaudithook(bench_peers.refuse_network)\n"
        "try:\n"
        "    socket.create_connection(('127.0.0.1', 9), timeout=1)\n"
        "except ConnectionRefusedError as exc:\n"
        "    print(exc)\n"
        "print(len(bench_peers.NETWORK_ATTEMPTS))\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "benchmarks"), str(ROOT)])}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    message, count = result.stdout.strip().splitlines()
    assert "bench_peers refuses network access" in message
    assert int(count) >= 1
