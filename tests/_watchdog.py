"""What a test run starts dies with it, even when the run itself is killed.

A JupyterLab server runs in a session of its own (so teardown can end its kernels with it), and
Playwright's Chromium hangs off a driver process: when pytest is killed (SIGTERM from `timeout`,
Ctrl-C twice, SIGKILL) no teardown runs, and they lived on with PPID 1. So every run marks the
environment its children inherit with a token of its own, and starts a watchdog in a session of its
own (a signal to pytest's group does not reach it) that waits for the end of a pipe only pytest holds.
The pipe ends when pytest does, however it ends: the watchdog then sends SIGTERM to every process
still carrying the token, and SIGKILL to any left a few seconds later (a server that ignores SIGTERM).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

MARKER = "CLANKA_NB_TEST_RUN"
GRACE = 3.0  # seconds between SIGTERM and SIGKILL


def marked(marker: bytes, *, skip: int) -> Iterator[int]:
    """The ids of the processes whose environment holds `marker` (a NAME=VALUE entry), `skip` left out."""
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) == skip:
            continue
        try:
            with open(f"/proc/{entry.name}/environ", "rb") as environ:
                entries = environ.read().split(b"\0")
        except OSError:  # gone already, or another user's
            continue
        if marker in entries:
            yield int(entry.name)


def end_marked(marker: bytes, *, skip: int, grace: float = GRACE) -> None:
    """SIGTERM to every marked process; after `grace` seconds, SIGKILL to those still there."""
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 1.0)):
        pids = list(marked(marker, skip=skip))
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, sig)
        deadline = time.monotonic() + wait
        while pids and time.monotonic() < deadline:
            time.sleep(0.1)
            pids = list(marked(marker, skip=skip))
        if not pids:
            return


def start() -> None:
    """Mark this run's children and start its watchdog (Linux only: it reads /proc; elsewhere nothing)."""
    if not os.path.isdir("/proc/self"):
        return
    # A run started by a test gets a token and a watchdog of its own, so it is ended when it ends too.
    token = secrets.token_hex(8)
    read, write = os.pipe()
    env = {name: value for name, value in os.environ.items() if name != MARKER}
    subprocess.Popen(
        [sys.executable, __file__, f"{MARKER}={token}"],
        stdin=read, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, start_new_session=True,
    )
    os.close(read)
    _held.append(write)  # kept open for the life of this process; os.pipe's ends are not inherited by exec
    os.environ[MARKER] = token


_held: list[int] = []


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.stdin.buffer.read()  # until end of file: the run is over, however it ended
    end_marked(sys.argv[1].encode(), skip=os.getpid())
