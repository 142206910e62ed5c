"""The Binder setup works: mybinder's steps on a fresh clone, then every notebook runs in that environment.

repo2docker (what mybinder runs) picks the Python named in binder/runtime.txt, installs
binder/requirements.txt when present, then runs binder/postBuild from the repository root. This test
does the same in a fresh venv of this machine's Python (see conftest.py for how it reuses installed
wheels) and executes the notebooks with a kernel running that venv's Python.
"""

from __future__ import annotations

import json
import re
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BINDER = ROOT / "binder"

# Runs inside the venv: execute each notebook and report, as JSON, errors and where the kernel ran.
EXECUTE = """
import json, sys
from pathlib import Path
import nbformat
from nbclient import NotebookClient

report = {}
for path in sorted(Path(sys.argv[1]).glob("*.ipynb")):
    notebook = nbformat.read(path, as_version=4)
    probe = "import sys, clanka_nb; print(sys.executable); print(clanka_nb.__file__)"
    notebook.cells.append(nbformat.v4.new_code_cell(probe))
    NotebookClient(notebook, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    errors = [o.get("ename") for c in notebook.cells if c.cell_type == "code"
              for o in c.outputs if o.output_type == "error"]
    report[path.name] = {"errors": errors, "probe": notebook.cells[-1].outputs[0]["text"].split()}
print(json.dumps(report))
"""


def test_runtime_matches_the_supported_python() -> None:
    runtime = (BINDER / "runtime.txt").read_text(encoding="utf-8").strip()
    found = re.fullmatch(r"python-(\d+)\.(\d+)", runtime)
    assert found, f"binder/runtime.txt should read like python-3.11, not {runtime!r}"
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["requires-python"]
    minimum = re.fullmatch(r">=\s*(\d+)\.(\d+)", requires)
    assert minimum, f"unexpected requires-python {requires!r}"
    assert tuple(map(int, found.groups())) >= tuple(map(int, minimum.groups()))


@pytest.mark.slow
def test_binder_steps_then_every_notebook_runs(clone: Path, venv, tmp_path: Path) -> None:  # venv: conftest.Venv
    if sys.version_info[:2] != tuple(
        int(part) for part in (clone / "binder" / "runtime.txt").read_text().strip().removeprefix("python-").split(".")
    ):
        pytest.skip("this machine's Python is not the one binder/runtime.txt names")
    if (clone / "binder" / "requirements.txt").exists():
        venv.run(["python", "-m", "pip", "install", "-r", "binder/requirements.txt"], cwd=clone)
    venv.run(["bash", "binder/postBuild"], cwd=clone)

    script = tmp_path / "execute.py"
    script.write_text(EXECUTE, encoding="utf-8")
    report = json.loads(venv.run(["python", str(script), str(clone / "notebooks")], cwd=tmp_path).stdout)

    assert set(report) >= {"01-quickstart.ipynb", "02-tuning.ipynb", "03-how-chunking-works.ipynb"}
    for name, result in report.items():
        assert result["errors"] == [], name
        executable, package = map(Path, result["probe"])
        assert executable.parent == venv.path / "bin", f"{name} ran in {executable}, not the Binder venv"
        assert package.is_relative_to(clone), f"{name} imported clanka_nb from {package}, not the clone"
