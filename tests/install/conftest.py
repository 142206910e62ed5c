"""Fresh clones and fresh virtual environments for the install tests.

A venv is made with `--system-site-packages`, so the packages of the base Python are reused; when the
suite itself runs in a virtual environment (as .ci/run does), the new venv does not see that one's
packages, so pip resolves and installs every dependency pyproject declares, from its cache where it
can. A dependency missing from pyproject (one the notebooks need but an extra lacks) therefore fails
here as it would for a user.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Venv:
    """A virtual environment and the environment variables of a shell that activated it."""

    path: Path
    env: dict[str, str]

    @property
    def python(self) -> Path:
        return self.path / "bin" / "python"

    def run(self, command: str | list[str], cwd: Path, timeout: float = 900) -> subprocess.CompletedProcess[str]:
        """Run like a user's shell with the venv activated; fail with the output when the command fails."""
        result = subprocess.run(
            command, cwd=cwd, env=self.env, shell=isinstance(command, str), capture_output=True, text=True,
            timeout=timeout, check=False,
        )
        if result.returncode != 0:
            output = f"{result.stdout[-4000:]}\n{result.stderr[-4000:]}"
            pytest.fail(f"{command!r} exited with {result.returncode}\n{output}")
        return result


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    """A clone of the committed HEAD: exactly the files a fresh checkout has, none of the work tree's."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: nothing committed to clone")
    target = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(target)], check=True, timeout=120)
    return target


@pytest.fixture
def venv(tmp_path: Path) -> Venv:
    """A new venv (reusing installed wheels, see the module docstring), activated as a shell would."""
    if sys.platform == "win32":
        pytest.skip("the install tests drive a POSIX shell")
    path = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(path)], check=True, timeout=300)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    env["VIRTUAL_ENV"] = str(path)
    env["PATH"] = f"{path / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return Venv(path, env)
