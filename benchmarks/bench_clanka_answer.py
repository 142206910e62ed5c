"""What the answer for clanka says on real repositories (issue 53): notebooks/09-what-to-tell-clanka.ipynb run with
its two codebases set to given clones.

Usage:
  python benchmarks/bench_clanka_answer.py OWN OTHER [--save FILE]

OWN is a git clone in clanka's own languages (TypeScript: clanka's own clone, say), OTHER one in another language
(a Go or Rust library); both with their history, so the probe's queries include their commit messages. The notebook
is executed as it is committed, with only its `own = ...` and `other = ...` lines replaced. Printed: each clone's
commit and commit count, then the notebook's outputs in order (what was measured: queries per source, rows,
seconds; every row with the reference marked; the answers' numbers; and the sentence each answer ends on with its
snippet), as docs/clanka.md ("What the answer said on two real repositories") quotes them. `--save` writes the
executed notebook. Nothing is downloaded.
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "09-what-to-tell-clanka.ipynb"


def _git(folder: Path, *argv: str) -> str:
    return subprocess.run(["git", "-C", str(folder), *argv], capture_output=True, text=True, check=True).stdout.strip()


def with_sources(notebook: nbformat.NotebookNode, own: Path, other: Path) -> None:
    """Set the notebook's two codebases (its `own = ...` and `other = ...` lines) to the given folders."""
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        lines = cell.source.splitlines()
        found = {name: index for index, line in enumerate(lines) for name in ("own", "other")
                 if line.startswith(f"{name} = ")}  # fmt: skip
        if len(found) == 2:
            lines[found["own"]] = f"own = Path({str(own)!r})"
            lines[found["other"]] = f"other = Path({str(other)!r})"
            cell.source = "\n".join(lines)
            return
    msg = f"{NOTEBOOK.name} has no cell that sets both `own = ...` and `other = ...`: the script follows the notebook"
    raise SystemExit(msg)


def printed(notebook: nbformat.NotebookNode) -> str:
    """The executed notebook's outputs as text: Markdown where a cell gave it, a table's text, no images."""
    parts = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            if output.output_type == "stream":
                parts.append(output.text.rstrip())
            elif output.output_type in {"execute_result", "display_data"}:
                data = output.get("data", {})
                text = data.get("text/markdown") or ("" if "image/png" in data else data.get("text/plain", ""))
                parts.append(text.rstrip())
            elif output.output_type == "error":
                parts.append(f"error: {output.ename}: {output.evalue}")
    return "\n\n".join(part for part in parts if part)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("own", type=Path, help="a clone in clanka's languages (TypeScript)")
    parser.add_argument("other", type=Path, help="a clone in another language (Go, Rust...)")
    parser.add_argument("--save", type=Path, help="write the executed notebook here")
    given = parser.parse_args()
    own, other = given.own.expanduser().resolve(), given.other.expanduser().resolve()
    for folder in (own, other):
        print(f"{folder}: commit {_git(folder, 'rev-parse', 'HEAD')}, {_git(folder, 'rev-list', '--count', 'HEAD')} "
              "commits")  # fmt: skip
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    with_sources(notebook, own, other)
    pd_options = "import pandas as pd\npd.set_option('display.width', 200)\npd.set_option('display.max_columns', 20)"
    notebook.cells.insert(0, nbformat.v4.new_code_cell(pd_options))  # the tables whole, for the page that quotes them
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        NotebookClient(notebook, timeout=3600, kernel_name="python3",
                       resources={"metadata": {"path": folder}}).execute()  # fmt: skip
    print(f"notebook executed in {time.perf_counter() - started:.1f} s\n")
    print(printed(notebook))
    if given.save is not None:
        nbformat.write(notebook, given.save)


if __name__ == "__main__":
    main()
