"""Extended mode on real code: does every top-level def/class come out as a named chunk, and at what cost?

Usage: python benchmarks/bench_extended.py [PYTHON_ROOT] [--corpus PATH ...] [--per-language N] [--repeat N]
                                           [--with-tests]

PYTHON_ROOT defaults to the running interpreter's standard library. For it the script prints
  - the share of top-level `def`/`async def`/`class` (the truth, from Python's own `ast`) that
    came out as a named chunk of the right type, with no parent, covering the `def`/`class` line;
  - chunking time in extended mode against clanka mode (line windows for .py) on the same texts,
    already in memory (reading is the same for both);
  - the share of meaningful lines that lie in some chunk, and in a named chunk, in each mode.
Then, for every other language found under the --corpus folders (default: whatever of the Go
standard library, /usr/include, PHP and shell scripts this machine has), the same line shares and
how many files came out with declarations. Go is gofmt-formatted, so its truth is counted from
lines starting `func ` / `type `.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import sysconfig
import time
import warnings
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path

from clanka_nb import engine
from clanka_nb.engine._extended import spec_for

# These figures measure parsing: the persistent parse cache stays off (bench_cache.py measures it).
os.environ.setdefault("CLANKA_NB_CACHE", "off")

DEFAULT_CORPORA = [
    "/usr/share/go-1.19/src",
    "/usr/include",
    "/usr/lib/google-cloud-sdk",
    "/usr/lib/node_modules",
    "/usr/share",
]
# Test folders hold deliberately broken code; site-packages is not the standard library.
SKIP_DIRS = {"site-packages", "__pycache__", ".git", "test", "tests", "testdata"}


def walk(root: Path, suffixes: set[str] | None) -> Iterable[Path]:
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        for name in sorted(files):
            suffix = name.rsplit(".", 1)[-1].lower() if "." in name else ""
            if suffixes is None or suffix in suffixes:
                yield Path(folder, name)


def read(path: Path) -> str | None:
    try:
        return path.read_bytes().decode("utf-8-sig", errors="replace")
    except OSError:
        return None


def python_truth(text: str) -> list[tuple[int, int, str, str]] | None:
    """(first line, last line, name, chunk type) of every top-level definition; None if ast cannot parse.

    The first line is the first decorator's, if any.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escape sequences in old modules
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            return None
    kinds = {ast.FunctionDef: "function", ast.AsyncFunctionDef: "function", ast.ClassDef: "class"}
    return [
        (
            min([node.lineno] + [d.lineno for d in node.decorator_list]),
            node.end_lineno or node.lineno,
            node.name,
            kinds[type(node)],
        )
        for node in tree.body
        if type(node) in kinds
    ]


def found(chunks: list[engine.CodeChunk], first: int, last: int, name: str, kind: str) -> bool:
    """A chunk with the definition's name and type, no parent, on some of its lines.

    (An oversized class keeps only its first segment, which may hold nothing but decorators.)
    """
    return any(
        c.name == name and c.type == kind and c.parent is None and c.start_line <= last and c.end_line >= first
        for c in chunks
    )


def line_shares(text: str, chunks: list[engine.CodeChunk]) -> tuple[int, int, int]:
    """Meaningful lines; how many lie in some chunk; how many in a named chunk."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    meaningful = {i for i, line in enumerate(lines, 1) if engine.is_meaningful_line(line)}
    covered: set[int] = set()
    named: set[int] = set()
    for c in chunks:
        span = range(c.start_line, c.end_line + 1)
        covered.update(span)
        if c.name:
            named.update(span)
    return len(meaningful), len(meaningful & covered), len(meaningful & named)


def pct(part: float, whole: float) -> str:
    return f"{100 * part / whole:6.2f}%" if whole else "   n/a"


def best_of(repeat: int, texts: dict[str, str], languages: str) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for path, text in texts.items():
            engine.chunk_file_content(path, text, languages=languages)
        times.append(time.perf_counter() - start)
    return min(times)


def bench_python(root: Path, repeat: int) -> None:
    texts = {str(p.relative_to(root)): t for p in walk(root, {"py"}) if (t := read(p)) is not None}
    total = hits = unparsable = 0
    missed: Counter[str] = Counter()
    examples: list[str] = []
    shares = {"clanka": [0, 0, 0], "extended": [0, 0, 0]}
    for path, text in texts.items():
        extended = engine.chunk_file_content(path, text, languages="extended")
        for mode, chunks in (("extended", extended), ("clanka", engine.chunk_file_content(path, text))):
            for i, value in enumerate(line_shares(text, chunks)):
                shares[mode][i] += value
        truth = python_truth(text)
        if truth is None:
            unparsable += 1
            continue
        for first, last, name, kind in truth:
            total += 1
            if found(extended, first, last, name, kind):
                hits += 1
            else:
                missed[kind] += 1
                if len(examples) < 8:
                    examples.append(f"{path}:{first} {kind} {name}")
    size = sum(len(t) for t in texts.values()) / 1e6
    print(f"Python: {root}")
    print(f"  files {len(texts)} ({size:.1f} MB of text); {unparsable} that ast cannot parse are left out of the truth")
    print(f"  top-level def/class (ast): {total}; named chunks found: {hits} = {pct(hits, total)}")
    if missed:
        print(f"  missed by kind: {dict(missed)}; e.g. {examples}")
    for mode, (meaningful, covered, named) in shares.items():
        print(
            f"  {mode:8} meaningful lines in some chunk {pct(covered, meaningful)}, "
            f"in a named chunk {pct(named, meaningful)}"
        )
    clanka = best_of(repeat, texts, "clanka")
    extended = best_of(repeat, texts, "extended")
    print(
        f"  speed (best of {repeat}): clanka (windows) {clanka:.2f}s = {len(texts) / clanka:,.0f} files/s; "
        f"extended {extended:.2f}s = {len(texts) / extended:,.0f} files/s; extended/clanka = {extended / clanka:.2f}x"
    )


_GO_TOKENS = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|`[^`]*`', re.S)


def go_truth(text: str) -> list[tuple[int, str]]:
    """gofmt puts top-level funcs and single type declarations at column 0: (line, name).

    Comments and string literals are blanked first (keeping line breaks): cgo's docs hold Go code.
    """
    code = _GO_TOKENS.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)
    out = []
    for number, line in enumerate(code.split("\n"), 1):
        match = re.match(r"func (?:\([^)]*\) )?(\w+)|type (\w+) ", line)
        if match:
            out.append((number, match.group(1) or match.group(2)))
    return out


def bench_languages(corpora: list[Path], per_language: int) -> None:
    by_grammar: dict[str, dict[str, str]] = defaultdict(dict)
    suffixes = {
        ext
        for ext in (
            "go",
            "rs",
            "java",
            "cs",
            "kt",
            "c",
            "h",
            "cc",
            "cpp",
            "hpp",
            "rb",
            "php",
            "swift",
            "scala",
            "lua",
            "sh",
            "bash",
            "ts",
            "mjs",
            "cjs",
            "js",
        )
    }
    for corpus in corpora:
        for path in walk(corpus, suffixes):
            spec = spec_for(path.name)
            if spec is None or len(by_grammar[spec.grammar]) >= per_language or path.is_symlink():
                continue
            text = read(path)
            if text is not None and text.strip() and not engine.is_probably_minified(text):
                by_grammar[spec.grammar][str(path)] = text
    print(f"\nOther languages (at most {per_language} files each, from {', '.join(map(str, corpora))})")
    print(f"  {'grammar':11} {'files':>6} {'w/ decls':>9} {'lines in chunks':>16} {'in named':>9}  truth")
    for grammar, texts in sorted(by_grammar.items()):
        with_decls = meaningful = covered = named = 0
        truth_total = truth_hits = 0
        for path, text in texts.items():
            chunks = engine.chunk_file_content(path, text, languages="extended")
            with_decls += any(c.name or c.type for c in chunks)
            m, c, n = line_shares(text, chunks)
            meaningful, covered, named = meaningful + m, covered + c, named + n
            if grammar == "go":
                for line, name in go_truth(text):
                    truth_total += 1
                    truth_hits += any(ch.name == name and ch.start_line <= line <= ch.end_line for ch in chunks)
        truth = (
            f"func/type at column 0: {truth_hits}/{truth_total} = {pct(truth_hits, truth_total)}" if truth_total else ""
        )
        print(
            f"  {grammar:11} {len(texts):6} {pct(with_decls, len(texts)):>9} {pct(covered, meaningful):>16} "
            f"{pct(named, meaningful):>9}  {truth}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("python_root", nargs="?", default=sysconfig.get_paths()["stdlib"])
    parser.add_argument("--corpus", action="append", help="folder with code in other languages (repeatable)")
    parser.add_argument("--per-language", type=int, default=400, help="files per grammar in the second part")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--with-tests", action="store_true", help="also read test folders (skipped by default)")
    args = parser.parse_args()
    if args.with_tests:
        SKIP_DIRS.difference_update({"test", "tests", "testdata"})
    bench_python(Path(args.python_root), args.repeat)
    corpora = [Path(p) for p in (args.corpus or DEFAULT_CORPORA) if Path(p).is_dir()]
    if corpora:
        bench_languages(corpora, args.per_language)


if __name__ == "__main__":
    main()
