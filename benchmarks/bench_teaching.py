"""Notebooks that stay small, pages that hold a whole file (issue 54): the size of a saved notebook of seven viewer
cells, and the size and export time of every view's page and picture, on a real repository of 2,000-line files.

Usage:
  python benchmarks/bench_teaching.py REPO [FILE]      (FILE: a long file of REPO, e.g. assert/assertions.go)

The seven cells (browse, preview, tune, compare in both language modes, step_through, explain, report of a probed
sweep) run in a real kernel (nbclient) and the notebook is saved with its widgets' state, as JupyterLab saves it.
The baseline, in the same run: the same notebook with the previews at 2,000 lines a page (the page size before),
so the ratio is what a page of lines saves. Then each view is saved as its page (and the preview and the comparison
as SVG and PNG): bytes and seconds each.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from clanka_nb.widgets._render import MAX_LINES

CELLS = [
    "import clanka_nb as cn\nREPO, FILE = {repo!r}, {file!r}",
    "cn.browse(REPO)",
    "cn.preview(REPO, FILE{page})",
    "cn.tune(REPO, path=FILE)",
    "cn.compare(REPO, FILE, a={{'languages': 'clanka'}}, b={{'languages': 'extended'}})",
    "cn.step_through(REPO, FILE)",
    "cn.explain(REPO, FILE)",
    "cn.report(cn.sweep(REPO, chunk_size=[20, 40], probe=True, progress=False))",
]


def saved_notebook(repo: str, file: str, page: str, out: Path) -> int:
    """Run the seven viewer cells in a kernel, save the notebook with its widgets' state; its size in bytes."""
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(cell.format(repo=repo, file=file, page=page)) for cell in CELLS]
    NotebookClient(notebook, timeout=900, kernel_name="python3", store_widget_state=True).execute()
    nbformat.write(notebook, out)
    return out.stat().st_size


def exports(repo: str, file: str, folder: Path) -> list[tuple[str, int, float]]:
    """Each view saved: (file name, bytes, seconds of the save alone)."""
    import clanka_nb as cn

    views = {
        "browse": cn.browse(repo), "preview": cn.preview(repo, file), "tune": cn.tune(repo, path=file),
        "compare": cn.compare(repo, file, a={"languages": "clanka"}, b={"languages": "extended"}),
        "steps": cn.step_through(repo, file),
        "report": cn.report(cn.sweep(repo, chunk_size=[20, 40], probe=True, progress=False)),
    }  # fmt: skip
    rows = []
    for name, view in views.items():
        suffixes = (".html", ".svg", ".png") if name in ("preview", "compare") else (".html",)
        for suffix in suffixes:
            target = folder / f"{name}{suffix}"
            began = time.perf_counter()
            view.save(target)
            rows.append((target.name, target.stat().st_size, time.perf_counter() - began))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("repo")
    parser.add_argument("file", nargs="?", default="assert/assertions.go")
    args = parser.parse_args()
    repo = os.path.abspath(args.repo)
    lines = len((Path(repo) / args.file).read_text(encoding="utf-8").splitlines())
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        now = saved_notebook(repo, args.file, "", folder / "now.ipynb")
        before = saved_notebook(repo, args.file, ", max_lines=2000", folder / "before.ipynb")
        print(f"{args.file}: {lines:,} lines")
        print(f"saved notebook, 7 viewer cells: {now / 1e6:.2f} MB (pages of {MAX_LINES} lines); with the preview "
              f"at 2,000 lines a page: {before / 1e6:.2f} MB; ratio {now / before:.2f}")  # fmt: skip
        for name, size, seconds in exports(repo, args.file, folder):
            print(f"  {name:14} {size / 1e6:7.2f} MB  {seconds:6.2f} s")


if __name__ == "__main__":
    main()
