"""mkdocs hook: the repository's notebooks/ become site pages without a copy under docs/."""

from __future__ import annotations

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

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
