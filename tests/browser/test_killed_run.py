"""A killed test run takes its JupyterLab, its kernels and its Chromium with it (tests/_watchdog.py)."""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests._watchdog import marked

from ._lab import find_chromium

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _started(probe: bytes) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {"lab": [], "browser": []}
    for pid in marked(probe, skip=os.getpid()):
        line = _cmdline(pid)
        if "jupyter-lab" in line or "jupyter lab" in line:
            found["lab"].append(pid)
        elif "chrom" in line.split(" ", 1)[0]:
            found["browser"].append(pid)
    return found


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="the watchdog reads /proc (Linux)")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_the_servers_and_browsers_of_a_killed_run_are_gone_within_seconds(sig: signal.Signals) -> None:
    if find_chromium() is None:
        pytest.skip("Chromium is not installed: apt-get install chromium")
    # Every process the inner run starts inherits this entry, whatever else it changes in its environment.
    probe_name, probe_value = "CLANKA_NB_KILL_PROBE", secrets.token_hex(8)
    env = {**os.environ, probe_name: probe_value}
    run = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/browser/test_lab_smoke.py"],
        cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    probe = f"{probe_name}={probe_value}".encode()
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and run.poll() is None:
            started = _started(probe)
            if started["lab"] and started["browser"]:
                break
            time.sleep(0.5)
        else:
            pytest.fail(f"the inner run never had JupyterLab and Chromium up together (exit code {run.poll()})")
        run.send_signal(sig)
        run.wait(timeout=30)
        deadline = time.monotonic() + 15
        left = list(marked(probe, skip=os.getpid()))
        while left and time.monotonic() < deadline:
            time.sleep(0.2)
            left = list(marked(probe, skip=os.getpid()))
        assert not left, f"still running 15 s after {sig.name}: " + "; ".join(_cmdline(pid)[:120] for pid in left)
    finally:
        for pid in marked(probe, skip=os.getpid()):  # never leave them behind, pass or fail
            os.kill(pid, signal.SIGKILL)
        if run.poll() is None:
            run.kill()
