"""`clanka-nb lab` really starts a JupyterLab server that serves the notebooks folder."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest


@pytest.mark.slow
def test_lab_starts_a_server_on_the_notebooks(tmp_path: Path) -> None:
    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    (notebooks / "hello.ipynb").write_text('{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}')
    home = tmp_path / "home"
    env = {
        **os.environ,
        # Keep this server's config, runtime files and settings out of the user's own.
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
    }
    command = [
        sys.executable, "-m", "clanka_nb.cli", "lab", "--notebooks", str(notebooks), "--",
        "--no-browser", "--ServerApp.port=0", "--IdentityProvider.token=clanka-test",
    ]
    log = tmp_path / "lab.log"
    with log.open("w") as sink:
        server = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT, env=env)
        try:
            url = _wait_for_url(log, server, timeout=60)
            listing = _get(f"{url}api/contents?token=clanka-test", timeout=60)
            assert '"name": "hello.ipynb"' in listing or '"name":"hello.ipynb"' in listing
        finally:
            server.terminate()
            server.wait(timeout=30)
    # The command became the server, so stopping it left no JupyterLab behind.
    assert _processes_mentioning(str(notebooks)) == []


def _get(url: str, *, timeout: float) -> str:
    """The body at `url` on this machine's server, asking again while it is not listening yet."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=10) as response:  # local server only
                return response.read().decode()
        except urllib.error.URLError:
            # The log can name the URL a moment before the socket accepts (seen on a loaded machine).
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def _processes_mentioning(text: str) -> list[str]:
    """Pids whose command line contains `text` (Linux /proc; empty elsewhere)."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if text.encode() in cmdline.read_bytes():
                found.append(cmdline.parent.name)
        except OSError:  # the process ended while we looked
            continue
    return found


def _wait_for_url(log: Path, server: subprocess.Popen[bytes], *, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = re.search(r"(http://127\.0\.0\.1:\d+/)", log.read_text())
        if found:
            return found.group(1)
        if server.poll() is not None:
            pytest.fail(f"clanka-nb lab exited with {server.returncode}:\n{log.read_text()}")
        time.sleep(0.2)
    pytest.fail(f"no server URL within {timeout} s:\n{log.read_text()}")
