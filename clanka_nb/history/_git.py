"""A repository's history read from git objects: first-parent commits, what each changed, and blobs."""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"  # git's hash of a tree with nothing in it
_TIMEOUT = 120  # seconds for one git command (they read local objects only)


class ChurnError(ValueError):
    """The repository or revision range cannot be read as asked; the message says how to fix it."""


@dataclass(frozen=True, slots=True)
class Commit:
    hash: str
    date: str  # committer date, ISO 8601
    subject: str


@dataclass(frozen=True, slots=True)
class Change:
    """One path a commit changed: `blob` and `mode` of the new version (None when it was deleted)."""

    path: str
    blob: str | None
    mode: str | None


def git(repo: Path, *args: str, check: bool = True) -> str:
    if shutil.which("git") is None:
        msg = "the git command is not installed; install git (e.g. apt-get install git) to read a history"
        raise ChurnError(msg)
    run = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, encoding="utf-8", errors="surrogateescape",
        timeout=_TIMEOUT, stdin=subprocess.DEVNULL, check=False,
    )  # fmt: skip
    if check and run.returncode != 0:
        msg = f"git {' '.join(args)} failed in {repo}: {run.stderr.strip() or run.returncode}"
        raise ChurnError(msg)
    return run.stdout


def repository(path: str | os.PathLike[str]) -> tuple[Path, str]:
    """The top folder of the git work tree holding `path` (or the git dir of a bare repository), and where
    `path` lies in it: "" at the top, else a prefix such as "packages/app/" (always with `/`)."""
    folder = Path(path).expanduser()
    if not folder.is_dir():
        msg = f"{str(folder)!r} is not a folder; pass the folder of a git clone"
        raise ChurnError(msg)
    inside = subprocess.run(
        ["git", "-C", str(folder), "rev-parse", "--is-inside-work-tree", "--is-bare-repository"],
        capture_output=True, text=True, timeout=_TIMEOUT, stdin=subprocess.DEVNULL, check=False,
    ) if shutil.which("git") else None  # fmt: skip
    if inside is None or inside.returncode != 0:
        msg = f"{str(folder)!r} is not a git repository; pass the folder of a git clone (git clone URL DIR)"
        raise ChurnError(msg)
    if inside.stdout.split()[-1] == "true":
        return folder.resolve(), ""
    top, prefix = git(folder, "rev-parse", "--show-toplevel", "--show-prefix").splitlines()[:2]
    return Path(top), prefix


def first_parent_commits(repo: Path, revs: str) -> tuple[str, list[Commit]]:
    """The commits of `revs` along first parents, oldest first, and the baseline just before them.

    `revs` is a range `A..B`, or one revision `R`, which means `R~1..R`. The baseline of a range that
    starts at the repository's first commit is the empty tree.
    """
    if not isinstance(revs, str) or not revs.strip():
        msg = f"revs must be a revision range such as 'HEAD~50..HEAD', got {revs!r}"
        raise ChurnError(msg)
    spec = revs.strip() if ".." in revs else f"{revs.strip()}~1..{revs.strip()}"
    listed = subprocess.run(
        ["git", "-C", str(repo), "log", "--first-parent", "--reverse", "--format=%H%x00%cI%x00%s", spec, "--"],
        capture_output=True, text=True, encoding="utf-8", errors="replace", timeout=_TIMEOUT,
        stdin=subprocess.DEVNULL, check=False,
    )  # fmt: skip
    if listed.returncode != 0:
        problem = listed.stderr.strip().splitlines()[0] if listed.stderr.strip() else "unknown revision"
        msg = f"cannot read the revisions {revs!r} in {repo}: {problem}; pass a range of this repository"
        msg += ", e.g. 'HEAD~20..HEAD'"
        if git(repo, "rev-parse", "--is-shallow-repository", check=False).strip() == "true":
            msg += " (this clone is shallow: older commits are missing; run `git fetch --unshallow`)"
        raise ChurnError(msg)
    commits = [Commit(*line.split("\x00", 2)) for line in listed.stdout.splitlines() if line]
    if not commits:
        msg = f"{revs!r} holds no commits (along first parents); the older revision comes first: 'OLD..NEW'"
        raise ChurnError(msg)
    return _baseline(repo, commits[0].hash), commits


def check_tracked(repo: Path, prefix: str, baseline: str, commits: list[Commit]) -> None:
    """Refuse a subfolder that holds no tracked file at the baseline nor in any commit of the range."""
    if not prefix:
        return
    span = commits[-1].hash if baseline == EMPTY_TREE else f"{baseline}..{commits[-1].hash}"
    if git(repo, "log", "-n", "1", "--format=%H", span, "--", prefix).strip():
        return
    if baseline != EMPTY_TREE and git(repo, "ls-tree", baseline, "--", prefix).strip():
        return
    msg = (
        f"{prefix.rstrip('/')!r} holds no file git tracks in {repo} over these revisions (untracked or ignored?); "
        f"pass a folder `git ls-files` lists, or the clone's top {str(repo)!r}"
    )
    raise ChurnError(msg)


def _baseline(repo: Path, oldest: str) -> str:
    parents = git(repo, "rev-list", "--parents", "-n", "1", oldest).split()[1:]
    if parents:
        return parents[0]
    if _is_shallow_boundary(repo, oldest):
        msg = (
            f"the commit before {oldest[:12]} is not in this clone (it is shallow); "
            "run `git fetch --unshallow`, or start the range later"
        )
        raise ChurnError(msg)
    return EMPTY_TREE  # the repository's first commit: everything it holds is new


def _is_shallow_boundary(repo: Path, commit: str) -> bool:
    shallow = Path(git(repo, "rev-parse", "--git-path", "shallow").strip())
    shallow = shallow if shallow.is_absolute() else repo / shallow
    return shallow.is_file() and commit in shallow.read_text().split()


def tree_files(repo: Path, commit: str) -> list[Change]:
    """Every file of a commit's tree (submodules and symbolic links included, with their modes)."""
    if commit == EMPTY_TREE:
        return []
    out = git(repo, "ls-tree", "-r", "-z", "--full-tree", commit)
    files = []
    for record in filter(None, out.split("\x00")):
        meta, path = record.split("\t", 1)
        mode, _, blob = meta.split(" ")
        files.append(Change(path, blob, mode))
    return files


def changes(repo: Path, before: str, after: str) -> list[Change]:
    """The paths `after` changed against `before`: renames as a deletion and an addition."""
    out = git(repo, "diff-tree", "-r", "-z", "--no-renames", "--no-commit-id", before, after)
    fields = out.split("\x00")
    found = []
    for i in range(0, len(fields) - 1, 2):
        meta, path = fields[i], fields[i + 1]
        if not meta.startswith(":"):
            continue
        _, new_mode, _, new_blob, status = meta[1:].split(" ")
        found.append(Change(path, None, None) if status == "D" else Change(path, new_blob, new_mode))
    return found


class BlobReader:
    """`git cat-file --batch`, kept running: one process reads every blob of a history."""

    def __init__(self, repo: Path) -> None:
        self._process = subprocess.Popen(
            ["git", "-C", str(repo), "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip

    def read(self, blob: str) -> bytes:
        stdin, stdout = self._process.stdin, self._process.stdout
        assert stdin is not None and stdout is not None
        stdin.write(blob.encode() + b"\n")
        stdin.flush()
        header = stdout.readline().split()
        if len(header) != 3:
            msg = f"git could not read the object {blob}: {b' '.join(header).decode(errors='replace')}"
            raise ChurnError(msg)
        data = stdout.read(int(header[2]))
        stdout.read(1)  # the newline after every object
        return data

    def close(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait(timeout=_TIMEOUT)
        if self._process.stdout is not None:
            self._process.stdout.close()  # else the pipe is left to the garbage collector: a ResourceWarning

    def __enter__(self) -> BlobReader:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        if error is not None:
            self._process.kill()
        self.close()
