"""The one way clanka_nb warns a user: at the user's own line, however deep inside the package the warning rose.

A fixed `stacklevel` is right for one call path only: `Codebase(...)` called by the user, by `chunk_codebase`
or by a sweep puts a different number of clanka_nb frames between the warning and the user. Walking out of
the package's files finds the user's frame on every path, so `warnings`' "once per location" filters and the
reported file and line are the user's.
"""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path
from types import FrameType

from ..warning import ClankaWarning

_PACKAGE = str(Path(__file__).resolve().parents[1]) + os.sep


def warn_at_user(message: str | Warning, category: type[ClankaWarning]) -> None:
    """`warnings.warn(message, category)` pointed at the first frame outside clanka_nb."""
    # stacklevel 1 is this function's frame, 2 the one that called it: the first that may be clanka_nb's.
    level = 2
    frame: FrameType | None = sys._getframe(1)
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE):
        level, frame = level + 1, frame.f_back
    warnings.warn(message, category, stacklevel=level)
