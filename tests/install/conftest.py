"""Fresh clones and fresh virtual environments for the install tests.

A venv is made with `--system-site-packages` (and, when the suite itself runs in a venv, a .pth file
naming that venv's packages) so the wheels already installed are reused instead of downloaded again
(a full install fetches ~200 MB per run). pip still installs the package itself into the venv and
resolves every dependency its pyproject declares, installing whatever is missing; what this cannot
catch is a dependency missing from pyproject but present in the environment the suite runs in.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
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
    if sys.prefix != sys.base_prefix:
        # The suite itself runs in a venv (as .ci/run does): `--system-site-packages` reaches only the base
        # Python's packages, so also let the new venv see this venv's, appended after its own.
        own = subprocess.run(
            [str(path / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            check=True, capture_output=True, text=True, timeout=60,
        ).stdout.strip()
        Path(own, "_clanka_nb_test_parent.pth").write_text(sysconfig.get_path("purelib") + "\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    env["VIRTUAL_ENV"] = str(path)
    env["PATH"] = f"{path / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return Venv(path, env)
