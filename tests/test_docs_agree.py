"""The docs agree with themselves: one way to install torch, no link to another project as this one's
repository, notebook titles in one style."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEXTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "notebooks").glob("*.ipynb"))]


def test_every_torch_install_line_is_the_one_that_works_offline() -> None:
    # pip's plain `torch` is a CUDA build of several GB; an index URL is a host this project never names.
    lines = [
        f"{path.relative_to(ROOT)}: {line.strip()}"
        for path in TEXTS
        for line in path.read_text(encoding="utf-8").splitlines()
        if re.search(r"pip install\b.*\btorch\b", line)
    ]
    assert lines, "the README says how to install torch"
    wrong = [line for line in lines if "torch==2.13.0" not in line or "--index-url" in line]
    assert not wrong, wrong


def test_the_site_names_no_other_project_as_its_repository() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert not re.search(r"^repo_url:.*Effectful-Tech/clanka\b", config, re.M)


def test_notebook_titles_have_no_number() -> None:
    # The site's navigation shows each notebook's first heading; the file names carry the order.
    titles = {}
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        first = next(cell for cell in cells if cell["cell_type"] == "markdown")
        titles[path.name] = "".join(first["source"]).splitlines()[0]
    numbered = {name: title for name, title in titles.items() if re.match(r"#\s*\d", title)}
    assert not numbered, numbered
