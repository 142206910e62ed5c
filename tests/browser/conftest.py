"""Session fixtures: one real JupyterLab server and one headless Chromium for all browser tests.

Helpers to open/run notebooks and take screenshots live in ``_lab.py``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from ._lab import ARTIFACTS_DIR, CHROMIUM_ARGS, LabServer, find_chromium, start_lab_server, stop_lab_server


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    """An isolated ``jupyter lab`` (own config/runtime/settings/workspace dirs, random token, free port).

    Put notebooks under test in ``lab_server.root_dir``.
    """
    server = start_lab_server(tmp_path_factory.mktemp("jupyterlab"))
    try:
        yield server
    finally:
        stop_lab_server(server.process)


# Module scope, not session: while it is open, Playwright's sync API keeps an asyncio loop running in this
# thread, and later tests outside tests/browser that run a loop of their own (`asyncio.run`) would fail.
@pytest.fixture(scope="module")
def chromium_browser() -> Iterator[object]:
    executable = find_chromium()
    if executable is None:
        message = "Chromium is not installed: apt-get install chromium (the .ci/run script does this)"
        # tests/conftest.py: a run that requires Chromium fails here instead of skipping every browser test.
        if "chromium" in os.environ.get("CLANKA_NB_REQUIRE_TOOLS", "").split(","):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def browser_page(chromium_browser, lab_server: LabServer) -> Iterator[object]:
    """A fresh page (own browser context) in the session's Chromium; kernels are shut down afterwards."""
    context = chromium_browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()
        lab_server.shutdown_kernels()


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    """Where tests save screenshots (git-ignored); README screenshots go to docs/screenshots/ instead."""
    ARTIFACTS_DIR.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS_DIR
