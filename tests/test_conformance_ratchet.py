"""tools/conformance_ratchet.py: failing runs counted by the class in their case ids, against limits."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests._shared import NEEDS_CONFORMANCE

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT / "tools" / "conformance_ratchet.py"
CHECK = ROOT.parent / "shared" / "conformance" / "check.py"

pytestmark = pytest.mark.skipif(
    not CHECK.is_file(), reason=NEEDS_CONFORMANCE
)


def _run(text: str, name: str, start: int) -> dict:
    content = text.split("\n")[start - 1]
    return {
        "path": "a.ts",
        "start_line": start,
        "end_line": start,
        "name": name,
        "type": "function",
        "parent": None,
        "content_sha256": hashlib.sha256(content.encode()).hexdigest(),
    }


def _cases(tmp_path: Path) -> Path:
    """Three runs of class `x-right` that pass, two of class `x-wrong` and one of `y-wrong` that fail."""
    text = "function f() {}\nfunction g() {}\n"
    right = [_run(text, "f", 1), _run(text, "g", 2)]
    wrong = [_run(text, "f", 1), _run(text, "h", 2)]
    options = {"chunk_size": 30, "chunk_overlap": 0, "chunk_max_characters": None}

    def case(case_id: str, expected: list, runs: int) -> dict:
        run = {"options": options, "expected": expected}
        return {"id": case_id, "path": "a.ts", "content": text, "runs": [run] * runs}

    cases = [
        case("x-right-synth-000", right, 3),
        case("x-wrong-corpus-001", wrong, 2),
        case("y-wrong-synth-002", wrong, 1),
    ]
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in cases), encoding="utf-8")
    return path


def _ratchet(cases: Path, *allow: str) -> subprocess.CompletedProcess:
    args = [sys.executable, str(TOOL), "--check", str(CHECK), "--cases", str(cases)]
    args += [f"--allow={limit}" for limit in allow]
    return subprocess.run(args, capture_output=True, text=True, env={"PYTHONPATH": str(ROOT), "PATH": ""})


def test_within_the_limits_of_each_class_it_passes(tmp_path: Path) -> None:
    done = _ratchet(_cases(tmp_path), "x-wrong=2", "y-wrong=1")
    assert done.returncode == 0, done.stdout
    assert "x-wrong: 2 failed (allowed 2)" in done.stdout
    assert "3 passed, 3 failed" in done.stdout


def test_one_more_failure_in_a_class_fails(tmp_path: Path) -> None:
    done = _ratchet(_cases(tmp_path), "x-wrong=1", "y-wrong=1")
    assert done.returncode == 1
    assert "x-wrong: 2 failed (allowed 1)  <- WORSE" in done.stdout


def test_a_class_without_a_limit_may_not_fail(tmp_path: Path) -> None:
    done = _ratchet(_cases(tmp_path), "x-wrong=2")
    assert done.returncode == 1
    assert "y-wrong: 1 failed (allowed 0)  <- WORSE" in done.stdout
