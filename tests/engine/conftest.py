"""Engine tests run worker processes even for their small trees."""

from __future__ import annotations

import pytest

from clanka_nb.engine import _api, _codebase


@pytest.fixture(autouse=True)
def processes_for_any_number_of_files(monkeypatch: pytest.MonkeyPatch) -> None:
    # The engine keeps codebases of a few files in one process (starting workers would cost more);
    # tests with workers=2 use trees of a few files and must still exercise the worker path.
    monkeypatch.setattr(_codebase, "MIN_FILES_FOR_PROCESSES", 0)
    # Automatic workers (None, the default) would start processes too under that threshold; for these
    # small trees they stay in this process, as they do outside the tests.
    for module in (_api, _codebase):
        real = module.check_workers
        monkeypatch.setattr(module, "check_workers", lambda workers, real=real: 1 if workers is None else real(workers))
