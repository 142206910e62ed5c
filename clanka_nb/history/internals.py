"""The git helpers of the history package that the probe builds on (its queries from commit messages).

Not the user's API (that is `clanka_nb.history`'s `__all__`): one place that says which parts of
`_git` other packages may use, so none of them imports it directly.
"""

from ._git import BlobReader, ChurnError, git, git_records, repository, resolves, run_git, within_history

__all__ = ["BlobReader", "ChurnError", "git", "git_records", "repository", "resolves", "run_git", "within_history"]
