"""A repository's history read from git objects: first-parent commits, what each changed, and blobs.

Every git command of the package is built by `git_command`, which confines it: a repository's own
config (or a file it includes) cannot make these commands run a program, and no transport may run, so
a missing object is never fetched. docs/security.md lists each setting and why.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO, BinaryIO

from ..warning import ClankaWarning

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"  # git's hash of a tree with nothing in it
_TIMEOUT = 120  # seconds for one git command (they read local objects only)
_COPY = 1 << 20  # bytes copied from git to a file at a time: a blob is never held whole

# `-c` settings given to every git command. The command line wins over every config file (system,
# global, the repository's and whatever it includes), so these hold whatever the repository says.
CONFINED = (
    "core.fsmonitor=false",  # a program git runs when it reads the index (`diff-tree` does)
    "core.hooksPath=/dev/null",  # no command used here runs a hook; should one ever, none exists
    "core.pager=cat",  # also --no-pager and a pipe for stdout: no pager ever starts
    "log.showSignature=false",  # else `log` verifies signed commits by running gpg.program
    "gpg.program=false",  # and should a signature still be verified, `false` checks nothing
    "gpg.openpgp.program=false",
    "gpg.x509.program=false",
    "gpg.ssh.program=false",
    "diff.external=",  # also --no-ext-diff: no external diff program, whatever diff.<driver>.command says
    "log.mailmap=false",  # `log` would read mailmap.file (a FIFO there would block it)
    "gc.auto=0",  # no automatic housekeeping in any child git
    "maintenance.auto=false",
    "protocol.allow=never",  # no transport (a repository's protocol.<name>.allow wins over this line:
)  # GIT_ALLOW_PROTOCOL below is what closes it)
# Per command: options that turn off what attributes could name (textconv, external diff) and signatures.
_COMMAND_OPTIONS = {
    "log": ("--no-ext-diff", "--no-textconv", "--no-show-signature", "--no-mailmap"),
    "diff-tree": ("--no-ext-diff", "--no-textconv"),
}
_ENVIRONMENT = {
    # No transport at all, overriding every protocol.*.allow: a partial clone would otherwise fetch a
    # missing blob from its remote, running remote.*.uploadpack, core.sshCommand or a remote helper.
    "GIT_ALLOW_PROTOCOL": "",
    "GIT_TERMINAL_PROMPT": "0",  # never wait for a password
    "GIT_OPTIONAL_LOCKS": "0",  # reading writes nothing into the repository (no index refresh)
    "GIT_PAGER": "cat",
    "GIT_LITERAL_PATHSPECS": "1",  # a folder named `:(exclude)x` or `a*` is that folder, not magic or a pattern
}
# Set by git for its hooks: they would point every command at another repository than `-C` names.
_REPOSITORY_VARIABLES = (
    "GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_IMPLICIT_WORK_TREE", "GIT_GRAFT_FILE", "GIT_SHALLOW_FILE", "GIT_PREFIX",
    "GIT_NAMESPACE",
)  # fmt: skip


class ChurnError(ValueError):
    """The repository or revision range cannot be read as asked; the message says how to fix it."""


class ChurnWarning(ClankaWarning, UserWarning):
    """Part of a history was left out of the counts (the message says which and why)."""


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


def git_command(repo: Path, *args: str, config: Sequence[str] = ()) -> tuple[list[str], dict[str, str]]:
    """The command line and environment of `git -C repo ARGS`, confined (see CONFINED): the only place
    the package builds a git command. `config` adds `-c` settings of the caller's own (before CONFINED,
    so they cannot undo it)."""
    if shutil.which("git") is None:
        msg = "the git command is not installed; install git (e.g. apt-get install git) to read a history"
        raise ChurnError(msg)
    settings = [item for setting in (*config, *CONFINED) for item in ("-c", setting)]
    options = _COMMAND_OPTIONS.get(args[0], ()) if args else ()
    argv = ["git", "--no-pager", *settings, "-C", str(repo), *args[:1], *options, *args[1:]]
    env = {name: value for name, value in os.environ.items() if name not in _REPOSITORY_VARIABLES}
    return argv, {**env, **_ENVIRONMENT}


def run_git(repo: Path, *args: str, check: bool = True, config: Sequence[str] = ()) -> subprocess.CompletedProcess[str]:
    """Run a confined git command (stdin closed, bounded by a timeout); its output as text, byte for byte."""
    argv, env = git_command(repo, *args, config=config)
    try:
        raw = subprocess.run(argv, capture_output=True, timeout=_TIMEOUT, stdin=subprocess.DEVNULL, check=False,
                             env=env)  # fmt: skip
    except subprocess.TimeoutExpired:
        msg = (
            f"git {' '.join(args[:1])} did not finish within {_TIMEOUT} s in {str(repo)!r} (a config file that "
            "includes a FIFO or a device blocks git); check the repository with `git fsck` and its .git/config"
        )
        raise ChurnError(msg) from None
    # Decoded here, not with text=True: that turns every \r into \n, in names and subjects too.
    # surrogateescape keeps names that are not UTF-8 as the bytes they are (as os.fsdecode does).
    run = subprocess.CompletedProcess(
        raw.args, raw.returncode, raw.stdout.decode("utf-8", "surrogateescape"),
        raw.stderr.decode("utf-8", "replace"),
    )  # fmt: skip
    if check and run.returncode != 0:
        msg = f"git {' '.join(args)} failed in {repo}: {run.stderr.strip() or run.returncode}"
        raise ChurnError(msg)
    return run


@contextlib.contextmanager
def git_records(repo: Path, *args: str, separator: bytes = b"\n", cap: int = _COPY) -> Iterator[Iterator[str]]:
    """A confined git command's output, streamed: its records (ended by `separator`) one at a time, each cut to
    its first `cap` bytes (the rest is read and dropped, never held). Git's failure, or its running past the
    timeout, is a ChurnError once the records are read (or the block is left)."""
    argv, env = git_command(repo, *args)
    with tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr, env=env)
        timer = threading.Timer(_TIMEOUT, process.kill)
        timer.start()
        assert process.stdout is not None
        try:
            yield _records(process.stdout, separator, cap)
        finally:
            timed_out = not timer.is_alive()
            timer.cancel()
            process.stdout.close()  # a reader who stopped early ends git (it gets a broken pipe)
            status = process.wait()
        if timed_out:
            msg = (
                f"git {args[0]} did not finish within {_TIMEOUT} s in {str(repo)!r} (a FIFO or a device among "
                "its objects or config blocks git); check the repository with `git fsck` and its .git/config"
            )
            raise ChurnError(msg)
        if status != 0:
            stderr.seek(0)
            said = " ".join(stderr.read()[-400:].decode(errors="replace").split()) or f"exit status {status}"
            msg = f"git {args[0]} failed in {str(repo)!r}: {said}; the repository may be damaged: check it with "
            msg += "`git fsck`"
            raise ChurnError(msg)


def _records(stream: IO[bytes], separator: bytes, cap: int) -> Iterator[str]:
    pending = b""  # the start of a record not yet ended (at most `cap` bytes)
    cut = False  # the pending record is longer than `cap`: what follows until its end is dropped
    while piece := stream.read(_COPY):
        start = 0
        while (end := piece.find(separator, start)) >= 0:
            if not cut:
                pending += piece[start : end][: cap - len(pending)]
            yield pending.decode("utf-8", "surrogateescape")
            pending, cut, start = b"", False, end + len(separator)
        if not cut:
            pending += piece[start:][: cap - len(pending)]
            cut = len(pending) >= cap
    if pending:
        yield pending.decode("utf-8", "surrogateescape")


def git(repo: Path, *args: str, check: bool = True) -> str:
    """The standard output of a confined git command."""
    return run_git(repo, *args, check=check).stdout


def _one_path(output: str) -> str:
    """A path git printed on a line of its own: only the final newline is git's (a name may hold others)."""
    return output.removesuffix("\n")


def repository(path: str | os.PathLike[str]) -> tuple[Path, str]:
    """The top folder of the git work tree holding `path` (or the git dir of a bare repository), and where
    `path` lies in it: "" at the top, else a prefix such as "packages/app/" (always with `/`)."""
    if not isinstance(path, (str, os.PathLike)):
        msg = (
            f"the repository must be a folder (a str or Path), got {type(path).__name__}; pass the folder of a git "
            "clone, e.g. churn('path/to/clone') or a chunk frame's attrs['root']"
        )
        raise TypeError(msg)
    folder = Path(path).expanduser()
    if not folder.is_dir():
        msg = f"{str(folder)!r} is not a folder; pass the folder of a git clone"
        raise ChurnError(msg)
    inside = run_git(folder, "rev-parse", "--is-inside-work-tree", "--is-bare-repository", check=False)
    if inside.returncode != 0:
        raise ChurnError(_not_a_repository(folder, inside.stderr))
    work_tree, bare = inside.stdout.split()[:2]
    if bare == "true":
        return folder.resolve(), ""
    if work_tree != "true":
        msg = (
            f"{str(folder)!r} is inside a repository's .git folder, not its files; pass the clone's folder "
            "(the one that holds .git)"
        )
        raise ChurnError(msg)
    # One value per command: a path may hold a newline, so two paths in one output cannot be told apart.
    top = _one_path(git(folder, "rev-parse", "--show-toplevel"))
    prefix = _one_path(git(folder, "rev-parse", "--show-prefix"))
    return Path(top), prefix


def _not_a_repository(folder: Path, stderr: str) -> str:
    if "safe.directory" not in stderr:
        return f"{str(folder)!r} is not a git repository; pass the folder of a git clone (git clone URL DIR)"
    # git (2.35.2 on) refuses a repository another user owns: its config could run programs as you.
    named = re.search(r"safe\.directory (.+)$", stderr.strip(), flags=re.MULTILINE)
    top = named.group(1).strip() if named else str(folder)
    return (
        f"git refuses to read {str(folder)!r}: the repository belongs to another user (git's safe.directory "
        f"check: its config could run programs as you). If you trust it, run `git config --global --add "
        f"safe.directory {shlex.quote(top)}`, or run this as the user who owns it"
    )


def first_parent_commits(repo: Path, revs: str) -> tuple[str, list[Commit]]:
    """The commits of `revs` along first parents, oldest first, and the baseline just before them.

    `revs` is a range `A..B`, or one revision `R`, which means `R~1..R`. The baseline of a range that
    starts at the repository's first commit is the empty tree.
    """
    spec = within_history(repo, _revision_range(revs))
    listed = run_git(repo, "log", "-z", "--first-parent", "--reverse", "--format=%H %cI %s", "--end-of-options",
                     spec, "--", check=False)  # fmt: skip
    if listed.returncode != 0:
        if not git(repo, "rev-parse", "--verify", "--quiet", "HEAD", check=False).strip():
            # No commit at all: no range can work; say so rather than suggest one (issue 46, item 5).
            msg = f"{str(repo)!r} has no commit yet (a fresh `git init`), so it has no history to read; commit first"
            raise ChurnError(msg)
        problem = listed.stderr.strip().splitlines()[0] if listed.stderr.strip() else "unknown revision"
        msg = f"cannot read the revisions {revs!r} in {repo}: {problem}; pass a range of this repository"
        msg += ", e.g. 'HEAD~20..HEAD'"
        if git(repo, "rev-parse", "--is-shallow-repository", check=False).strip() == "true":
            msg += " (this clone is shallow: older commits are missing; run `git fetch --unshallow`)"
        raise ChurnError(msg)
    # One record per commit, each ended by NUL (-z); fields split at the first two spaces (a hash and an
    # ISO date hold none). Never splitlines(): a subject may hold U+2028, \x1c or \r, which it splits at.
    commits = [Commit(*record.split(" ", 2)) for record in listed.stdout.split("\x00") if record]
    if not commits:
        msg = f"{revs!r} holds no commits (along first parents); the older revision comes first: 'OLD..NEW'"
        raise ChurnError(msg)
    return _baseline(repo, commits[0].hash), commits


def resolves(repo: Path, rev: str) -> bool:
    """True when `rev` names a commit of `repo`."""
    return bool(git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}",
                    check=False).strip())  # fmt: skip


def within_history(repo: Path, spec: str) -> str:
    """A range `B~N..B` reaching back before the first commit as just `B`: all of B's history (so the default
    HEAD~50..HEAD walks a history of 5 commits whole); any other range as it is."""
    start, dots, end = spec.partition("..")
    if not dots:
        return spec
    end = end.lstrip(".")  # A...B too
    older = re.fullmatch(r"(.+?)~(\d+)", start)
    if older and not resolves(repo, start) and resolves(repo, older.group(1)):
        return end or "HEAD"
    return spec


def _revision_range(revs: object) -> str:
    """`revs` as the one range argument git gets; refused when git could read any part of it as an option."""
    if not isinstance(revs, str) or not revs.strip():
        msg = f"revs must be a revision range such as 'HEAD~50..HEAD', got {revs!r}"
        raise ChurnError(msg)
    revs = revs.strip()
    if "\0" in revs or "\n" in revs:
        msg = f"revs={revs!r} holds a NUL or a line break; pass one revision range such as 'HEAD~50..HEAD'"
        raise ChurnError(msg)
    if any(side.lstrip().startswith("-") for side in re.split(r"\.\.\.?", revs)):
        msg = (
            f"revs={revs!r} is not a revision range: a revision never starts with '-' (git would read it as an "
            "option such as --output= or -n). Pass commits such as 'HEAD~50..HEAD' or 'v1.0..main'; to pick "
            "commits by date or count, find the first one with `git rev-list -1 --before=DATE HEAD` and pass "
            "'THAT..HEAD'"
        )
        raise ChurnError(msg)
    # `--end-of-options` (added by the caller) makes git read the argument as a revision in any case.
    return revs if ".." in revs else f"{revs}~1..{revs}"


def check_tracked(repo: Path, prefix: str, baseline: str, commits: list[Commit]) -> None:
    """Refuse a subfolder that holds no tracked file at the baseline nor in any commit of the range."""
    if not prefix:
        return
    span = commits[-1].hash if baseline == EMPTY_TREE else f"{baseline}..{commits[-1].hash}"
    if git(repo, "log", "-n", "1", "--format=%H", "--end-of-options", span, "--", prefix).strip():
        return
    if baseline != EMPTY_TREE and git(repo, "ls-tree", "--end-of-options", baseline, "--", prefix).strip():
        return
    msg = (
        f"{prefix.rstrip('/')!r} holds no file git tracks in {repo} over these revisions (untracked or ignored?); "
        f"pass a folder `git ls-files` lists, or the clone's top {str(repo)!r}"
    )
    raise ChurnError(msg)


def _baseline(repo: Path, oldest: str) -> str:
    parents = git(repo, "rev-list", "--parents", "-n", "1", "--end-of-options", oldest).split()[1:]
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
    shallow = Path(_one_path(git(repo, "rev-parse", "--git-path", "shallow")))
    shallow = shallow if shallow.is_absolute() else repo / shallow
    return shallow.is_file() and commit in shallow.read_text().split()


def tree_files(repo: Path, commit: str) -> list[Change]:
    """Every file of a commit's tree (submodules and symbolic links included, with their modes)."""
    if commit == EMPTY_TREE:
        return []
    out = git(repo, "ls-tree", "-r", "-z", "--full-tree", "--end-of-options", commit)
    files = []
    for record in filter(None, out.split("\x00")):
        meta, path = record.split("\t", 1)
        mode, _, blob = meta.split(" ")
        files.append(Change(path, blob, mode))
    return files


def changes(repo: Path, before: str, after: str) -> list[Change]:
    """The paths `after` changed against `before`: renames as a deletion and an addition."""
    out = git(repo, "diff-tree", "-r", "-z", "--no-renames", "--no-commit-id", "--end-of-options", before, after)
    fields = out.split("\x00")
    found = []
    for i in range(0, len(fields) - 1, 2):
        meta, path = fields[i], fields[i + 1]
        if not meta.startswith(":"):
            continue
        _, new_mode, _, new_blob, status = meta[1:].split(" ")
        found.append(Change(path, None, None) if status == "D" else Change(path, new_blob, new_mode))
    return found


_PARTIAL = (
    "this is a partial clone (git clone --filter) whose blobs are fetched on demand, and churn fetches nothing "
    "(no transport may run): clone it again without --filter"
)
_DAMAGED = "the repository is damaged or an object was removed from it: check it with `git fsck`"


def is_partial_clone(repo: Path) -> bool:
    """Whether the clone has a promisor remote (`git clone --filter`): only then is a missing blob one git would
    fetch on demand; elsewhere it is damage. Read with the confined git runner, which never runs a transport."""
    promisors = git(repo, "config", "--get-regexp", r"^remote\..*\.promisor$", check=False).split()
    partial = git(repo, "config", "--get", "extensions.partialClone", check=False).strip()
    return bool(partial) or "true" in (value.lower() for value in promisors[1::2])


class CatFile:
    """One `git cat-file --batch` (or `--batch-check`) process, kept running; every answer is checked.

    A header whose line is cut, fewer bytes than the header announced, or no newline after them is an
    error naming what was missing and git's exit status: never a shorter file. An answer that does not
    come within the timeout (an object file that is a FIFO blocks git) ends the process: an error too.
    """

    def __init__(self, argv: list[str], env: dict[str, str] | None = None, *, missing: str = _DAMAGED) -> None:
        self._missing = missing  # what a missing object means in this clone (a partial clone's, or damage)
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close()) a file, not a pipe: git can never block on writing to it
        self._process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
                                         env=env)  # fmt: skip
        self._deadline: float | None = None  # when the answer being waited for is late (monotonic seconds)
        self._timed_out = False
        self._closing = threading.Event()
        self._watch = threading.Thread(target=self._watchdog, name="clanka-nb cat-file watchdog", daemon=True)
        self._watch.start()

    def _watchdog(self) -> None:
        """Kill git when an answer is late: a blocked read then ends (EOF) instead of waiting forever."""
        while not self._closing.wait(0.25):
            deadline = self._deadline
            if deadline is not None and time.monotonic() > deadline and self._process.poll() is None:
                self._timed_out = True
                self._process.kill()
                return

    def _wait_for_git(self) -> None:
        self._deadline = time.monotonic() + _TIMEOUT

    def header(self, oid: str) -> tuple[str, int]:
        """The type and size of an object, from the header git answers for `oid`."""
        stdin, stdout = self._process.stdin, self._process.stdout
        assert stdin is not None and stdout is not None
        self._wait_for_git()
        try:
            stdin.write(oid.encode() + b"\n")
            stdin.flush()
        except BrokenPipeError:
            raise ChurnError(self._ended(f"before answering for the object {oid}")) from None
        line = stdout.readline()
        if not line.endswith(b"\n"):
            cut = f" ({line!r})" if line else ""
            raise ChurnError(self._ended(f"in the middle of the header for {oid}{cut}"))
        fields = line.split()
        if len(fields) == 2 and fields[1] == b"missing":
            raise ChurnError(f"git has no object {oid} in this clone: {self._missing}")
        if len(fields) != 3 or not fields[2].isdigit():
            msg = f"git could not read the object {oid}: {line.decode(errors='replace').strip()!r}"
            raise ChurnError(msg)
        self._deadline = None
        return fields[1].decode(), int(fields[2])

    def copy(self, oid: str, size: int, target: BinaryIO, keep: int | None = None) -> None:
        """The `size` bytes that follow a header, written to `target` piece by piece (a large blob is never
        held whole), and the newline after them. With `keep`, bytes past the first `keep` are read and dropped."""
        stdout = self._process.stdout
        assert stdout is not None
        left = size
        room = size if keep is None else keep
        while left:
            self._wait_for_git()  # each piece gets the whole timeout: a large blob may take long in all
            piece = stdout.read(min(left, _COPY))
            if not piece:
                break
            if room > 0:
                target.write(piece[:room])
                room -= len(piece)
            left -= len(piece)
        self._check_end(oid, size, size - left)

    def _check_end(self, oid: str, size: int, got: int) -> None:
        stdout = self._process.stdout
        assert stdout is not None
        if got < size:
            raise ChurnError(self._ended(f"after {got:,} of the {size:,} bytes of {oid}"))
        self._wait_for_git()
        end = stdout.read(1)
        if end != b"\n":
            raise ChurnError(self._ended(f"after the {size:,} bytes of {oid}, without the newline that ends them"))
        self._deadline = None

    def _ended(self, where: str) -> str:
        """What went wrong when git's answer stopped short: its exit status and the end of what it said."""
        try:
            status: int | None = self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            status = None  # still running yet its answer stopped: said as such
        self._stderr.seek(0)
        said = " ".join(self._stderr.read()[-400:].decode(errors="replace").split())  # one line
        if self._timed_out:
            return (
                f"git cat-file gave no answer within {_TIMEOUT} s, {where} (an object file that is a FIFO or a "
                "device blocks it, or the disk stalls); check the repository with `git fsck`"
            )
        ended = "is still running" if status is None else f"exit status {status}"
        detail = f": {said}" if said else ""
        if "promisor" in said or "not allowed" in said:  # git tried to fetch a missing object, and could not
            return f"git cat-file stopped {where} ({ended}{detail}): {self._missing}"
        return (
            f"git cat-file stopped {where} ({ended}{detail}); the repository may be damaged or git was killed: "
            "check it with `git fsck` and run again"
        )

    def close(self) -> None:
        self._closing.set()
        self._watch.join()
        if self._process.stdin is not None:
            with contextlib.suppress(BrokenPipeError):  # git has ended already: nothing to flush to
                self._process.stdin.close()
        try:
            self._process.wait(timeout=_TIMEOUT)
        finally:
            if self._process.stdout is not None:
                self._process.stdout.close()  # else the pipe is left to the garbage collector: a ResourceWarning
            self._stderr.close()

    def kill(self) -> None:
        self._process.kill()


class BlobReader:
    """Blobs by id from two `git cat-file` processes kept running: sizes from `--batch-check` first, so a
    blob is only read when it is wanted, then its content from `--batch`."""

    def __init__(self, repo: Path) -> None:
        missing = _PARTIAL if is_partial_clone(repo) else _DAMAGED
        self._sizes = CatFile(*git_command(repo, "cat-file", "--batch-check"), missing=missing)
        self._contents = CatFile(*git_command(repo, "cat-file", "--batch"), missing=missing)

    def size(self, blob: str, path: str = "") -> int:
        """The size in bytes of a blob (read from its header only)."""
        kind, size = self._sizes.header(blob)
        if kind != "blob":
            where = f" at {path!r}" if path else ""
            msg = f"the object {blob}{where} is a {kind}, not a file's blob: the repository is damaged (`git fsck`)"
            raise ChurnError(msg)
        return size

    def write(self, blob: str, target: BinaryIO, keep: int | None = None) -> None:
        """Copy a blob's bytes into an open file, a piece at a time (only the first `keep`, when given)."""
        _, size = self._contents.header(blob)
        self._contents.copy(blob, size, target, keep)

    def close(self) -> None:
        try:
            self._sizes.close()
        finally:
            self._contents.close()

    def __enter__(self) -> BlobReader:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        if error is not None:
            self._sizes.kill()
            self._contents.kill()
        self.close()
