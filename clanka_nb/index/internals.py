"""The index's own helpers that the floors above build on (the sync of many repositories: in this process for the
CLI, on Dask's workers).

Not the user's API (that is `clanka_nb.index`'s `__all__`): one place that says which parts of the index's
`_` modules other packages may use, so none of them imports those modules directly.
"""

from ._place import SIDE_FILES, confined
from ._repositories import (
    CLANKA_DB,
    FAILED,
    REPO_ERRORS,
    STATE_SUFFIX,
    SYNCED,
    UNCHANGED,
    DbPlace,
    IndexRun,
    RepositoryIndex,
    RepositorySync,
    databases,
    one_line,
    sync_repositories,
)
from ._vectors import model_id_of

__all__ = [
    "CLANKA_DB", "FAILED", "REPO_ERRORS", "SIDE_FILES", "STATE_SUFFIX", "SYNCED", "UNCHANGED", "DbPlace", "IndexRun",
    "RepositoryIndex", "RepositorySync", "confined", "databases", "model_id_of", "one_line", "sync_repositories",
]
