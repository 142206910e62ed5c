"""`clanka-nb lab`: find the notebooks folder and start JupyterLab on it."""

from __future__ import annotations

import importlib.util
import os
import shlex
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from ._errors import CommandError

# An editable install or a clone keeps notebooks/ beside the package folder.
_BESIDE_PACKAGE = Path(__file__).resolve().parents[2] / "notebooks"


def notebooks_folder(requested: str | None) -> Path:
    """The folder to open: the one asked for, else the repository's notebooks/, else ./notebooks."""
    if requested is not None:
        folder = Path(requested).expanduser()
        if not folder.is_dir():
            msg = f"notebooks folder {requested!r} does not exist or is not a folder; pass an existing folder"
            raise CommandError(msg, exit_code=1)
        return folder.resolve()
    for folder in (_BESIDE_PACKAGE, Path.cwd() / "notebooks"):
        if folder.is_dir() and any(folder.glob("*.ipynb")):
            return folder.resolve()
    msg = (
        "no notebooks/ folder found beside the installed package or in the current folder; "
        "run from a clone of clanka-nb (pip install -e '.[lab]') or pass clanka-nb lab --notebooks DIR"
    )
    raise CommandError(msg, exit_code=1)


def lab_command(folder: Path, extra: Sequence[str]) -> list[str]:
    """The command that opens JupyterLab on `folder`, with this Python (so the same installation).

    The folder's first notebook (01-quickstart in this project) opens in the browser. As root,
    `--allow-root` is added: Jupyter refuses to start as root otherwise (containers, CI, Binder-like boxes).
    """
    args = list(extra)
    if args[:1] == ["--"]:
        args = args[1:]
    command = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={folder}"]
    first = sorted(folder.glob("*.ipynb"))[:1]
    command += [str(path) for path in first]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    return [*command, *args]


def run_lab(requested: str | None, extra: Sequence[str], *, dry_run: bool) -> int:
    """Print the command (dry run) or run it and return its exit code."""
    command = lab_command(notebooks_folder(requested), extra)
    if importlib.util.find_spec("jupyterlab") is None:
        msg = "JupyterLab is not installed in this Python; install it with python -m pip install 'clanka-nb[lab]'"
        raise CommandError(msg, exit_code=1)
    if dry_run:
        print(shlex.join(command))
        return 0
    if os.name == "posix":
        # Become the server: stopping `clanka-nb lab` (Ctrl-C, a signal) then stops JupyterLab itself,
        # instead of leaving it running as an orphaned child.
        sys.stdout.flush()
        os.execv(command[0], command)
    try:
        return subprocess.call(command)
    except KeyboardInterrupt:
        # JupyterLab got the same Ctrl-C and shuts itself down; no traceback for the user.
        return 130
