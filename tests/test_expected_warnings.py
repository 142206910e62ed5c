"""A test that expects one of our warnings says so itself: no module or class silences one for all its tests.

The suite turns every `ClankaWarning` into an error (pyproject.toml), so that none passes unseen. A
`pytestmark` of `filterwarnings` marks at the top of a module (or in a class) would let every test below it raise
the warning unseen, the ones that never meant to included; so would a mark that ignores `UserWarning` or
`Warning`, the standard categories every `ClankaWarning` also derives from. docs/testing.md, "Warnings are errors".
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parent
# Ignoring one of these ignores every ClankaWarning with it (each derives from UserWarning as well).
BASES = ("UserWarning", "Warning", "clanka_nb.ClankaWarning", "clanka_nb.warning.ClankaWarning")


def _marks_of(value: ast.expr) -> Iterator[ast.Call]:
    # The `...filterwarnings(...)` calls inside an expression (a mark, a list of marks, a name's list aside).
    for node in ast.walk(value):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "filterwarnings":
            yield node


def _wide_marks(path: Path, root: Path = TESTS.parent) -> Iterator[str]:
    name = path.relative_to(root)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bodies = [("module", tree.body)] + [
        (f"class {node.name}", node.body) for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
    ]
    for where, body in bodies:
        for statement in body:
            if isinstance(statement, ast.Assign | ast.AnnAssign) and statement.value is not None:
                for call in _marks_of(statement.value):
                    yield f"{name}:{call.lineno}: a {where}-wide filterwarnings mark"
    for call in _marks_of(tree):
        for arg in call.args:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                action, _, rest = arg.value.partition(":")
                category = rest.lstrip(":").split(":", 1)[0]
                if action == "ignore" and category in BASES:
                    yield f"{name}:{call.lineno}: ignores {category}, every ClankaWarning"


def test_warnings_are_expected_test_by_test() -> None:
    found = [line for path in sorted(TESTS.rglob("*.py")) for line in _wide_marks(path)]
    assert found == [], "mark the tests that raise the warning, each with its class:\n" + "\n".join(found)


def test_the_check_finds_a_module_wide_mark_and_a_base_ignored(tmp_path: Path) -> None:
    module = tmp_path / "test_scratch.py"
    module.write_text(
        'import pytest\npytestmark = [pytest.mark.filterwarnings("ignore::clanka_nb.engine.BinaryFileWarning")]\n'
        '@pytest.mark.filterwarnings("ignore::UserWarning")\ndef test_x():\n    pass\n',
        encoding="utf-8",
    )
    found = list(_wide_marks(module, tmp_path))
    assert [line.split(": ", 1)[1] for line in found] == [
        "a module-wide filterwarnings mark",
        "ignores UserWarning, every ClankaWarning",
    ]
