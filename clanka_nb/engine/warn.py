"""The one way clanka_nb warns a user: at the user's own line, however deep inside the package the warning rose.

A fixed `stacklevel` is right for one call path only: `Codebase(...)` called by the user, by `chunk_codebase`
or by a sweep puts a different number of clanka_nb frames between the warning and the user. Walking out of
the package's files finds the user's frame on every path, so `warnings`' "once per location" filters and the
reported file and line are the user's.

A warning's text is escaped (`visible`): it names files and declarations of the repository, and it is printed by
whatever process raised it, a Dask worker's included, where nothing else escapes it.
"""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path
from types import FrameType

from ..printable import visible
from ..warning import ClankaWarning

_PACKAGE = str(Path(__file__).resolve().parents[1]) + os.sep


def warn_at_user(message: str | Warning, category: type[ClankaWarning]) -> None:
    """`warnings.warn(message, category)` pointed at the first frame outside clanka_nb, its text made safe to print
    (a control or bidi character of a name as an escape). Every warning of the package is a `ClankaWarning`."""
    _warn(message, category)


def relay_warning(message: str, category: type[Warning]) -> None:
    """A warning another library raised where the user could not see it (a peer chunker in its own process),
    raised again at the user's line with its own category, its text made safe to print as `warn_at_user`'s."""
    _warn(message, category)


def _warn(message: str | Warning, category: type[Warning]) -> None:
    # stacklevel 1 is `warnings.warn`'s caller (this frame), 2 the public function's, 3 the first that may be
    # outside clanka_nb.
    level = 3
    frame: FrameType | None = sys._getframe(2)
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE):
        level, frame = level + 1, frame.f_back
    if isinstance(message, str):
        message = visible(message)
    warnings.warn(message, category, stacklevel=level)
