"""Functions are held to a budget as modules are (tests/test_layout.py): at most 60 lines of code and 8 parameters.

Today's functions over it are listed by name with their size, and the list may only shrink: a listed function
that grew fails, and so does one that shrank without its entry following (write the new size, or remove the entry
once it is within the budget), so the list stays exact and docs/architecture.md can name it.

Lines of code are the lines of the function (from its `def` to its last line, nested functions included) that
hold code: not blank, not only a comment, not its docstring (nor a nested function's or class's). Parameters are
every name a caller passes: `self`/`cls` of a method and the `**given` (any `**` parameter) of the settings'
keywords do not count, a `*args` counts once.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "clanka_nb"

MOST_LINES = 60
MOST_PARAMETERS = 8


@dataclass(frozen=True)
class Size:
    """What a listed function is over the budget by: its lines of code, its parameters (None: within that part)."""

    lines: int | None = None
    parameters: int | None = None


# Today's functions over the budget, `module:qualname` (the module's path under clanka_nb/). Only shrinks.
OVER = {
    # The verdict's public doors: built from typed steps since (issue 51), but taking one more, the cost's name.
    "decision/_decision.py:verdict": Size(parameters=12),
    "decision/_verdict.py:decide": Size(parameters=11),
    "dask/_indexes.py:sync_indexes": Size(parameters=12),
    "dask/_sweep.py:sweep": Size(parameters=9),
    "index/_index.py:SemanticIndex.__init__": Size(parameters=11),
    "index/_openai.py:openai": Size(parameters=9),
    "retrieval/queries/_history_cache.py:cached_read": Size(parameters=10),
    "retrieval/queries/_history_cache.py:history_material": Size(parameters=9),
    "retrieval/scoring/_confirm.py:confirmed_verdict": Size(parameters=9),
    "sweeps/_api.py:sweep": Size(parameters=9),
    "widgets/_preview.py:Preview.__init__": Size(parameters=13),
    "widgets/_render.py:render_preview": Size(parameters=13),
}


@dataclass(frozen=True)
class Measured:
    """One function of the package as the budget counts it."""

    key: str
    lines: int
    parameters: int


def _code_lines(source: str, tree: ast.Module) -> set[int]:
    """The line numbers of `source` that hold a token of code (a string spanning lines holds each), less docstrings."""
    skipped = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
               tokenize.ENDMARKER, tokenize.ENCODING}  # fmt: skip
    lines = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in skipped:
            lines.update(range(token.start[0], token.end[0] + 1))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            docstring = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            if docstring and isinstance(first.value.value, str):
                lines.difference_update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return lines


def _parameters(function: ast.FunctionDef | ast.AsyncFunctionDef, *, method: bool) -> int:
    arguments = function.args
    names = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    static = any(isinstance(each, ast.Name) and each.id == "staticmethod" for each in function.decorator_list)
    if method and not static and names and names[0].arg in {"self", "cls"}:
        names = names[1:]
    return len(names) + (arguments.vararg is not None)


def measured_functions(package: Path = PACKAGE) -> Iterator[Measured]:
    """Every function and method of the package (nested ones too), with its lines of code and parameters."""
    for path in sorted(package.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
        yield from _walk(tree, f"{path.relative_to(package).as_posix()}:", _code_lines(source, tree), in_class=False)


def _walk(node: ast.AST, prefix: str, code: set[int], *, in_class: bool) -> Iterator[Measured]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            span = range(child.lineno, (child.end_lineno or child.lineno) + 1)
            yield Measured(f"{prefix}{child.name}", len(code.intersection(span)), _parameters(child, method=in_class))
            yield from _walk(child, f"{prefix}{child.name}.<locals>.", code, in_class=False)
        elif isinstance(child, ast.ClassDef):
            yield from _walk(child, f"{prefix}{child.name}.", code, in_class=True)
        else:
            yield from _walk(child, prefix, code, in_class=in_class)


def _over(function: Measured) -> Size | None:
    lines = function.lines if function.lines > MOST_LINES else None
    parameters = function.parameters if function.parameters > MOST_PARAMETERS else None
    return None if lines is None and parameters is None else Size(lines, parameters)


def budget_problems(functions: list[Measured], listed: dict[str, Size]) -> list[str]:
    """What the functions and the list disagree on: one line each, with its fix (empty when they agree)."""
    found = {function.key for function in functions}
    problems = [f"{key} is listed but no such function exists: remove its entry (or write its new name)"
                for key in sorted(listed) if key not in found]  # fmt: skip
    for function in functions:
        over, allowed = _over(function), listed.get(function.key)
        if over == allowed:
            continue
        if allowed is None:
            problems.append(f"{function.key} has {function.lines} lines of code and {function.parameters} parameters: "
                            f"split it (at most {MOST_LINES} lines, {MOST_PARAMETERS} parameters)")
            continue
        if over is None:
            problems.append(f"{function.key} is within the budget now: remove its entry from OVER")
            continue
        for part, most in (("lines", MOST_LINES), ("parameters", MOST_PARAMETERS)):
            now, was = getattr(function, part), getattr(allowed, part)
            if now > (was if was is not None else most):
                problems.append(f"{function.key} grew to {now} {part} (listed: {was}, budget: {most}): "
                                "a listed function may only shrink")
            elif was is not None and now < was:
                fix = f"write {part}={now}" if now > most else f"drop its {part} (now within the budget)"
                problems.append(f"{function.key} shrank to {now} {part}: {fix} in OVER (and docs/architecture.md)")
    return problems


def test_no_function_is_over_the_budget_unless_listed_and_the_list_is_exact() -> None:
    problems = budget_problems(list(measured_functions()), OVER)
    assert problems == [], "\n".join(problems)


def test_the_budget_counts_code_not_docstrings_comments_or_self(tmp_path: Path) -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(MOST_LINES))
    (tmp_path / "m.py").write_text(
        "class C:\n"
        "    def method(self, a, b, c, d, e, f, g, h, **given):\n"
        '        """A docstring\n\n        of many lines.\n        """\n'
        "        # a comment\n\n"
        "        return a\n"
        f"def long():\n{body}    return 0\n"
        "def wide(a, b, c, d, e, f, g, h, *rest):\n    return a\n"
        "def outer():\n    def inner(a, b, c, d, e, f, g, h, i):\n        return a\n    return inner\n",
        encoding="utf-8",
    )
    sizes = {function.key: (function.lines, function.parameters) for function in measured_functions(tmp_path)}
    assert sizes["m.py:C.method"] == (2, 8)  # the def line and the return
    assert sizes["m.py:long"] == (MOST_LINES + 2, 0)
    assert sizes["m.py:wide"] == (2, 9)
    assert sizes["m.py:outer.<locals>.inner"] == (2, 9)
    functions = list(measured_functions(tmp_path))
    problems = budget_problems(functions, {})
    assert len(problems) == 3 and all("split it" in problem for problem in problems)
    listed = {"m.py:long": Size(lines=MOST_LINES + 2), "m.py:wide": Size(parameters=9),
              "m.py:outer.<locals>.inner": Size(parameters=9)}  # fmt: skip
    assert budget_problems(functions, listed) == []
    # A listed function that grew, one that shrank, and one that is gone each fail, naming the fix.
    grew = budget_problems(functions, {**listed, "m.py:long": Size(lines=MOST_LINES + 1)})
    assert len(grew) == 1 and "grew to 62 lines" in grew[0]
    shrank = budget_problems(functions, {**listed, "m.py:wide": Size(parameters=10)})
    assert len(shrank) == 1 and "shrank to 9 parameters: write parameters=9" in shrank[0]
    within = budget_problems(functions, {**listed, "m.py:C.method": Size(parameters=8)})
    assert len(within) == 1 and "within the budget now" in within[0]
    gone = budget_problems(functions, {**listed, "m.py:gone": Size(lines=70)})
    assert len(gone) == 1 and "no such function" in gone[0]


def test_docs_architecture_names_the_budget_list() -> None:
    """docs/architecture.md's "Function budget" lists every function of OVER with its size, and their count."""
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("\n## Function budget\n", 1)[1].split("\n## ", 1)[0]
    named = {}
    for key, size in re.findall(r"^- `([\w/.]+\.py:[\w.<>]+)` \(([^)]*)\)$", section, flags=re.MULTILINE):
        parts = dict((part, int(count)) for count, part in re.findall(r"(\d+) (lines|parameters)", size))
        named[key] = Size(parts.get("lines"), parts.get("parameters"))
    assert named == OVER, (
        "docs/architecture.md's Function budget must list OVER of tests/test_function_budget.py as it is: "
        f"{sorted(map(str, set(named.items()) ^ set(OVER.items())))}"
    )
    said = " ".join(section.split())
    assert f"holds {len(OVER)} functions" in said, f"docs/architecture.md's Function budget must say {len(OVER)}"



if __name__ == "__main__":  # `python tests/test_function_budget.py`: today's list, for OVER and the docs
    today = {function.key: over for function in measured_functions() if (over := _over(function)) is not None}
    for key, size in sorted(today.items()):
        parts = {"lines": size.lines, "parameters": size.parameters}
        print(f'    "{key}": Size({", ".join(f"{name}={value}" for name, value in parts.items() if value)}),')
    for key, size in sorted(today.items()):
        parts = {"lines": size.lines, "parameters": size.parameters}
        print(f"- `{key}` ({', '.join(f'{value} {name}' for name, value in parts.items() if value)})")
