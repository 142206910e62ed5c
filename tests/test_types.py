"""The type checker's house rules that mypy itself does not enforce: every `type: ignore` names its error code
(mypy's ignore-without-code does that) and says why, in words, on the same line."""

from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest

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
    assert config["warn_unused_ignores"] is True and config["strict"] is True
    assert "ignore-without-code" in config["enable_error_code"]
    assert re.search(r"^python -m mypy$", (ROOT / ".ci" / "run").read_text(encoding="utf-8"), re.MULTILINE)


def _not_yet_strict(config: dict[str, Any]) -> list[str]:
    """The modules of pyproject.toml's "not yet strict" override: the one that turns off disallow_any_generics."""
    [found] = [o for o in config["overrides"] if o.get("disallow_any_generics") is False]
    return list(found["module"])


def _ini(config: dict[str, Any], leave_out: list[str]) -> str:
    """[tool.mypy] as a mypy.ini, less the override of the modules `leave_out`."""
    def value(item: object) -> str:
        return ", ".join(map(str, item)) if isinstance(item, list) else str(item)

    sections = ["[mypy]", *(f"{key} = {value(item)}" for key, item in config.items() if key != "overrides")]
    for override in config["overrides"]:
        if list(override["module"]) == leave_out:
            continue
        sections.append(f"[mypy-{','.join(override['module'])}]")
        sections.extend(f"{key} = {value(item)}" for key, item in override.items() if key != "module")
    return "\n".join(sections) + "\n"


@pytest.mark.slow  # a whole mypy run of the package (a minute on a busy machine)
def test_the_not_yet_strict_list_names_exactly_the_modules_strict_mypy_rejects(tmp_path: Path) -> None:
    from mypy import api

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["strict"] is True
    listed = _not_yet_strict(config)
    assert listed == sorted(listed), "keep the list sorted"
    (tmp_path / "mypy.ini").write_text(_ini(config, listed), encoding="utf-8")
    cache = tmp_path / "cache"
    if (ROOT / ".mypy_cache").is_dir():
        # A copy of `python -m mypy`'s cache (CI's type step writes it just before the tests): mypy checks again only
        # what the other options or the code changed (about 4 CPU seconds instead of 35; the answer is the same).
        shutil.copytree(ROOT / ".mypy_cache", cache)
    out, err, _ = api.run(["--config-file", str(tmp_path / "mypy.ini"), "--cache-dir", str(cache),
                           "--no-error-summary"])  # fmt: skip
    assert err == ""
    failing = set()
    for line in out.splitlines():
        found = re.match(r"^(clanka_nb/\S+)\.py:\d+: error:", line)
        if found:
            failing.add(found.group(1).removesuffix("/__init__").replace("/", "."))
    now_strict = sorted(set(listed) - failing)
    assert now_strict == [], f"strict-clean now: remove them from pyproject.toml's not-yet-strict list: {now_strict}"
    assert sorted(failing - set(listed)) == [], out  # plain `mypy` reports these too


def test_the_ini_leaves_out_only_the_named_override() -> None:
    config = {"strict": True, "files": ["clanka_nb"], "overrides": [
        {"module": ["a.*", "b"], "ignore_missing_imports": True}, {"module": ["c"], "disallow_any_generics": False}]}
    assert _not_yet_strict(config) == ["c"]
    expected = "[mypy]\nstrict = True\nfiles = clanka_nb\n[mypy-a.*,b]\nignore_missing_imports = True\n"
    assert _ini(config, ["c"]) == expected
