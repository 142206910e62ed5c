"""mkdocs hooks: the repository's notebooks/ become site pages without a copy under docs/, with their true contents."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


# Before mkdocs-jupyter's own on_files (priority 0), which turns every .ipynb file it sees into a page.
@event_priority(100)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        files.append(
            File(
                f"notebooks/{path.name}",
                src_dir=str(NOTEBOOKS.parent),
                dest_dir=config["site_dir"],
                use_directory_urls=config["use_directory_urls"],
            )
        )
    return files


# A notebook's headings, as nbconvert wrote them into the page: <hN id="...">text<a class="anchor-link" ...
_HEADING = re.compile(r'<h([1-6]) id="([^"]+)">(.*?)<a class="anchor-link"', re.S)
_TAG = re.compile(r"<[^>]+>")


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """A notebook page's table of contents from its own headings.

    mkdocs-jupyter builds the contents from a Markdown copy of the notebook, where a heading's code span
    is a placeholder that the contents drop: "5. `chunk_size`, and ..." became "5. , and ..." with an
    anchor no heading has. The page's headings (text and id) are the truth, so the contents are made
    from them.
    """
    if not page.file.src_uri.endswith(".ipynb"):
        return html
    root: list[dict[str, Any]] = []
    open_levels: list[tuple[int, list[dict[str, Any]]]] = [(0, root)]
    for level_text, anchor, inner in _HEADING.findall(html):
        level = int(level_text)
        while open_levels[-1][0] >= level:
            open_levels.pop()
        token = {"level": level, "id": anchor, "name": " ".join(_TAG.sub("", inner).split()), "children": []}
        open_levels[-1][1].append(token)
        open_levels.append((level, token["children"]))
    page.toc = get_toc(root)
    return html
