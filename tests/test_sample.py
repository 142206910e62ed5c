"""The sample codebase shipped in the package: present, multi-language, and rich enough to teach with."""

from __future__ import annotations

import pathlib

import pytest

from clanka_nb.bundled import sample_codebase
from clanka_nb.engine import CodeChunk, chunk_file_content, is_meaningful_file, is_probably_minified

DECLARATION_TYPES = {"class", "method", "function", "interface", "enum", "type-alias", "variable", "namespace"}
PARSED_SUFFIXES = {".ts", ".tsx", ".js"}


@pytest.fixture(scope="module")
def root() -> pathlib.Path:
    return sample_codebase()


@pytest.fixture(scope="module")
def files(root: pathlib.Path) -> list[str]:
    """Every file of the sample as a POSIX path relative to its root."""
    return sorted(
        p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts
    )


@pytest.fixture(scope="module")
def chunks(root: pathlib.Path, files: list[str]) -> list[CodeChunk]:
    """Chunks at the default settings of every file the reference parses with tree-sitter."""
    out: list[CodeChunk] = []
    for rel in files:
        if pathlib.PurePosixPath(rel).suffix in PARSED_SUFFIXES and is_meaningful_file(rel):
            out.extend(chunk_file_content(rel, (root / rel).read_text(encoding="utf-8")))
    return out


def test_sample_is_a_folder(root: pathlib.Path) -> None:
    assert isinstance(root, pathlib.Path)
    assert root.exists()
    assert root.is_dir()
    assert root.name == "sample"


def test_sample_has_every_language(files: list[str]) -> None:
    suffixes = {pathlib.PurePosixPath(f).suffix for f in files}
    assert {".ts", ".tsx", ".js", ".mjs", ".py", ".go", ".md"} <= suffixes
    for expected in ("README.md", "docs/architecture.md", "package.json", "dist/bundle.js"):
        assert expected in files
    assert any(f.startswith("src/components/") and f.endswith(".tsx") for f in files)
    assert any(f.startswith("src/legacy/") and f.endswith(".js") for f in files)
    assert any(f.startswith("tools/") and f.endswith(".py") for f in files)
    assert any(f.startswith("cmd/") and f.endswith(".go") for f in files)


def test_sample_size_is_small(root: pathlib.Path, files: list[str]) -> None:
    assert 12 <= len(files) <= 18
    line_counts = {f: len((root / f).read_text(encoding="utf-8").splitlines()) for f in files}
    assert 1200 <= sum(line_counts.values()) <= 2000
    # Only the file holding the long function may grow past 200 lines.
    assert all(n < 200 for f, n in line_counts.items() if f != "src/reports.ts"), line_counts


def test_files_the_listing_skips(root: pathlib.Path, files: list[str]) -> None:
    assert not is_meaningful_file("package.json")
    assert not is_meaningful_file("dist/bundle.js")
    bundle = (root / "dist/bundle.js").read_text(encoding="utf-8")
    assert is_probably_minified(bundle)
    assert chunk_file_content("bundle.js", bundle) == []
    assert all(is_meaningful_file(f) for f in files if f not in {"package.json", "dist/bundle.js"})


def test_declaration_chunks_of_every_type(chunks: list[CodeChunk]) -> None:
    assert DECLARATION_TYPES.issubset(c.type for c in chunks)


def test_long_function_splits_at_30_lines(chunks: list[CodeChunk]) -> None:
    report = [c for c in chunks if c.path == "src/reports.ts" and c.name == "buildStockReport"]
    assert len(report) > 1
    assert all(c.type == "function" for c in report)
    assert all(c.end_line - c.start_line + 1 <= 30 for c in report)


def test_parents_of_namespace_and_class_members(chunks: list[CodeChunk]) -> None:
    parents = {c.parent for c in chunks if c.parent}
    assert any(p.startswith("namespace ") for p in parents)
    assert any(p.startswith("class ") for p in parents)
    # The nested namespace: Audit inside Inventory, and a class inside Audit.
    assert any(c.name == "Audit" and c.type == "namespace" and c.parent == "namespace Inventory" for c in chunks)
    assert any(c.name == "AuditSession" and c.parent == "namespace Audit" for c in chunks)


def test_abstract_class_and_mjs_are_not_declarations(root: pathlib.Path, chunks: list[CodeChunk]) -> None:
    # The reference skips `abstract class`; its concrete subclass is still a chunk.
    assert not any(c.name == "Shelf" for c in chunks)
    assert any(c.name == "WallShelf" and c.type == "class" for c in chunks)
    # `.mjs` is not parsed: line windows only, with no name, type or parent.
    text = (root / "src/legacy/receipt.mjs").read_text(encoding="utf-8")
    windows = chunk_file_content("src/legacy/receipt.mjs", text)
    assert windows
    assert all(c.name is None and c.type is None and c.parent is None for c in windows)
