"""Where the reference's conformance set lies for the tests that read it, and the one wording of their skip."""

from __future__ import annotations

from pathlib import Path

# The reference's recorded output is kept outside this repository: CI lays it beside the clone.
SHARED_CONFORMANCE = Path(__file__).resolve().parents[1].parent / "shared" / "conformance"
NEEDS_CONFORMANCE = (
    f"needs the reference's conformance set at {SHARED_CONFORMANCE}, beside the clone as CI lays it out "
    "(docs/testing.md names the tests that use it)"
)
