"""The index sits on the engine: it never loads frames or widgets, and the engine never loads it."""

from __future__ import annotations

import subprocess
import sys


def _loaded(statement: str) -> list[str]:
    code = (f"import sys; {statement}; print(sorted(m for m in ('clanka_nb.index', 'clanka_nb.frames', "
            "'clanka_nb.widgets', 'pandas', 'ipywidgets') if m in sys.modules))")
    return eval(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)


def test_the_engine_does_not_load_the_index():
    assert _loaded("import clanka_nb.engine") == []


def test_the_index_loads_neither_frames_nor_widgets_nor_pandas_on_import():
    assert _loaded("import clanka_nb.index") == ["clanka_nb.index"]
