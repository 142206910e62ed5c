"""The frames layer stays free of ipywidgets, and loads matplotlib only when a plot is drawn."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest


def loaded_after(code: str) -> set[str]:
    """Run `code` in a fresh interpreter; which of ipywidgets, matplotlib it left in sys.modules."""
    script = textwrap.dedent(code) + (
        "\nimport sys\nprint(','.join(m for m in ('ipywidgets', 'matplotlib') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    return set(filter(None, result.stdout.strip().split(",")))


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("import clanka_nb.frames", set()),
        (
            """
            from clanka_nb import engine, frames, sweep
            codebase = engine.Codebase.from_texts({"a.ts": "const a = 1\\n"})
            frames.chunk_codebase(codebase, progress=True); frames.files(codebase); sweep(codebase)
            """,
            set(),
        ),
        ("from clanka_nb import frames\nframes.plot_chunk_sizes(frames.chunk_text('const a = 1'))", {"matplotlib"}),
    ],
    ids=["import", "frames and progress", "plot"],
)
def test_heavy_modules_load_only_when_needed(code: str, expected: set[str]) -> None:
    assert loaded_after(code) == expected
