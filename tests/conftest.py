"""Suite-wide settings.

The parse cache of every process the suite starts (kernels and servers included) lives in a fresh
folder of this run, never in the user's own cache, and its secret key in a fresh config folder.

A test that needs an outside program skips without it, unless the run requires that program.

Mark such a test `@pytest.mark.needs_tool("rg", install="apt-get install ripgrep")`. `.ci/run` sets
`CLANKA_NB_REQUIRE_TOOLS=rg,chromium`: there a missing program fails the test instead of skipping it,
so a CI machine that lost a package cannot pass by quietly running fewer tests.

Every server, browser and kernel the run starts ends with it, even when the run is killed
(`tests/_watchdog.py`). Under pytest-xdist each worker is a run of its own: it marks its children with a token
of its own and starts its own watchdog, and the controller's watchdog ends the workers.

The suite runs by cost (docs/testing.md, "Running by cost"): a test is `slow` when its folder is one of
SLOW_FOLDERS or its id is in tests/slow_tests.txt (measured with `--durations`), so `-m "not slow"` is the
inner loop; a test is `serial` when it starts a browser or kills processes (SERIAL), so CI runs those apart
from the parallel run.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from tests import _watchdog

_watchdog.start()
os.environ["CLANKA_NB_CACHE_DIR"] = tempfile.mkdtemp(prefix="clanka-nb-test-cache-")
os.environ["CLANKA_NB_CONFIG_DIR"] = tempfile.mkdtemp(prefix="clanka-nb-test-config-")

REQUIRED_TOOLS = frozenset(filter(None, os.environ.get("CLANKA_NB_REQUIRE_TOOLS", "").split(",")))


def missing_tool(name: str, install: str) -> None:
    """Skip the running test for a missing program, or fail it where this run requires the program."""
    message = f"{name} is not installed ({install})"
    if name in REQUIRED_TOOLS:
        pytest.fail(f"{message}, and CLANKA_NB_REQUIRE_TOOLS says this run must have it")
    pytest.skip(message)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "needs_tool(name, install): skip without the program `name` on PATH")


HERE = Path(__file__).resolve().parent
# Whole folders of the slow tier: fresh virtual environments, whole notebooks, a browser, Dask clusters.
SLOW_FOLDERS = ("tests/install/", "tests/notebooks/", "tests/browser/", "tests/on_dask/")
# Started apart from the parallel run: a JupyterLab with Chromium, and tests whose subject is a killed process.
SERIAL = (
    "tests/browser/", "tests/engine/test_worker_death.py", "tests/on_dask/test_dask_worker_loss.py",
)  # fmt: skip


def measured_slow(path: Path = HERE / "slow_tests.txt") -> frozenset[str]:
    """The test ids of tests/slow_tests.txt (one a line, `#` starts a comment): a function's id covers its
    parameters (`tests/x.py::test_y` marks `tests/x.py::test_y[a]` too)."""
    lines = (line.split("#", 1)[0].strip() for line in path.read_text(encoding="utf-8").splitlines())
    return frozenset(line for line in lines if line)


def cost_marks(nodeid: str, slow: frozenset[str]) -> list[str]:
    """The cost marks (`slow`, `serial`) a test gets from its folder, its file and the measured list."""
    marks = []
    if nodeid.startswith(SLOW_FOLDERS) or nodeid in slow or nodeid.split("[", 1)[0] in slow:
        marks.append("slow")
    if nodeid.startswith(SERIAL):
        marks.append("serial")
    return marks


# The verdict's tests (tests/decision/) run first: it is the library every sweep's answer rests on, so a broken
# verdict fails a run at its start, not after the slow parts. A stable sort keeps every other test's order.
FIRST = os.path.join("tests", "decision", "")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    slow = measured_slow()
    for item in items:
        for name in cost_marks(item.nodeid, slow):
            item.add_marker(getattr(pytest.mark, name))
    items.sort(key=lambda item: FIRST not in str(item.path))


def pytest_runtest_setup(item: pytest.Item) -> None:
    for mark in item.iter_markers("needs_tool"):
        name = mark.args[0]
        if shutil.which(name) is None:
            missing_tool(name, mark.kwargs.get("install", f"install {name}"))
