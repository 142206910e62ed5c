"""Text from a repository made safe to print: every character a terminal could act on written as an escape.

File and declaration names, commit subjects and file contents are the repository author's text: raw, an ESC or a
C1 control starts a terminal sequence (window title, screen clear, OSC 52 clipboard writes), and a bidi override
makes a name read as another. C0 controls but tab and newline, DEL, C1, and the Unicode bidi embeddings,
overrides, isolates and marks are shown as \\xNN / \\uNNNN instead. The command line passes everything it prints
through `visible` (`_cli/_terminal.py`), and so does every warning (`warn.warn_at_user`): a warning is printed by
whatever process raised it, a Dask worker's included, where no command line escapes it.
"""

from __future__ import annotations

import re

BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # a character class's body: the bidi controls
UNSAFE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{BIDI}]")


def escape(match: re.Match[str]) -> str:
    """One unsafe character as a Python-style escape (`\\x1b`, `\\u202e`), for `re.sub`."""
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """`text` with every control and bidi character written as a Python-style escape (`\\x1b`, `\\u202e`)."""
    return UNSAFE.sub(escape, text)
