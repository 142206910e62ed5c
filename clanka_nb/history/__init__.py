"""Git history: the cost of keeping clanka's index fresh, as re-embedding churn per commit and setting."""

from ..extras import require

# Before anything imports them: a missing library is one line naming the extra, not a traceback.
require("clanka_nb.history", "frames", "pandas", "numpy")

from ._api import churn, churn_files, churn_summary, plot_churn
from ._demo import clanka_history, demo_repository
from ._git import ChurnError, ChurnWarning

__all__ = [
    "ChurnError", "ChurnWarning", "churn", "churn_files", "churn_summary", "clanka_history", "demo_repository",
    "plot_churn",
]
