"""Drive a real JupyterLab server from headless Chromium (Playwright sync API).

Reusable pieces for the browser tests: start/stop an isolated ``jupyter lab``,
open a notebook, run all its cells and wait until it is really done, take screenshots.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

ARTIFACTS_DIR = Path(__file__).resolve().parents[1] / ".artifacts"  # tests/.artifacts (git-ignored)
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"  # the README's pictures

# Plugins switched off in the test server: the "get notified about Jupyter news?" toast covers the page.
DISABLED_PLUGINS = ["@jupyterlab/apputils-extension:announcements"]

# The kernel item of the *status bar* ("Python 3 (ipykernel) | Idle"). The toolbar's circle
# already says "idle" while the status bar still reads "No Kernel | Initializing".
_KERNEL_STATUS = '#jp-main-statusbar .jp-StatusBar-TextItem[title^="Change kernel"]'
_CURRENT_PANEL = "#jp-main-dock-panel .jp-NotebookPanel:not(.lm-mod-hidden)"


def find_chromium() -> str | None:
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    return shutil.which("chromium")


@dataclass
class LabServer:
    url: str  # "http://127.0.0.1:PORT/" (base URL, trailing slash)
    token: str
    root_dir: Path  # the server's root: put notebooks under test here
    log_path: Path
    process: subprocess.Popen = field(repr=False)

    def api(self, path: str, method: str = "GET") -> Any:
        req = urllib.request.Request(
            self.url + path.lstrip("/"), method=method, headers={"Authorization": f"token {self.token}"}
        )
        with urllib.request.urlopen(req, timeout=10) as resp:
            body = resp.read()
        return json.loads(body) if body else None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def shutdown_kernels(self) -> None:
        """Shut down every session's kernel (between tests, so they do not pile up)."""
        for session in self.api("api/sessions"):
            self.api(f"api/sessions/{session['id']}", method="DELETE")


def start_lab_server(base: Path, *, timeout: float = 90.0) -> LabServer:
    """Start an isolated ``jupyter lab`` on 127.0.0.1 with a free port; wait until /api/status answers."""
    dirs = {name: base / name for name in ("root", "config", "data", "runtime", "settings", "workspaces", "ipython")}
    for d in dirs.values():
        d.mkdir(parents=True, exist_ok=True)
    labconfig = dirs["config"] / "labconfig"
    labconfig.mkdir(exist_ok=True)
    # Notebook windowing leaves cells outside the view unrendered, so a long notebook's outputs and
    # execution counts would not be in the page to check: render every cell.
    tracker = dirs["settings"] / "@jupyterlab" / "notebook-extension"
    tracker.mkdir(parents=True, exist_ok=True)
    (tracker / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
    (labconfig / "page_config.json").write_text(
        json.dumps({"disabledExtensions": dict.fromkeys(DISABLED_PLUGINS, True)})
    )
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(dirs["config"]),
        "JUPYTER_DATA_DIR": str(dirs["data"]),
        "JUPYTER_RUNTIME_DIR": str(dirs["runtime"]),
        "JUPYTERLAB_SETTINGS_DIR": str(dirs["settings"]),
        "JUPYTERLAB_WORKSPACES_DIR": str(dirs["workspaces"]),
        "IPYTHONDIR": str(dirs["ipython"]),
        "JUPYTER_PLATFORM_DIRS": "0",
    }
    token = secrets.token_hex(16)
    cmd = [
        sys.executable, "-m", "jupyter", "lab",
        "--allow-root", "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        "--ServerApp.port=0",  # jupyter_server 2 binds a free port; we read it back from the runtime file
        f"--IdentityProvider.token={token}",  # the log only shows "?token=...", so choose it ourselves
        f"--ServerApp.root_dir={dirs['root']}",
        "--LabApp.expose_app_in_browser=True",  # window.jupyterapp, to execute commands
        "--LabApp.extension_manager=readonly",  # no PyPI queries from the extension manager
    ]  # fmt: skip
    log_path = base / "jupyter-lab.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            cmd, cwd=dirs["root"], env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,  # own process group: teardown can reap the kernels too
        )  # fmt: skip

    def fail(why: str) -> None:
        stop_lab_server(proc)
        raise RuntimeError(f"JupyterLab did not start: {why}\n--- {log_path} ---\n{log_path.read_text()}")

    deadline = time.monotonic() + timeout
    url = None
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            fail(f"exited with code {proc.returncode}")
        if url is None:
            for info_file in dirs["runtime"].glob("jpserver-*.json"):
                with contextlib.suppress(ValueError, KeyError):  # half-written: try again
                    url = json.loads(info_file.read_text())["url"]
        if url is not None:
            server = LabServer(url=url, token=token, root_dir=dirs["root"], log_path=log_path, process=proc)
            try:
                server.api("api/status")
                return server
            except (urllib.error.URLError, OSError):
                pass
        time.sleep(0.2)
    fail(f"no answer from /api/status within {timeout:.0f} s (url={url})")
    raise AssertionError("unreachable")


def stop_lab_server(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)  # jupyter shuts its kernels down on SIGTERM
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=15)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)  # anything left in the server's own process group
    proc.wait(timeout=10)


def notebook_url(server: LabServer, notebook_relpath: str) -> str:
    # `?reset` starts from an empty workspace, so tabs of earlier tests are not restored.
    return f"{server.url}lab/tree/{quote(notebook_relpath)}?reset&token={server.token}"


def _describe(page) -> str:
    """What the page shows, for timeout messages."""
    return page.evaluate(
        """() => {
            const q = (s) => [...document.querySelectorAll(s)].map((e) => e.innerText.trim());
            return JSON.stringify({
                status: q('#jp-main-statusbar .jp-StatusBar-TextItem[title^="Change kernel"]'),
                dialogs: q('.jp-Dialog'),
                toasts: q('.Toastify__toast'),
                prompts: q('#jp-main-dock-panel .jp-NotebookPanel:not(.lm-mod-hidden) .jp-InputPrompt'),
            });
        }"""
    )


def _wait(page, js: str, what: str, timeout: float, arg: Any = None) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(js, arg=arg, timeout=timeout * 1000, polling=100)
    except PlaywrightTimeout as exc:
        raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}; page: {_describe(page)}") from exc


def wait_for_kernel_idle(page, timeout: float = 60.0) -> None:
    """Wait until the status bar's kernel item reads "<kernel name> | Idle"."""
    _wait(
        page,
        """(sel) => {
            const el = document.querySelector(sel);
            const text = el ? el.innerText.trim() : '';
            return /\\|\\s*Idle$/.test(text) && !text.startsWith('No Kernel');
        }""",
        "the status bar to show the kernel as Idle",
        timeout,
        arg=_KERNEL_STATUS,
    )


def wait_for_all_cells_executed(page, timeout: float = 120.0) -> None:
    """Wait until every code cell of the current notebook shows an execution count like [3]:."""
    _wait(
        page,
        """(sel) => {
            const panel = document.querySelector(sel);
            if (!panel) return false;
            const prompts = [...panel.querySelectorAll('.jp-CodeCell .jp-InputPrompt')];
            return prompts.length > 0 && prompts.every((p) => /^\\[\\d+\\]:$/.test(p.innerText.trim()));
        }""",
        "every code cell to have an execution count",
        timeout,
        arg=_CURRENT_PANEL,
    )


def run_all_cells(page, timeout: float = 120.0) -> None:
    """Run all cells with the `runmenu:run-all` command and wait for the run to finish."""
    has_app = page.evaluate("() => typeof window.jupyterapp === 'object'")
    if has_app:
        page.evaluate(
            """() => {
                const commands = window.jupyterapp.commands;
                const id = commands.isEnabled('runmenu:run-all') ? 'runmenu:run-all' : 'notebook:run-all-cells';
                window.__runAll = { done: false, error: null };
                commands.execute(id).then(
                    () => { window.__runAll.done = true; },
                    (e) => { window.__runAll.done = true; window.__runAll.error = String(e); },
                );
            }"""
        )
        _wait(page, "() => window.__runAll.done", "Run All Cells to finish", timeout)
        error = page.evaluate("() => window.__runAll.error")
        if error:
            raise AssertionError(f"Run All Cells failed: {error}")
    else:  # a server without --LabApp.expose_app_in_browser: use the menu
        page.locator("#jp-menu-panel").get_by_text("Run", exact=True).click()
        page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()


def open_and_run_all(page, lab_server: LabServer, notebook_relpath: str, *, timeout: float = 120.0) -> None:
    """Open ``notebook_relpath`` (relative to the server root) in JupyterLab and run all cells.

    Returns once the kernel is idle again and every code cell has an execution count.
    """
    page.goto(notebook_url(lab_server, notebook_relpath))
    page.wait_for_selector(_CURRENT_PANEL, timeout=60_000)
    wait_for_kernel_idle(page, timeout=60.0)
    run_all_cells(page, timeout=timeout)
    wait_for_all_cells_executed(page, timeout=timeout)
    wait_for_kernel_idle(page, timeout=timeout)


def screenshot(page, name: str, out_dir: Path | str = ARTIFACTS_DIR, *, selector: str | None = None) -> Path:
    """Save a PNG of the page (or of one element) as ``out_dir/name.png``; returns the path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / (name if name.endswith(".png") else f"{name}.png")
    target = page.locator(selector).first if selector else page
    target.screenshot(path=path)
    return path


def save_element(element, name: str, artifacts_dir: Path = ARTIFACTS_DIR) -> None:
    """Screenshot one element to the artifacts (and to docs/screenshots when CLANKA_UPDATE_SCREENSHOTS=1)."""
    artifacts_dir.mkdir(parents=True, exist_ok=True)
    path = artifacts_dir / f"{name}.png"
    element.screenshot(path=path)
    if os.environ.get("CLANKA_UPDATE_SCREENSHOTS") == "1":
        from PIL import Image  # matplotlib's dependency: always installed with the frames layer

        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        # A 256-colour palette (octree keeps the small swatches' exact colours) is a third of the size.
        image = Image.open(path).convert("RGB")
        image = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        image.save(SCREENSHOTS / f"{name}.png", optimize=True)
