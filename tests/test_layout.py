"""The layout table of docs/architecture.md matches the tree: every path it names exists, every part is named."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "clanka_nb"


def layout_paths() -> set[str]:
    """The backticked paths of the first column of the table under `## Layout` (folders end with `/`)."""
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    named = set()
    for row in rows:
        first = row.split("|")[1]
        named.update(re.findall(r"`([^`]+)`", first))
    # `cli.py` beside `clanka_nb/_cli/` in one cell names a file of the same folder.
    return {path if "/" in path.rstrip("/") or path.endswith("/") else f"clanka_nb/{path}" for path in named}


def test_every_path_in_the_layout_exists() -> None:
    missing = sorted(path for path in layout_paths() if not (REPO / path).exists())
    assert missing == [], f"docs/architecture.md's layout names paths that are not in the tree: {missing}"


def test_every_part_of_the_tree_is_in_the_layout() -> None:
    named = layout_paths()
    parts = {f"{p.name}/" for p in REPO.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))}
    parts -= {"clanka_nb/"}  # the package is named by its parts below
    parts |= {f"clanka_nb/{p.name}/" for p in PACKAGE.iterdir() if p.is_dir() and not p.name.startswith((".", "__"))}
    parts |= {f"clanka_nb/{p.name}" for p in PACKAGE.glob("*.py") if p.name != "__init__.py"}
    parts |= {f"clanka_nb/{p.parent.relative_to(PACKAGE).as_posix()}/" for p in PACKAGE.glob("*/*/__init__.py")}
    # The tree's own `*.egg-info` and `build/` (the docs site's output) are build output, not layout.
    parts = {part for part in parts if not part.endswith(".egg-info/") and part != "build/"}
    unnamed = sorted(parts - named)
    assert unnamed == [], f"add these to the layout table of docs/architecture.md: {unnamed}"


# A package's tests folder, where its name would hide the package (`tests/dask` would be imported as `dask`).
TEST_FOLDERS = {"dask": "on_dask", "_cli": "cli"}


def test_every_package_has_its_tests_folder() -> None:
    names = sorted(p.parent.name for p in PACKAGE.glob("*/__init__.py"))
    missing = [f"tests/{TEST_FOLDERS.get(name, name)}/" for name in names
               if not (REPO / "tests" / TEST_FOLDERS.get(name, name)).is_dir()]  # fmt: skip
    assert missing == [], f"each package's tests go in a folder of its name: make {missing}"


# A module past this many lines holds more than one concern: split it (issue 43: one file per plug-in and part).
MOST_LINES = 600


def test_no_module_is_over_600_lines() -> None:
    long = {str(path.relative_to(REPO)): count for path in sorted(PACKAGE.rglob("*.py"))
            if (count := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES}  # fmt: skip
    assert long == {}, f"split these modules (at most {MOST_LINES} lines each): {long}"
