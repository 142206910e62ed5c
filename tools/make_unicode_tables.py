"""Write clanka_nb/engine/_unicode_tables.py: the Unicode 17.0 code point ranges the engine's text rules use.

The reference's `\\p{P}` and `\\s` follow the Unicode version of the ICU inside Node (Node 20 LTS:
ICU 78, Unicode 17.0), while Python's own `unicodedata` follows the Unicode version Python was
released with (3.11: 14.0). So the ranges are generated once from `unicodedata2` pinned to Unicode
17.0 (`pip install unicodedata2==17.0.1`) and kept in the repo: nothing is read or fetched at run
time. Run from the project root: `python tools/make_unicode_tables.py`; a test checks the file
against unicodedata2 whenever that is installed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import unicodedata2

UNICODE_VERSION = "17.0.0"
TARGET = Path(__file__).resolve().parent.parent / "clanka_nb" / "engine" / "_unicode_tables.py"


def ranges(predicate) -> list[tuple[int, int]]:
    """Inclusive (first, last) code point runs for which predicate(category) holds."""
    out: list[tuple[int, int]] = []
    for cp in range(sys.maxunicode + 1):
        if predicate(unicodedata2.category(chr(cp))):
            if out and out[-1][1] == cp - 1:
                out[-1] = (out[-1][0], cp)
            else:
                out.append((cp, cp))
    return out


def render(name: str, doc: str, runs: list[tuple[int, int]]) -> str:
    body = "".join(f"    (0x{lo:04X}, 0x{hi:04X}),\n" for lo, hi in runs)
    return f"# {doc}\n{name}: tuple[tuple[int, int], ...] = (\n{body})\n"


def main() -> int:
    if unicodedata2.unidata_version != UNICODE_VERSION:
        have = unicodedata2.unidata_version
        print(f"unicodedata2 has Unicode {have}; install unicodedata2==17.0.1 for {UNICODE_VERSION}")
        return 1
    text = (
        '"""Unicode 17.0 ranges for `\\\\p{P}` and JS whitespace (tools/make_unicode_tables.py; do not edit)."""\n\n'
        f'UNICODE_VERSION = "{UNICODE_VERSION}"\n\n'
        + render("PUNCTUATION", "General category P* (Pc Pd Ps Pe Pi Pf Po): what `\\p{P}` matches.",
                 ranges(lambda c: c.startswith("P")))
        + "\n"
        + render("SPACE_SEPARATORS", "General category Zs: with TAB, LF, VT, FF, CR, U+2028/9 and U+FEFF, JS's `\\s`.",
                 ranges(lambda c: c == "Zs"))
    )
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
