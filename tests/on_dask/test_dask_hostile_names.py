"""A warning a Dask worker raises is printed by the worker, where no command line escapes it: a file name's
terminal escapes must already be escaped in the warning's text (issue 50, item 5)."""

from __future__ import annotations

import os
import warnings

import clanka_nb as cn

HOSTILE = "link\x1b]0;pwned\x07\u202e.py"  # sets the terminal's title, then reverses what follows


def _warnings_of(root: str, name: str) -> list[str]:
    """Runs on a worker: the warnings a codebase of the one named file raises there."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cn.Codebase(root, paths=[name], workers=1)
    return [str(w.message) for w in caught]


def test_a_worker_s_warning_names_a_hostile_file_with_escapes_only(client, tmp_path) -> None:
    os.symlink("/etc/hostname", tmp_path / HOSTILE)  # outside the root: refused, with a warning naming it
    messages = client.submit(_warnings_of, str(tmp_path), HOSTILE, pure=False).result()
    assert messages and any("link\\x1b]0;pwned\\x07\\u202e.py" in message for message in messages)
    assert not any(set(message) & {"\x1b", "\x07", "\u202e"} for message in messages)
