"""list_files: ripgrep's listing rules (ignore files, git work trees, links, FIFOs, sizes), on small trees."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from clanka_nb.engine import _listing
from clanka_nb.engine._collation import sorted_like_js
from clanka_nb.engine._files import is_meaningful_file
from clanka_nb.engine._listing import list_files, parse_size
from tests._shared import NEEDS_CONFORMANCE

CONFORMANCE = Path(__file__).resolve().parents[2].parent / "shared" / "conformance"
MAKE_TREE = CONFORMANCE / "make_tree.py"
NEEDS_GIT = pytest.mark.skipif(shutil.which("git") is None, reason="needs the git command")


def make(root: Path, files: dict[str, str] | list[str]) -> Path:
    """Write `files` (path -> text, or just paths) under root; returns root."""
    items = files.items() if isinstance(files, dict) else ((path, "x = 1\n") for path in files)
    for rel, text in items:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def git_dir(root: Path) -> Path:
    """A bare-bones `.git` folder: enough for ripgrep (and us) to call root a work tree."""
    (root / ".git" / "info").mkdir(parents=True, exist_ok=True)
    return root / ".git"


def listed_within(root: Path, seconds: float = 20.0, **options: object) -> list[str]:
    """list_files, failing (instead of hanging the suite) if it blocks, e.g. on opening a FIFO."""
    result: list[list[str]] = []
    worker = threading.Thread(target=lambda: result.append(list_files(root, **options)), daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"list_files({root}) did not return within {seconds}s"
    return result[0]


# --- the shared conformance tree ---------------------------------------------------------------


@pytest.mark.skipif(not MAKE_TREE.exists(), reason=NEEDS_CONFORMANCE)
@pytest.mark.parametrize("mode", ["git", "nogit"])
def test_conformance_tree(tmp_path: Path, mode: str) -> None:
    if mode == "git" and shutil.which("git") is None:
        pytest.skip("needs the git command")
    expected = json.loads((CONFORMANCE / "tree_listing.json").read_text(encoding="utf-8"))[mode]
    root = tmp_path / "tree"
    subprocess.run([sys.executable, str(MAKE_TREE), str(root), *(["--git"] if mode == "git" else [])], check=True)
    assert list_files(root) == expected


# --- ignore files --------------------------------------------------------------------------------


def test_nested_gitignore_with_negation_and_anchoring(tmp_path: Path) -> None:
    git_dir(tmp_path)
    make(tmp_path, ["a.ts", "lib/a.ts", "b.ts", "lib/b.ts", "src/b.ts", "src/c.ts", "src/deep/c.ts"])
    make(tmp_path, {".gitignore": "/a.ts\nb.ts\n", "src/.gitignore": "!b.ts\n/c.ts\n"})
    # A leading `/` anchors to the folder of the .gitignore; the deeper file's negation wins in src.
    assert list_files(tmp_path) == ["lib/a.ts", "src/b.ts", "src/deep/c.ts"]


def test_ignored_folder_is_pruned_and_cannot_be_reopened_from_inside(tmp_path: Path) -> None:
    git_dir(tmp_path)
    make(tmp_path, ["gen/a.ts", "gen/keep.ts", "out/a.ts", "out/keep.ts", "main.ts"])
    # As in git: once `gen/` is ignored its files cannot be re-included; `out/*` ignores contents only.
    make(tmp_path, {".gitignore": "gen/\n!gen/keep.ts\nout/*\n!out/keep.ts\n"})
    assert list_files(tmp_path) == ["main.ts", "out/keep.ts"]


def test_dir_only_patterns_match_folders_not_files(tmp_path: Path) -> None:
    git_dir(tmp_path)
    make(tmp_path, ["logs/a.txt", "src/logs/b.txt", "docs/logs.txt", "tmp.md", "tmp/x.md"])
    make(tmp_path, {".gitignore": "logs/\ntmp/\n"})
    assert list_files(tmp_path) == ["docs/logs.txt", "tmp.md"]


def test_dir_star_star_keeps_the_folder_so_negation_works(tmp_path: Path) -> None:
    git_dir(tmp_path)
    make(tmp_path, ["cache/a.ts", "cache/keep.ts", "cache/sub/b.ts"])
    make(tmp_path, {".gitignore": "cache/**\n!cache/keep.ts\n"})
    assert list_files(tmp_path) == ["cache/keep.ts"]


def test_ignore_file_applies_outside_git(tmp_path: Path) -> None:
    make(tmp_path, ["a.ts", "b.ts", "sub/a.ts", "sub/c.ts"])
    make(tmp_path, {".ignore": "a.ts\n", "sub/.ignore": "!a.ts\nc.ts\n"})
    assert list_files(tmp_path) == ["b.ts", "sub/a.ts"]


def test_rgignore_beats_ignore_beats_gitignore(tmp_path: Path) -> None:
    git_dir(tmp_path)
    make(tmp_path, ["a.ts", "b.ts", "c.ts", "d.ts", "x/e.ts"])
    make(tmp_path, {".gitignore": "*.ts\n", ".ignore": "!a.ts\n!b.ts\n!e.ts\n", ".rgignore": "b.ts\n!c.ts\n"})
    make(tmp_path, {"x/.gitignore": "*.ts\n"})
    # By kind before depth: the root .ignore still outranks the nested x/.gitignore.
    assert list_files(tmp_path) == ["a.ts", "c.ts", "x/e.ts"]


def test_ignore_can_reopen_a_gitignored_folder(tmp_path: Path) -> None:
    git_dir(tmp_path)
    make(tmp_path, ["vendor/a.ts", "vendor/sub/b.ts", "vendor/c.txt"])
    make(tmp_path, {".gitignore": "vendor/\n*.txt\n", ".ignore": "!vendor/\n"})
    # ripgrep matches each path by itself: `vendor/` does not reach vendor/a.ts once the folder is open.
    assert list_files(tmp_path) == ["vendor/a.ts", "vendor/sub/b.ts"]


def test_gitignore_is_ignored_outside_git(tmp_path: Path) -> None:
    make(tmp_path, ["a.ts", "logs/b.ts"])
    make(tmp_path, {".gitignore": "a.ts\nlogs/\n"})
    assert list_files(tmp_path) == ["a.ts", "logs/b.ts"]


def test_git_info_exclude(tmp_path: Path) -> None:
    make(git_dir(tmp_path), {"info/exclude": "secret.ts\n"})
    make(tmp_path, ["secret.ts", "open.ts", "sub/secret.ts"])
    make(tmp_path, {".gitignore": "!sub/secret.ts\n"})  # a .gitignore outranks info/exclude
    assert list_files(tmp_path) == ["open.ts", "sub/secret.ts"]


def test_git_work_tree_above_the_root(tmp_path: Path) -> None:
    git_dir(tmp_path)
    make(tmp_path, {".gitignore": "*.gen.ts\n/pkg/skip/\n", ".ignore": "*.md\n"})
    make(tmp_path, ["pkg/a.ts", "pkg/a.gen.ts", "pkg/skip/b.ts", "pkg/README.md"])
    assert list_files(tmp_path / "pkg") == ["a.ts"]


def test_git_as_a_file_worktree(tmp_path: Path) -> None:
    common = git_dir(tmp_path / "main")
    make(common, {"info/exclude": "excluded.ts\n", "worktrees/side/commondir": "../..\n"})
    side = tmp_path / "side"
    make(side, {".git": f"gitdir: {common / 'worktrees' / 'side'}\n", ".gitignore": "ignored.ts\n"})
    make(side, ["excluded.ts", "ignored.ts", "kept.ts"])
    assert list_files(side) == ["kept.ts"]


def test_nested_repository_does_not_inherit_outer_gitignore(tmp_path: Path) -> None:
    git_dir(tmp_path)
    git_dir(tmp_path / "inner")
    make(tmp_path, {".gitignore": "*.gen.ts\n", ".ignore": "*.md\n"})
    make(tmp_path, ["a.gen.ts", "inner/b.gen.ts", "inner/c.md", "inner/.git/hooks/x.ts"])
    assert list_files(tmp_path) == ["inner/b.gen.ts"]


def test_ignore_files_crlf_bom_and_undecodable(tmp_path: Path) -> None:
    make(tmp_path, ["a.ts", "b.ts", "c.ts", "d.ts"])
    (tmp_path / ".ignore").write_bytes(b"\xef\xbb\xbfa.ts\r\nb.ts\r\n\xff\xfe bad\nc.ts\n")
    # A BOM and CRLF are fine; ripgrep stops reading at the first line that is not UTF-8.
    assert list_files(tmp_path) == ["c.ts", "d.ts"]


def test_invalid_pattern_lines_are_skipped(tmp_path: Path) -> None:
    make(tmp_path, ["a.ts", "b.ts", "c.ts"])
    make(tmp_path, {".ignore": "[z-a]\n\\\n!\na.ts\n"})
    assert list_files(tmp_path) == ["b.ts", "c.ts"]


# --- what is listed at all -----------------------------------------------------------------------


def test_hidden_files_and_folders_are_listed_but_not_dot_git(tmp_path: Path) -> None:
    make(tmp_path, [".eslintrc.js", ".config/tool.py", ".hidden.md", "sub/.git/x.ts", ".git"])
    assert list_files(tmp_path) == [".config/tool.py", ".eslintrc.js", ".hidden.md"]


def test_symbolic_links_are_not_listed_or_followed(tmp_path: Path) -> None:
    make(tmp_path, ["real/a.ts", "b.ts"])
    outside = make(tmp_path.parent / f"{tmp_path.name}-outside", ["c.ts"])
    try:
        (tmp_path / "link.ts").symlink_to(tmp_path / "b.ts")
        (tmp_path / "linkdir").symlink_to(tmp_path / "real", target_is_directory=True)
        (tmp_path / "away").symlink_to(outside, target_is_directory=True)
        (tmp_path / "dangling.ts").symlink_to(tmp_path / "missing.ts")
    except OSError as exc:  # pragma: no cover - platforms without symlinks
        pytest.skip(f"cannot make symbolic links here: {exc}")
    assert list_files(tmp_path) == ["b.ts", "real/a.ts"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs os.mkfifo")
def test_fifos_are_not_listed_nor_opened(tmp_path: Path) -> None:
    make(tmp_path, ["a.ts"])
    os.mkfifo(tmp_path / "pipe.ts")
    os.mkfifo(tmp_path / ".gitignore")
    os.mkfifo(tmp_path / ".ignore")
    git_dir(tmp_path)
    os.mkfifo(tmp_path / ".git" / "info" / "exclude")
    assert listed_within(tmp_path) == ["a.ts"]


def test_size_limit_boundary(tmp_path: Path) -> None:
    (tmp_path / "exact.ts").write_bytes(b"x" * 1024)
    (tmp_path / "over.ts").write_bytes(b"x" * 1025)
    (tmp_path / "empty.ts").write_bytes(b"")
    assert list_files(tmp_path, max_file_size="1K") == ["empty.ts", "exact.ts"]
    assert list_files(tmp_path, max_file_size=1025) == ["empty.ts", "exact.ts", "over.ts"]
    (tmp_path / "mega.ts").write_bytes(b"x" * (1024 * 1024))
    (tmp_path / "mega1.ts").write_bytes(b"x" * (1024 * 1024 + 1))
    assert list_files(tmp_path) == ["empty.ts", "exact.ts", "mega.ts", "over.ts"]


def test_only_meaningful_files(tmp_path: Path) -> None:
    make(tmp_path, ["a.ts", "Makefile", "data.csv", "x.min.js", "node_modules/p/i.js", "Dist/a.ts", "b.MD"])
    assert list_files(tmp_path) == ["a.ts", "b.MD"]


@pytest.mark.skipif(os.sep == "\\", reason="a backslash cannot be part of a file name here")
def test_backslash_in_a_name_is_normalised_like_the_reference(tmp_path: Path) -> None:
    make(tmp_path, ["a\\b.ts"])
    assert list_files(tmp_path) == ["a/b.ts"]


def test_icu_order(tmp_path: Path) -> None:
    names = ["src/10.ts", "src/9.ts", "src/a_b.ts", "src/a-b.ts", "src/a.b.ts", "src/a/b.ts", "src/alpha.ts"]
    names += ["src/App.tsx", "src/B.ts"]
    make(tmp_path, list(reversed(names)))
    assert list_files(tmp_path) == names


def test_icu_order_of_non_ascii_names(tmp_path: Path) -> None:
    # The order Node 20 (ICU 78) gives these with localeCompare: emoji before digits, U+A7C0 among the
    # letters, CJK Extension B before the core block.
    names = ["docs/_x.md", "docs/🧿.md", "docs/10.md", "docs/9.md", "docs/a.md", "docs/Ꟁ.md", "docs/e.md"]
    names += ["docs/É.md", "docs/z.md", "docs/𠀑.md", "docs/中.md"]
    make(tmp_path, list(reversed(names)))
    assert list_files(tmp_path) == names


# --- robustness ----------------------------------------------------------------------------------


def test_unreadable_folder_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make(tmp_path, ["a.ts", "locked/b.ts", "open/c.ts"])
    real_scandir = os.scandir
    locked = str(tmp_path / "locked")

    def scandir(path: str) -> object:
        if os.fspath(path) == locked:  # chmod 000 does not stop root, so refuse the way the OS would
            raise PermissionError(13, "Permission denied", path)
        return real_scandir(path)

    monkeypatch.setattr(_listing.os, "scandir", scandir)
    assert list_files(tmp_path) == ["a.ts", "open/c.ts"]


def test_file_vanishing_during_the_walk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make(tmp_path, ["a.ts", "gone.ts"])
    real_scandir = os.scandir

    class Vanishing:
        """A scan entry whose file is deleted between the scan and the stat."""

        def __init__(self, entry: os.DirEntry[str]) -> None:
            self.entry, self.name, self.path = entry, entry.name, entry.path

        def __getattr__(self, attr: str) -> object:
            return getattr(self.entry, attr)

        def stat(self, *, follow_symlinks: bool = True) -> os.stat_result:
            if self.name == "gone.ts":
                raise FileNotFoundError(2, "No such file or directory", self.path)
            return self.entry.stat(follow_symlinks=follow_symlinks)

    class Scan:
        def __init__(self, path: str) -> None:
            self.scan = real_scandir(path)

        def __enter__(self) -> list[Vanishing]:
            return [Vanishing(entry) for entry in self.scan.__enter__()]

        def __exit__(self, *exc: object) -> None:
            self.scan.__exit__(*exc)

    monkeypatch.setattr(_listing.os, "scandir", Scan)
    assert list_files(tmp_path) == ["a.ts"]


def test_very_deep_tree(tmp_path: Path) -> None:
    # Deeper than CPython's default recursion limit (1000), so a recursive walk would fail; fixed rather
    # than read from sys.getrecursionlimit(), which other tests in the session may have raised, and
    # short enough that the path stays under PATH_MAX (4096).
    depth = 1200
    folder = tmp_path
    try:
        for _ in range(depth):  # one by one: Path.mkdir(parents=True) and os.makedirs recurse themselves
            (folder / "d").mkdir()
            folder = folder / "d"
        (folder / "deep.ts").write_text("x\n", encoding="utf-8")
        assert list_files(tmp_path) == ["d/" * depth + "deep.ts"]
    except OSError as exc:  # pragma: no cover - path length limits
        pytest.skip(f"cannot make a tree {depth} folders deep: {exc}")
    finally:
        # Take it down here, bottom up: pytest's own clean-up of old temp folders recurses and would fail.
        (folder / "deep.ts").unlink(missing_ok=True)
        while folder != tmp_path:
            folder.rmdir()
            folder = folder.parent


# --- root and size arguments ---------------------------------------------------------------------


def test_parse_size() -> None:
    assert parse_size("1M") == 1_048_576
    assert parse_size("500K") == 512_000
    assert parse_size("2g") == 2 * 1024**3
    assert parse_size(2048) == 2048
    assert parse_size("2048") == 2048
    for bad in ["", "M", "1.5M", "ten", "1MB", "-1K"]:
        with pytest.raises(ValueError, match="like '500K', '1M', '2G'"):
            parse_size(bad)


def test_missing_root(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    with pytest.raises(FileNotFoundError, match="nowhere"):
        list_files(missing)


def test_file_as_root(tmp_path: Path) -> None:
    file = make(tmp_path, ["a.ts"]) / "a.ts"
    with pytest.raises(NotADirectoryError, match=r"a\.ts"):
        list_files(file)


# --- against ripgrep itself, where it is installed -----------------------------------------------

_FOLDERS = ["a", "b", "src", "src/x", "src/x/y", "logs", "gen", "a/b", "a/b/c", ".hid"]
_NAMES = ["x.ts", "y.py", "keep.ts", "debug.txt", "a.md", "b.ts"]
_PATTERNS = [
    "*.ts", "!*.ts", "a/", "!a/", "/a", "a", "b/", "src/x/", "!src/x/y/", "*.txt", "!keep.ts", "src/*",
    "!src/x", "x/", "/*.py", "**/y", "a/**", "!a/**/keep.ts", "gen/", "!gen/keep.ts", "**/b/", "*", "!*/",
    "/src/x/*", "!/src/x/keep.ts", "logs/", "!logs/", "[ab].ts", "a/**/b", "**/x/**", "!**/keep.ts",
]  # fmt: skip


def _random_tree(root: Path, rnd: random.Random) -> None:
    for folder in ["", *_FOLDERS]:
        if rnd.random() < 0.7:
            make(root, [f"{folder}/{name}".lstrip("/") for name in rnd.sample(_NAMES, rnd.randint(1, 4))])
    if rnd.random() < 0.6:
        make(git_dir(root), {"info/exclude": "\n".join(rnd.sample(_PATTERNS, 2))})
    for folder in ["", *_FOLDERS]:
        for name, chance in ((".gitignore", 0.5), (".ignore", 0.25), (".rgignore", 0.15)):
            if (root / folder).is_dir() and rnd.random() < chance:
                make(root, {f"{folder}/{name}".lstrip("/"): "\n".join(rnd.sample(_PATTERNS, rnd.randint(1, 4)))})
    if rnd.random() < 0.2:
        git_dir(root / rnd.choice(_FOLDERS))


@pytest.mark.needs_tool("rg", install="apt-get install ripgrep; .ci/run does this")
@pytest.mark.parametrize("seed", range(40))
def test_agrees_with_ripgrep(tmp_path: Path, seed: int) -> None:
    root = tmp_path / "tree"
    root.mkdir()
    _random_tree(root, random.Random(seed))
    command = ["rg", "--files", "--hidden", "--max-filesize", "1M", "--glob", "!.git"]
    out = subprocess.run(command, cwd=root, capture_output=True, text=True, check=False).stdout
    expected = sorted_like_js([path for path in out.splitlines() if path and is_meaningful_file(path)])
    assert list_files(root) == expected


# --- one path at a time (ListingCache), as churn decides the files a commit changed ---


@pytest.mark.parametrize("seed", range(40))
def test_listing_cache_agrees_with_list_files_path_by_path(tmp_path: Path, seed: int) -> None:
    root = tmp_path / "tree"
    root.mkdir()
    _random_tree(root, random.Random(seed))
    (root / "big.ts").write_text("x" * 3000)
    listed = set(list_files(root, max_file_size=2000))
    every = [p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() or p.is_symlink()]
    cache = _listing.ListingCache(root, max_file_size=2000)
    assert {rel for rel in every if cache.is_listed(rel)} == listed
    assert not cache.is_listed("missing/file.ts")


def test_a_huge_ignore_file_is_read_up_to_its_cap_and_said(tmp_path: Path) -> None:
    # A hostile folder's .gitignore of NULs (sparse: no disk used) was read whole and compiled for minutes.
    make(tmp_path, {"a.ts": "x\n", "skip.ts": "x\n", "late.ts": "x\n"})
    (tmp_path / ".git").mkdir()
    with open(tmp_path / ".gitignore", "wb") as ignore:
        ignore.write(b"skip.ts\n" + b"\0" * 100_000 + b"\n")  # a line longer than any path
        ignore.truncate(64 << 20)
        ignore.seek(64 << 20)
        ignore.write(b"\nlate.ts\n")  # past the cap: not read
    script = f"import json; from clanka_nb.engine import list_files; print(json.dumps(list_files({str(tmp_path)!r})))"
    run = subprocess.run([sys.executable, "-W", "always", "-c", script], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == ["a.ts", "late.ts"]  # the lines before the cap still apply
    assert "IgnoreFileTooLargeWarning" in run.stderr and ".gitignore" in run.stderr
    assert "1,048,576 bytes" in run.stderr and "1 lines longer than 4,096" in run.stderr
