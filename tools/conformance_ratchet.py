"""Run a conformance case file and fail when a class of cases fails more often than allowed.

    python tools/conformance_ratchet.py --cases ../shared/conformance/round3_cases.jsonl.gz \\
        --allow r3-collation-icu77-vs-78=60 --allow r3-parse-recovery-core-0.26.1-vs-0.21.1=12

A case's class is its id without the trailing `-synth-NNN` / `-corpus-NNN`. Every failing run is
counted against its class; a class without `--allow` may not fail at all. The limits and why they
stand are in docs/fidelity.md. Exits 0 within the limits, 1 otherwise (2 when check.py cannot run).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

CHECK = Path(__file__).resolve().parents[1].parent / "shared" / "conformance" / "check.py"
_FAILED_RUN = re.compile(r"^FAIL (\S+) size=")
_NUMBERED = re.compile(r"-(?:synth|corpus)-\d+$")


def case_class(case_id: str) -> str:
    """The class a case id names: the id without its trailing number."""
    return _NUMBERED.sub("", case_id)


def failures_by_class(output: str) -> Counter[str]:
    """Failing runs per class, from check.py's output (run with -v, so that every failure is listed)."""
    return Counter(case_class(m.group(1)) for m in map(_FAILED_RUN.match, output.splitlines()) if m)


def _limit(text: str) -> tuple[str, int]:
    name, _, count = text.rpartition("=")
    if not name or not count.isdigit():
        raise argparse.ArgumentTypeError(f"--allow takes CLASS=COUNT, got {text!r}")
    return name, int(count)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", required=True, help="the JSONL(.gz) case file")
    parser.add_argument("--allow", type=_limit, action="append", default=[], metavar="CLASS=COUNT")
    parser.add_argument("--check", default=str(CHECK), help="check.py (default: ../shared/conformance/check.py)")
    args = parser.parse_args(argv)
    allowed = dict(args.allow)
    done = subprocess.run(
        [sys.executable, args.check, "-v", "--no-trees", "--cases", args.cases], capture_output=True, text=True
    )
    last = done.stdout.strip().splitlines()[-1:] or [""]
    if " passed, " not in last[0]:
        print(f"FAIL: {args.check} did not run:\n{done.stderr[-2000:]}")
        return 2
    print(last[0])
    failed = failures_by_class(done.stdout)
    worse = False
    for name in sorted(set(failed) | set(allowed)):
        over = failed[name] > allowed.get(name, 0)
        worse |= over
        print(f"  {name}: {failed[name]} failed (allowed {allowed.get(name, 0)}){'  <- WORSE' if over else ''}")
    if worse:
        print("FAIL: more runs fail than allowed (docs/fidelity.md says which may, and why)")
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main())
