"""Suite-wide settings.

The parse cache of every process the suite starts (kernels and servers included) lives in a fresh
folder of this run, never in the user's own cache, and its secret key in a fresh config folder.

A test that needs an outside program skips without it, unless the run requires that program.

Mark such a test `@pytest.mark.needs_tool("rg", install="apt-get install ripgrep")`. `.ci/run` sets
`CLANKA_NB_REQUIRE_TOOLS=rg,chromium`: there a missing program fails the test instead of skipping it,
so a CI machine that lost a package cannot pass by quietly running fewer tests.

Every server, browser and kernel the run starts ends with it, even when the run is killed
(`tests/_watchdog.py`).
"""

from __future__ import annotations

import os
import shutil
import tempfile

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


# The verdict's tests (tests/decision/) run first: it is the library every sweep's answer rests on, so a broken
# verdict fails a run at its start, not after the slow parts. A stable sort keeps every other test's order.
FIRST = os.path.join("tests", "decision", "")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: FIRST not in str(item.path))


def pytest_runtest_setup(item: pytest.Item) -> None:
    for mark in item.iter_markers("needs_tool"):
        name = mark.args[0]
        if shutil.which(name) is None:
            missing_tool(name, mark.kwargs.get("install", f"install {name}"))
