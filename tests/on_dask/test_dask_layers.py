"""clanka_nb.dask sits beside frames: it loads no viewer, and neither engine nor frames load it or Dask."""

from __future__ import annotations

import subprocess
import sys


def _loaded(code: str, names: tuple[str, ...]) -> list[str]:
    probe = f"{code}\nimport sys\nprint(','.join(m for m in {names!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return [name for name in out.strip().split(",") if name]


def test_the_dask_module_loads_no_widgets() -> None:
    assert _loaded("import clanka_nb.dask", ("ipywidgets", "clanka_nb.widgets")) == []


def test_engine_and_frames_load_neither_dask_nor_the_dask_module() -> None:
    names = ("dask", "distributed", "clanka_nb.dask")
    assert _loaded("import clanka_nb.engine, clanka_nb.frames, clanka_nb.retrieval", names) == []
