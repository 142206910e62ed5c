"""The default install (the engine alone) names the extra to install, in one line, for every optional library.

`.ci/run`'s engine-only venv runs this file with pandas, ipywidgets and numpy really absent; in the full venv
the same checks run in a subprocess where those libraries are made absent (`sys.modules[name] = None`,
which is how Python itself marks a module that cannot be imported), so both installs are covered.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

import clanka_nb

QUICKSTART = Path(__file__).resolve().parents[2] / "notebooks" / "01-quickstart.ipynb"
# What the engine-only install lacks: every optional library of the extras.
OPTIONAL = ("pandas", "pyarrow", "matplotlib", "tqdm", "numpy", "ipywidgets", "pygments", "bm25s", "apsw",
            "sqlite_vec", "httpx", "tiktoken")  # fmt: skip

# name -> (the extra the message must name, the library the engine-only install misses first)
LIBRARY = {
    "chunk_codebase": "frames",
    "files": "frames",
    "churn": "frames",
    "browse": "widgets",
    "preview": "widgets",
    "tune": "widgets",
    "SemanticIndex": "index",
    "embedders": "index",
    "open_index": "index",
    "probe": "probe",
}

PROBE = """
import json, sys
for name in sys.argv[1].split(","):
    if name:
        sys.modules[name] = None  # absent, as Python marks a module that cannot be imported
from pathlib import Path
import clanka_nb as cn
from clanka_nb.cli import main
out = {}
for name in sys.argv[2].split(","):
    try:
        value = getattr(cn, name)
        if name == "embedders":
            value.hashed_words()
        out[name] = "no error"
    except ModuleNotFoundError as error:
        out[name] = str(error)
out["engine"] = cn.engine.Codebase.__name__
out["cli"] = main(["chunk", sys.argv[3], "-q"])
print(json.dumps(out))
"""


def _check(out: dict[str, object], capsys_err: str) -> None:
    for name, extra in LIBRARY.items():
        message = out[name]
        assert isinstance(message, str) and "\n" not in message
        assert message.startswith(f"clanka_nb.{name} needs "), message
        assert message.endswith(f": pip install 'clanka-nb[{extra}]'"), message
    assert out["engine"] == "Codebase"  # cn.engine works as an attribute
    assert out["cli"] == 1
    lines = capsys_err.strip().splitlines()
    assert lines == ["clanka-nb: error: clanka-nb chunk needs pandas: pip install 'clanka-nb[frames]'"], capsys_err


def _run(tmp_path: Path, blocked: tuple[str, ...]) -> tuple[dict[str, object], str]:
    (tmp_path / "a.ts").write_text("export const a = 1;\n")
    result = subprocess.run(
        [sys.executable, "-c", PROBE, ",".join(blocked), ",".join(LIBRARY), str(tmp_path)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout), result.stderr


def test_every_missing_library_is_one_line_naming_its_extra(tmp_path: Path) -> None:
    out, err = _run(tmp_path, OPTIONAL)
    _check(out, err)


@pytest.mark.skipif(
    importlib.util.find_spec("pandas") is not None,
    reason="checks the engine-only install itself (.ci/run's bare venv); the test above simulates it here",
)
def test_in_the_engine_only_install_itself(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from clanka_nb.cli import main

    out: dict[str, object] = {}
    for name in LIBRARY:
        with pytest.raises(ModuleNotFoundError) as caught:
            value = getattr(clanka_nb, name)
            if name == "embedders":
                value.hashed_words()
        out[name] = str(caught.value)
    out["engine"] = clanka_nb.engine.Codebase.__name__
    (tmp_path / "a.ts").write_text("export const a = 1;\n")
    out["cli"] = main(["chunk", str(tmp_path), "-q"])
    _check(out, capsys.readouterr().err)


NOTEBOOK = """
import json, sys
sys.modules["ipywidgets"] = None  # a venv with the frames extra only
cells = [c for c in json.load(open(sys.argv[1]))["cells"] if c["cell_type"] == "code"]
scope = {}
for number, cell in enumerate(cells, 1):
    try:
        exec("".join(cell["source"]), scope)
    except Exception as error:
        print(json.dumps([number, type(error).__name__, str(error)]))
        break
"""


def test_the_quickstart_without_the_widgets_extra_stops_at_its_first_cell_with_one_message() -> None:
    result = subprocess.run(
        [sys.executable, "-c", NOTEBOOK, str(QUICKSTART)], capture_output=True, text=True, timeout=300, check=False,
        cwd=QUICKSTART.parent,
    )  # fmt: skip
    number, kind, message = json.loads(result.stdout)
    assert (number, kind) == (1, "MissingExtraError"), result.stdout
    assert message.endswith(": pip install 'clanka-nb[widgets]'") and "\n" not in message
