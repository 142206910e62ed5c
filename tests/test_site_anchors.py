"""Every link inside the documentation site leads somewhere: each page it names exists, with the anchor.

The site is built as CI builds it, but with the notebooks left unexecuted (their headings, which the
contents and the anchors come from, do not depend on their outputs), so this takes seconds.
"""

from __future__ import annotations

import os
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(values["id"] or "")
        if tag == "a" and values.get("href"):
            self.links.append(values["href"] or "")


def _read(page: Path) -> _Links:
    parsed = _Links()
    parsed.feed(page.read_text(encoding="utf-8"))
    return parsed


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "CLANKA_NB_DOCS_EXECUTE": "false", "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def test_every_anchor_and_page_a_link_names_exists(site: Path) -> None:
    pages = {page: _read(page) for page in site.rglob("*.html")}
    broken = []
    for page, parsed in pages.items():
        for href in parsed.links:
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or href.startswith(("mailto:", "javascript:")):
                continue  # outside the site
            path = unquote(parts.path)
            # The 404 page links from the site's root (it is served at any depth); every other page relatively.
            base = site if path.startswith("/") else page.parent
            target = (base / path.lstrip("/")).resolve() if path else page
            if target.is_dir():
                target = target / "index.html"
            if target.suffix != ".html":
                if not target.exists():
                    broken.append(f"{page.relative_to(site)}: {href} (no such file)")
                continue
            if target not in pages:
                broken.append(f"{page.relative_to(site)}: {href} (no such page)")
            elif parts.fragment and unquote(parts.fragment) not in pages[target].ids:
                broken.append(f"{page.relative_to(site)}: {href} (no such anchor)")
    assert not broken, f"{len(broken)} links lead nowhere:\n" + "\n".join(sorted(set(broken))[:40])


def test_a_notebook_heading_with_code_keeps_its_words_in_the_contents(site: Path) -> None:
    page = (site / "notebooks" / "03-how-chunking-works" / "index.html").read_text(encoding="utf-8")
    assert "5. chunk_size, and the class-truncation rule" in " ".join(page.split())
    assert "5. , and" not in page
