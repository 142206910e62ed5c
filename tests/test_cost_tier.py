"""The suite's cost tier (tests/conftest.py): `slow` by folder and by the measured list, `serial` for what starts a
browser or kills processes; every id of tests/slow_tests.txt names a test that exists, so the list cannot rot."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import SERIAL, SLOW_FOLDERS, cost_marks, measured_slow

ROOT = Path(__file__).resolve().parents[1]


def _functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}


def test_every_measured_slow_id_names_a_test_that_exists() -> None:
    listed = measured_slow()
    assert listed, "tests/slow_tests.txt lists no test"
    missing = []
    for nodeid in sorted(listed):
        file, _, name = nodeid.partition("::")
        path = ROOT / file
        if not path.is_file() or name.split("[", 1)[0].split("::")[-1] not in _functions(path):
            missing.append(nodeid)
    assert missing == [], f"tests/slow_tests.txt names tests that do not exist (renamed? remove them): {missing}"
    assert not [nodeid for nodeid in listed if nodeid.startswith(SLOW_FOLDERS)], "a slow folder needs no ids"


def test_the_marks_follow_folder_file_and_list(tmp_path: Path) -> None:
    (tmp_path / "slow.txt").write_text("# measured\ntests/a.py::test_b  # 12 s\n\ntests/c.py::test_d[x]\n")
    slow = measured_slow(tmp_path / "slow.txt")
    assert slow == {"tests/a.py::test_b", "tests/c.py::test_d[x]"}
    assert cost_marks("tests/a.py::test_b[1-2]", slow) == ["slow"]  # a function's id covers its parameters
    assert cost_marks("tests/c.py::test_d[y]", slow) == []  # one parameter's id only that one
    assert cost_marks("tests/a.py::test_bb", slow) == []
    assert cost_marks("tests/on_dask/test_x.py::test_y", slow) == ["slow"]
    assert cost_marks("tests/browser/test_killed_run.py::test_z", slow) == ["slow", "serial"]
    assert all(entry.startswith("tests/") for entry in (*SLOW_FOLDERS, *SERIAL))
    assert all((ROOT / entry).exists() for entry in (*SLOW_FOLDERS, *SERIAL))
