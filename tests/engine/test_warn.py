"""Every warning for the user is raised by `engine.warn.warn_at_user`, and lands on the user's line; every warning
class of the package is a `ClankaWarning` beside its standard category, and the suite turns them into errors."""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

import pytest

import clanka_nb
from clanka_nb import engine
from clanka_nb.engine.warn import warn_at_user
from clanka_nb.warning import ClankaWarning

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
        warn_at_user("here", engine.NothingToChunkWarning)
    assert caught[0].filename == __file__


def _warning_classes() -> list[tuple[str, ast.ClassDef]]:
    """(module path, class) for every class of the package with a base whose name ends in `Warning`."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        if name.startswith("sample/"):
            continue
        found.extend(
            (name, node) for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.ClassDef) and any(ast.unparse(base).endswith("Warning") for base in node.bases)
        )
    return found


def test_every_warning_class_is_a_clanka_warning_beside_its_standard_category() -> None:
    classes = [(name, node) for name, node in _warning_classes() if node.name != "ClankaWarning"]
    assert len(classes) >= 15
    wrong = [
        f"{name}:{node.lineno} class {node.name}({', '.join(map(ast.unparse, node.bases))}): "
        "derive from (ClankaWarning, UserWarning)"
        for name, node in classes
        if [ast.unparse(base) for base in node.bases][:1] != ["ClankaWarning"] or len(node.bases) != 2
    ]
    assert wrong == []


def test_one_filter_escalates_or_silences_them_all() -> None:
    assert clanka_nb.ClankaWarning is ClankaWarning and "ClankaWarning" in clanka_nb.__all__
    assert issubclass(engine.SettingClampedWarning, ClankaWarning)
    assert issubclass(engine.SettingClampedWarning, UserWarning)  # a filter on UserWarning still applies
    with warnings.catch_warnings():
        warnings.simplefilter("error", ClankaWarning)
        with pytest.raises(engine.SettingClampedWarning, match="is used as chunk_size=1"):
            engine.Settings(chunk_size=0).over(None)
        warnings.simplefilter("ignore", ClankaWarning)
        with warnings.catch_warnings(record=True) as caught:
            engine.Settings(chunk_size=0).over(None)
        assert caught == []


def test_the_suite_turns_them_into_errors() -> None:
    # pyproject.toml's filterwarnings: a test that expects one says so (pytest.warns or a filterwarnings mark).
    with pytest.raises(engine.SettingClampedWarning):
        engine.Settings(chunk_size=0).over(None)
