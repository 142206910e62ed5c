"""The index's own helpers that the floors above build on (Dask's many-repository sync).

Not the user's API (that is `clanka_nb.index`'s `__all__`): one place that says which parts of the index's
`_` modules other packages may use, so none of them imports those modules directly.
"""

from ._place import SIDE_FILES, confined
from ._vectors import model_id_of

__all__ = ["SIDE_FILES", "confined", "model_id_of"]
