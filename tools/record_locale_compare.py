"""Write tests/data/locale_compare.json: strings in the order Node's `localeCompare` sorts them.

With the order goes, for each neighbour pair, whether `localeCompare` calls them equal; the
collation test expects the engine's keys to agree pair by pair. Needs `node`
(Node 20 LTS, whose ICU is the reference's) and `unicodedata2` to leave out characters that are new
in a Unicode version the engine's ICU does not have yet. Run from the project root:
`python tools/record_locale_compare.py`.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import icu
import unicodedata2

TARGET = Path(__file__).resolve().parent.parent / "tests" / "data" / "locale_compare.json"

# Hand-picked: the spec's and the examples, accents and case, combining sequences whose
# order depends on normalisation, other scripts, CJK beyond the core block, emoji, noncharacters.
PICKED = [
    "a", "B", "c", "e", "E", "é", "e\u0301", "éa", "eb", "10", "9", "_z", "$b", "_c", "file.ts", "File.ts",
    "file2.ts", "a-b", "ab", "a\x01b", "z", "Ꟁ", "ꟁ", "中", "𠀑", "🧿", "😀", "🎉", "Ȕ", "Ȕ\u0316", "Ȗ", "Ų\u0311",
    "\U00010d6a", "\U00010d6a\u033d\u0356", "ß", "ss", "æ", "ae", "Å", "Å", "ﬁ", "fi", "Ａ", "ａ", "١", "1", "𝒜",
    "가", "\u1100\u1161", "เก", "กเ", "\ufdd0", "\uffff", "\U0010ffff", "Ω", "Ω", "ω", "ж", "Ж", "α", "Α", "ά",
    "\u00a0", " ", "-", "_", "—", "–", "«", "»", "¿", "€", "£", "°", "µ", "μ", "docs/ä.md", "docs/a.md",
    "docs/z.md", "docs/中文.md", "docs/日本語.md", "docs/한국어.md", "src/Ä/b.ts", "src/a/b.ts", "src/ab.ts",
]
POOLS = [(0x20, 0x7F), (0xA0, 0x250), (0x300, 0x370), (0x370, 0x400), (0x400, 0x500), (0x900, 0x980), (0xE00, 0xE80),
         (0x1100, 0x1180), (0x2000, 0x2070), (0x4E00, 0x4E40), (0xA7C0, 0xA800), (0xAC00, 0xAC40), (0xFDD0, 0xFDF0),
         (0x1F300, 0x1FB00), (0x20000, 0x20040), (0x2EBF0, 0x2EE60), (0x30000, 0x30100), (0x0, 0x20)]


def known_to_icu(ch: str) -> bool:
    """False for characters assigned in Unicode 17 but unknown to the engine's ICU (they sort as unassigned)."""
    cp = ord(ch)
    return unicodedata2.category(ch) == "Cn" or icu.Char.charType(cp) != icu.UCharCategory.UNASSIGNED


def random_strings(count: int) -> list[str]:
    rng = random.Random(17)
    out = []
    while len(out) < count:
        s = "".join(chr(rng.randrange(*rng.choice(POOLS))) for _ in range(rng.randint(1, 5)))
        if all(known_to_icu(ch) for ch in s) and not any(0xD800 <= ord(ch) < 0xE000 for ch in s):
            out.append(s)
    return out


def main() -> int:
    strings = list(dict.fromkeys(PICKED + random_strings(400)))
    script = (
        "const s = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "s.sort((a, b) => a.localeCompare(b));"
        "const ties = s.slice(1).map((b, i) => s[i].localeCompare(b) === 0);"
        "console.log(JSON.stringify({node: process.version, icu: process.versions.icu,"
        " unicode: process.versions.unicode, order: s, equal_to_next: ties}));"
    )
    done = subprocess.run(["node", "-e", script], input=json.dumps(strings), capture_output=True, text=True, check=True)
    TARGET.write_text(json.dumps(json.loads(done.stdout), ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
