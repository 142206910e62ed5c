"""Every ```python block of docs/*.md and README.md runs as written.

A page's blocks run in order in one namespace (a page's blocks build on each other), with
`__name__ == "__main__"` as in a script, in a fresh temporary working directory that holds the
placeholders the pages use:

- `path/to/repo`, `repo-a`, `repo-b`: copies of the bundled sample codebase (`cn.sample_codebase()`);
- `path/to/clone`: a git repository of the sample with 60 commits (enough for `revs="HEAD~50..HEAD"`).

An HTML comment on the lines right above a fence (the site does not show it) changes how its block runs:

- `<!-- docs-test: skip (REASON) -->`: the block is not run; the reason is required and says what it needs
  that a test run cannot have (a network, a model, a GPU). Skips must stay few.
- `<!-- docs-test: setup CODE -->`: one line of Python run in the page's namespace before the block, for
  what the prose around the block assumes (e.g. `embed = cn.embedders.hashed_words()`, an offline stand-in).
- `<!-- docs-test: teardown CODE -->`: one line run after the block, even when it failed (closing what
  setup started).

A failure names the page, the line of the block's fence, the line that raised and the error.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import traceback
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import clanka_nb as cn

REPO = Path(__file__).resolve().parents[1]
PAGES = [*sorted((REPO / "docs").glob("*.md")), REPO / "README.md"]
MARKER = re.compile(r"^<!-- docs-test: (?P<kind>\w+) (?P<body>.*?) -->$")
SKIP_REASON = re.compile(r"^\((?P<reason>[^()]*\S[^()]*)\)$")
CLONE_COMMITS = 60


@dataclass
class Block:
    page: str
    line: int  # 1-based line of the opening fence
    code: str
    skip: str | None = None
    setup: list[str] = field(default_factory=list)
    teardown: list[str] = field(default_factory=list)


def blocks_of(page: Path, root: Path = REPO) -> list[Block]:
    """The page's ```python blocks, with the docs-test markers right above each."""
    lines = page.read_text(encoding="utf-8").splitlines()
    name = page.relative_to(root).as_posix()
    found: list[Block] = []
    index = 0
    while index < len(lines):
        if lines[index].strip() != "```python":
            index += 1
            continue
        fence = index
        end = next((i for i in range(fence + 1, len(lines)) if lines[i].strip() == "```"), None)
        assert end is not None, f"{name}:{fence + 1}: a ```python block is never closed"
        block = Block(name, fence + 1, "\n".join(lines[fence + 1 : end]) + "\n")
        above = fence - 1
        while above >= 0 and lines[above].startswith("<!-- docs-test:"):
            marker = MARKER.match(lines[above].strip())
            assert marker, f"{name}:{above + 1}: a docs-test marker is `<!-- docs-test: KIND BODY -->`"
            kind, body = marker["kind"], marker["body"]
            if kind == "skip":
                reason = SKIP_REASON.match(body)
                assert reason, f"{name}:{above + 1}: a skip says why, in parentheses: `skip (needs ...)`"
                block.skip = reason["reason"].strip()
            elif kind in ("setup", "teardown"):
                getattr(block, kind).insert(0, body)
            else:
                raise AssertionError(f"{name}:{above + 1}: unknown docs-test marker {kind!r} (skip, setup, teardown)")
            above -= 1
        found.append(block)
        index = end + 1
    return found


def every_block() -> list[Block]:
    return [block for page in PAGES for block in blocks_of(page)]


def pages_with_code() -> list[str]:
    return sorted({block.page for block in every_block()})


def stray_markers(page: Path) -> list[int]:
    """Lines of docs-test markers that stand above no ```python fence (a typo would silently do nothing)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    stray = []
    for number, line in enumerate(lines):
        if not line.startswith("<!-- docs-test:"):
            continue
        below = number + 1
        while below < len(lines) and lines[below].startswith("<!-- docs-test:"):
            below += 1
        if below >= len(lines) or lines[below].strip() != "```python":
            stray.append(number + 1)
    return stray


def git(folder: Path, *args: str) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "docs",
        "GIT_AUTHOR_EMAIL": "docs@example.invalid",
        "GIT_COMMITTER_NAME": "docs",
        "GIT_COMMITTER_EMAIL": "docs@example.invalid",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    subprocess.run(["git", *args], cwd=folder, env=env, check=True, capture_output=True, timeout=60)


def make_placeholders(work: Path) -> None:
    sample = Path(cn.sample_codebase())
    for name in ("path/to/repo", "repo-a", "repo-b"):
        shutil.copytree(sample, work / name)
    clone = work / "path/to/clone"
    shutil.copytree(sample, clone)
    git(clone, "init", "-q", "-b", "main")
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "-m", "the sample")
    pricing = clone / "src/pricing.ts"
    for number in range(1, CLONE_COMMITS):
        with pricing.open("a", encoding="utf-8") as handle:
            handle.write(f"\nexport function step{number}(value: number): number {{\n  return value + {number};\n}}\n")
        git(clone, "commit", "-q", "-am", f"step {number}")


def where(error: BaseException, block: Block, filename: str) -> str:
    """The page's line that raised, from the traceback (the code is compiled with the page's line numbers)."""
    code = block.code.splitlines()
    for frame in reversed(traceback.extract_tb(error.__traceback__, limit=None)):
        if frame.filename == filename and frame.lineno is not None:
            text = code[frame.lineno - block.line - 1] if 0 <= frame.lineno - block.line - 1 < len(code) else ""
            return f"line {frame.lineno}: {text.strip()}"
    return "no line of the page in the traceback"


def run_line(code: str, namespace: dict[str, object], label: str) -> None:
    exec(compile(code, label, "exec"), namespace)


def run_blocks(blocks: list[Block]) -> list[str]:
    """Run the blocks in order in one namespace; fail naming the page, the block, the line and the error.

    Returns the skipped blocks, each with its reason."""
    namespace: dict[str, object] = {"__name__": "__main__"}
    skipped: list[str] = []
    for block in blocks:
        if block.skip is not None:
            skipped.append(f"{block.page}:{block.line} ({block.skip})")
            continue
        filename = f"{block.page} (block at line {block.line})"
        try:
            for line in block.setup:
                run_line(line, namespace, f"{block.page}:{block.line} setup")
            # Blank lines in front keep the page's own line numbers in the traceback.
            exec(compile("\n" * block.line + block.code, filename, "exec"), namespace)
        except Exception as error:  # noqa: BLE001 - any error of a doc block fails the test, named
            at = where(error, block, filename)
            pytest.fail(f"{block.page}, block at line {block.line}, {at}\n{type(error).__name__}: {error}")
        finally:
            for line in block.teardown:
                run_line(line, namespace, f"{block.page}:{block.line} teardown")
    return skipped


@pytest.mark.parametrize("page", pages_with_code())
def test_page_runs(page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MPLBACKEND", "Agg")
    make_placeholders(tmp_path)
    monkeypatch.chdir(tmp_path)
    skipped = run_blocks([block for block in every_block() if block.page == page])
    if skipped:  # the page ran; its skipped blocks are listed in the output (-rA, -s), not hidden
        print("skipped:", *skipped, sep="\n  ")


def test_a_failing_block_names_its_page_line_and_error() -> None:
    good = Block("docs/x.md", 10, "value = 1\n")
    bad = Block("docs/x.md", 20, "other = value + 1\nmissing = value / 0\n", teardown=["closed = True"])
    with pytest.raises(pytest.fail.Exception) as failed:
        run_blocks([good, bad])
    assert str(failed.value).splitlines() == [
        "docs/x.md, block at line 20, line 22: missing = value / 0",
        "ZeroDivisionError: division by zero",
    ]


def test_a_skipped_block_is_not_run_and_its_reason_is_returned() -> None:
    blocks = [Block("docs/x.md", 3, "raise SystemExit('ran')\n", skip="needs a network")]
    assert run_blocks(blocks) == ["docs/x.md:3 (needs a network)"]


def test_every_marker_is_well_formed_and_stands_above_a_block() -> None:
    blocks = every_block()  # parsing asserts each marker's form
    assert blocks, "no ```python block found in docs/*.md or README.md"
    stray = {page.name: lines for page in PAGES if (lines := stray_markers(page))}
    assert not stray, f"docs-test markers above no ```python block: {stray}"


def test_skips_are_few_and_say_why() -> None:
    blocks = every_block()
    skipped = [block for block in blocks if block.skip is not None]
    for block in skipped:
        assert len(block.skip or "") >= 10, f"{block.page}:{block.line}: say what the block needs, not only 'skip'"
    assert len(skipped) * 4 <= len(blocks), f"{len(skipped)} of {len(blocks)} blocks skipped: run them instead"


def test_the_parser_finds_markers_and_line_numbers(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# T\n\n<!-- docs-test: setup x = 1 -->\n```python\nprint(x)\n```\n\n"
        "<!-- docs-test: skip (needs a network) -->\n```python\nimport nothing\n```\n",
        encoding="utf-8",
    )
    found = blocks_of(page, tmp_path)
    assert [(b.line, b.setup, b.skip) for b in found] == [(4, ["x = 1"], None), (9, [], "needs a network")]
    assert found[0].code == "print(x)\n"

