"""The documentation site's API reference names every public name, and only names that exist."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
REFERENCE = REPO / "docs" / "reference"
# The public modules: each name in their __all__ gets a `::: module.name` entry on a reference page.
PUBLIC = ("clanka_nb", "clanka_nb.engine", "clanka_nb.dask", "clanka_nb.embedders", "clanka_nb.chunkers")


def entries() -> set[str]:
    text = "\n".join(page.read_text(encoding="utf-8") for page in sorted(REFERENCE.glob("*.md")))
    return set(re.findall(r"^::: ([\w.]+)\s*$", text, flags=re.MULTILINE))


def public_names() -> set[str]:
    names = set()
    for module in PUBLIC:
        if module == "clanka_nb.embedders":
            all_names = importlib.import_module("clanka_nb").embedders.__all__
        else:
            all_names = importlib.import_module(module).__all__
        names.update(f"{module}.{name}" for name in all_names)
    return names


def test_every_public_name_has_a_reference_entry() -> None:
    missing = sorted(public_names() - entries())
    assert missing == [], f"add these to a page under docs/reference/: {missing}"


def test_every_reference_entry_is_a_public_name() -> None:
    stale = sorted(entries() - public_names())
    assert stale == [], f"docs/reference/ names what is not public (renamed or removed?): {stale}"


def test_every_page_in_docs_is_in_the_site_navigation() -> None:
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    pages = {page.relative_to(REPO / "docs").as_posix() for page in (REPO / "docs").rglob("*.md")}
    unlisted = sorted(page for page in pages if page not in config)
    assert unlisted == [], f"add these pages to mkdocs.yml's nav: {unlisted}"
    notebooks = sorted(path.name for path in (REPO / "notebooks").glob("*.ipynb"))
    assert [name for name in notebooks if f"notebooks/{name}" not in config] == []
