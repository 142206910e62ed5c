"""The engine layer stands alone: importing and using it never loads pandas, ipywidgets or matplotlib."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

HEAVY = ("pandas", "ipywidgets", "matplotlib")


def loaded_after(code: str) -> list[str]:
    """Run `code` in a fresh interpreter and return which heavy modules it left in sys.modules."""
    script = textwrap.dedent(code) + f"\nimport sys\nprint(','.join(m for m in {HEAVY!r} if m in sys.modules))\n"
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
    return [m for m in out.split(",") if m]


@pytest.mark.parametrize(
    "code",
    [
        "import clanka_nb.engine",
        "import clanka_nb",
        "from clanka_nb import Codebase, CodeChunk",
        """
        from clanka_nb.engine import Codebase, chunk_file_content
        chunk_file_content("a.ts", "export function f() {\\n  return 1\\n}\\n", chunk_size=2)
        Codebase.from_texts({"a.ts": "const a = 1", "b.md": "# b\\ntext"}).chunks(chunk_size=5)
        """,
    ],
    ids=["import engine", "import package", "top-level engine names", "chunking"],
)
def test_engine_use_never_loads_the_heavy_layers(code):
    assert loaded_after(code) == []
