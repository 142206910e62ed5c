"""The one wording of the package's deprecations: the test suite turns exactly this wording into errors."""

from __future__ import annotations

import warnings

# pyproject's [tool.pytest.ini_options] filterwarnings matches this wording (see tests/test_deprecations.py).
WORDING = "{old} is deprecated: pass {new}"


def deprecated(old: str, new: str) -> None:
    """Warn, at the caller of the public function calling this, that the call `old` (e.g.
    "sweep(tokenizer=...)") is deprecated and what to pass instead."""
    warnings.warn(WORDING.format(old=old, new=new), DeprecationWarning, stacklevel=3)
