"""The type checker's house rules that mypy itself does not enforce: every `type: ignore` names its error code
(mypy's ignore-without-code does that) and says why, in words, on the same line."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IGNORE = re.compile(r"#\s*type:\s*ignore(?P<rest>.*)$")
EXPLAINED = re.compile(r"^\[[\w\-, ]+\]\s+#\s*\S.{9,}")  # a code, then "# " and at least ten characters of reason


def test_every_type_ignore_says_why() -> None:
    unexplained = []
    for path in sorted((ROOT / "clanka_nb").rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found = IGNORE.search(line)
            if found is None or line.lstrip().startswith(("#", '"', "`")) or "`type: ignore`" in line:
                continue
            if not EXPLAINED.match(found.group("rest")):
                unexplained.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert unexplained == []


def test_mypy_is_configured_over_the_package_and_run_by_ci() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["files"] == ["clanka_nb"]
    assert config["warn_unused_ignores"] is True
    assert "ignore-without-code" in config["enable_error_code"]
    assert re.search(r"^python -m mypy$", (ROOT / ".ci" / "run").read_text(encoding="utf-8"), re.MULTILINE)
