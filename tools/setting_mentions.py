"""Count the files of clanka_nb/ that restate a setting's name beyond a signature.

A mention is the name as an identifier (a variable, an attribute, a keyword argument) or inside a string
(a column name, a message), anywhere except: a parameter list (a signature shows each setting by design),
the arguments of a `Settings(...)` or `Grid(...)` call (the one place a public function hands its keywords on) or of a
`setting_keywords(...)` decorator (a signature's own default, declared where the signature is), and a docstring
(documentation, not logic). Comments are not in the syntax tree, so they never count.

    python tools/setting_mentions.py [name ...]     # prints files per name, then the counts
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "clanka_nb"
NAMES = ("chunk_size", "chunk_overlap", "chunk_max_characters")
# The settings objects a public function builds from its keywords: `Settings`, and `Grid` (a sweep's settings,
# each a list of values to try); and `setting_keywords`, whose keywords are a signature's own defaults.
SETTINGS_TYPES = ("Settings", "Grid", "setting_keywords")
# Modules where the word is another library's own keyword, not this package's setting: chonkie's `CodeChunker` and
# LangChain's splitter both take a `chunk_size` of characters (each peer's module states it for the tables).
FOREIGN = {"chunk_size": ("chunkers/_chonkie.py", "chunkers/_langchain.py")}


def _docstrings(tree: ast.AST) -> set[int]:
    # The ids of the string nodes that are docstrings (the first statement of a module, class or function).
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _parameter_lists(tree: ast.AST) -> set[int]:
    # The ids of every node of a signature: the parameters and their defaults.
    return {id(inner) for node in ast.walk(tree) if isinstance(node, ast.arguments) for inner in ast.walk(node)}


def _settings_arguments(tree: ast.AST) -> set[int]:
    # The ids of every node inside an argument of a call to `Settings` (or `x.Settings`).
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name in SETTINGS_TYPES:
                for argument in [*node.args, *node.keywords]:
                    found.update(id(inner) for inner in ast.walk(argument))
    return found


def mentions(path: Path, name: str) -> Iterator[int]:
    """The line of every mention of `name` in `path` (see the module's docstring for what counts)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _docstrings(tree) | _settings_arguments(tree) | _parameter_lists(tree)
    word = re.compile(rf"\b{re.escape(name)}\b")
    for node in ast.walk(tree):
        if id(node) not in skipped and not isinstance(node, ast.arg) and _names(node, name, word):  # arg: a parameter
            yield node.lineno


def _names(node: ast.AST, name: str, word: re.Pattern[str]) -> bool:
    # A variable, an attribute, a keyword argument, or a string holding the name as a word.
    named = {ast.Name: "id", ast.Attribute: "attr", ast.keyword: "arg"}
    if type(node) in named:
        return getattr(node, named[type(node)]) == name
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and word.search(node.value) is not None


def files_mentioning(name: str, package: Path = PACKAGE) -> dict[str, list[int]]:
    """Each file of the package (relative path) that mentions `name`, with the lines."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        if path.relative_to(package).as_posix() in FOREIGN.get(name, ()):
            continue
        lines = sorted(set(mentions(path, name)))
        if lines:
            found[str(path.relative_to(package))] = lines
    return found


def main(argv: list[str]) -> int:
    for name in argv or NAMES:
        found = files_mentioning(name)
        print(f"{name}: {len(found)} files")
        for file, lines in found.items():
            print(f"  {file}: {', '.join(map(str, lines))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
