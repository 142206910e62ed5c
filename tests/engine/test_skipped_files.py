"""`skipped_files`: every file under the root that the listing leaves out, with the reason that decided it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from clanka_nb.engine import list_files, skipped_files


def write(root: Path, rel: str, data: str | bytes = "const a = 1\n") -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data) if isinstance(data, bytes) else path.write_text(data, encoding="utf-8")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()  # a git work tree: .gitignore applies
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, ".gitignore", "logs/\n*.log\n!keep.log\n")
    write(tmp_path, "src/app.ts")
    write(tmp_path, "src/util.min.js")
    write(tmp_path, "src/lib.cjs")
    write(tmp_path, "package.json", "{}\n")
    write(tmp_path, "Makefile", "all:\n")
    write(tmp_path, "build/out.js")
    write(tmp_path, "node_modules/pkg/deep/index.js")
    write(tmp_path, "logs/today.ts")
    write(tmp_path, "debug.log")
    write(tmp_path, "keep.log")  # re-included, but .log is not indexed anyway
    write(tmp_path, "docs/big.md", "x" * 3000)
    os.symlink(tmp_path / "src" / "app.ts", tmp_path / "link.ts")
    os.mkfifo(tmp_path / "pipe.ts")
    return tmp_path


def test_each_left_out_file_has_the_reason_that_decided_it(tree: Path) -> None:
    reasons = dict(skipped_files(tree, max_file_size="2K"))
    assert reasons == {
        ".gitignore": "extension .gitignore is not one the reference indexes",
        "Makefile": "no extension: the reference indexes only known source and documentation extensions",
        "build/out.js": "inside build/, a folder the reference never indexes (build)",
        "debug.log": "extension .log is not one the reference indexes",
        "docs/big.md": "3,000 bytes, over max_file_size (2,048 bytes)",
        "keep.log": "extension .log is not one the reference indexes",
        "link.ts": "a symbolic link: ripgrep does not follow links",
        "logs/today.ts": "inside logs/, ignored by .gitignore (pattern 'logs/')",
        "node_modules/pkg/deep/index.js": "inside node_modules/, a folder the reference never indexes (node_modules)",
        "package.json": "extension .json is not one the reference indexes",
        "pipe.ts": "not a regular file (a FIFO, socket or device): never read",
        "src/lib.cjs": "extension .cjs is not one the reference indexes",
        "src/util.min.js": "a minified bundle by its name (.min.js, .min.css): the reference never indexes it",
    }
    assert list_files(tree, max_file_size="2K") == ["src/app.ts"]


def test_an_ignored_ts_file_names_the_ignore_file_and_its_pattern(tree: Path) -> None:
    write(tree, "src/gen/.ignore", "*.gen.ts\n")
    write(tree, "src/gen/api.gen.ts")
    assert dict(skipped_files(tree))["src/gen/api.gen.ts"] == "ignored by src/gen/.ignore (pattern '*.gen.ts')"


def test_listed_and_skipped_files_are_every_file_once(tree: Path) -> None:
    """Disjoint, and together every entry under the root that is not a folder (outside .git)."""
    for size in ("1M", "2K", 0):
        listed = set(list_files(tree, max_file_size=size))
        skipped = [path for path, _ in skipped_files(tree, max_file_size=size)]
        assert len(skipped) == len(set(skipped))
        assert listed.isdisjoint(skipped)
        everything = set()
        for folder, dirs, names in os.walk(tree):
            dirs[:] = [d for d in dirs if d != ".git"]
            rel = Path(folder).relative_to(tree)
            everything |= {(rel / name).as_posix() for name in names}
        assert listed | set(skipped) == everything


def test_skipped_files_are_in_listing_order(tree: Path) -> None:
    paths = [path for path, _ in skipped_files(tree)]
    from clanka_nb.engine._collation import sorted_like_js

    assert paths == sorted_like_js(paths)
