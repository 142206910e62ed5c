"""Every warning for the user is raised by `engine.warn.warn_at_user`, and lands on the user's line."""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

from clanka_nb.engine.warn import warn_at_user

PACKAGE = Path(__file__).resolve().parents[2] / "clanka_nb"
# The two SQLite caches keep their own warning for now: their connect/fail/warn code is being made one.
NOT_YET = {"engine/_cache.py", "index/_vectors.py"}


def test_no_module_but_the_helper_calls_warnings_warn() -> None:
    calls = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        if name.startswith("sample/") or name in NOT_YET or name == "engine/warn.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            func = node.func if isinstance(node, ast.Call) else None
            if isinstance(func, ast.Attribute) and func.attr == "warn" and isinstance(func.value, ast.Name):
                calls.append(f"{name}:{node.lineno} calls {func.value.id}.warn: use engine.warn.warn_at_user")
    assert calls == []


def test_a_warning_points_at_the_first_line_outside_the_package() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warn_at_user("here", UserWarning)
    assert caught[0].filename == __file__
