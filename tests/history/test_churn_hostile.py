"""Churn over hostile repositories, with real git: their config runs nothing, `revs` never becomes an option,
git's answers are checked, big blobs are never read, and a killed run leaves no mirror behind."""

from __future__ import annotations

import io
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from clanka_nb import engine
from clanka_nb.engine.embedding import embedding_text, input_hash
from clanka_nb.history import ChurnError, ChurnWarning, churn, churn_files
from clanka_nb.history._git import CatFile

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs the git command")
IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@example.org"}  # fmt: skip


def run_git(repo: Path, *args: str, data: bytes | None = None) -> str:
    """Plain git, as an attacker or a user would run it (none of the package's confinement)."""
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, input=data,
                          env={**os.environ, **IDENTITY}).stdout.decode()  # fmt: skip


def plain_repo(root: Path, commits: int = 4) -> Path:
    root.mkdir(parents=True)
    run_git(root, "init", "-q", "-b", "main")
    for i in range(commits):
        (root / "a.ts").write_text(f"export const a = {i};\n")
        run_git(root, "add", "-A")
        run_git(root, "commit", "-q", "-m", f"c{i}")
    return root


def script(path: Path, body: str) -> Path:
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return path


def test_core_fsmonitor_of_the_repository_runs_nothing(tmp_path: Path) -> None:
    repo = plain_repo(tmp_path / "repo")
    mark = tmp_path / "MARK"
    run_git(repo, "config", "core.fsmonitor", f"id > {mark} #")
    run_git(repo, "diff-tree", "-r", "HEAD~1", "HEAD")  # the attack works on plain git
    assert mark.exists()
    mark.unlink()
    frame = churn(repo, revs="HEAD~2..HEAD", progress=False)
    assert len(frame) == 2 and not mark.exists()


def test_a_signed_commit_with_log_show_signature_runs_no_gpg_program(tmp_path: Path) -> None:
    repo = plain_repo(tmp_path / "repo", commits=3)
    mark = tmp_path / "MARK"
    evil = script(tmp_path / "evil.sh", f"id > {mark}")
    tree, parent = run_git(repo, "rev-parse", "HEAD^{tree}", "HEAD").split()
    signed = (
        f"tree {tree}\nparent {parent}\nauthor t <t@x> 1700000000 +0000\ncommitter t <t@x> 1700000000 +0000\n"
        "gpgsig -----BEGIN PGP SIGNATURE-----\n \n -----END PGP SIGNATURE-----\n\nsigned\n"
    )
    commit = run_git(repo, "hash-object", "-t", "commit", "-w", "--stdin", data=signed.encode()).strip()
    run_git(repo, "update-ref", "refs/heads/main", commit)
    run_git(repo, "config", "log.showSignature", "true")
    for name in ("gpg.program", "gpg.openpgp.program", "gpg.ssh.program", "gpg.x509.program"):
        run_git(repo, "config", name, str(evil))
    run_git(repo, "log", "-3")  # the attack works on plain git
    assert mark.exists()
    mark.unlink()
    frame = churn(repo, revs="HEAD~2..HEAD", progress=False)
    assert frame["subject"].tolist() == ["c2", "signed"] and not mark.exists()


def test_a_partial_clone_fetches_nothing_and_runs_no_transport(tmp_path: Path) -> None:
    """A missing blob would be fetched from the promisor remote: its uploadpack or remote helper would run."""
    source = plain_repo(tmp_path / "source", commits=2)
    run_git(source, "config", "uploadpack.allowFilter", "true")
    partial = tmp_path / "partial"
    subprocess.run(["git", "clone", "-q", "--filter=blob:none", "--no-checkout", f"file://{source}", str(partial)],
                   check=True, capture_output=True)  # fmt: skip
    mark = tmp_path / "MARK"
    run_git(partial, "config", "remote.origin.url", str(source))
    run_git(partial, "config", "remote.origin.uploadpack", f"sh -c 'id > {mark}; exit 1' #")
    run_git(partial, "config", "protocol.file.allow", "always")
    run_git(partial, "config", "protocol.allow", "always")
    blob = run_git(partial, "rev-parse", "HEAD:a.ts").strip()
    subprocess.run(["git", "-C", str(partial), "cat-file", "-s", blob], capture_output=True, check=False)
    assert mark.exists()  # the attack works on plain git
    mark.unlink()
    missing = r"not allowed.*: this is a partial clone .*churn fetches nothing .*clone it again without --filter"
    with pytest.raises(ChurnError, match=missing):
        churn(partial, revs="HEAD~1..HEAD", progress=False)
    assert not mark.exists()
    run_git(partial, "config", "remote.origin.url", f"ext::sh -c touch% {mark}")
    run_git(partial, "config", "protocol.ext.allow", "always")
    with pytest.raises(ChurnError, match="partial clone"):
        churn(partial, revs="HEAD~1..HEAD", progress=False)
    assert not mark.exists()


def test_git_dir_in_the_environment_does_not_redirect_the_commands(tmp_path: Path, monkeypatch) -> None:
    """Inside a git hook GIT_DIR names the hook's repository: `-C` must still mean the one asked for."""
    repo = plain_repo(tmp_path / "repo", commits=3)
    other = plain_repo(tmp_path / "other", commits=2)
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    frame = churn(repo, revs="HEAD~2..HEAD", progress=False)
    assert frame["subject"].tolist() == ["c1", "c2"]


@pytest.mark.parametrize("revs", ["--output={target}", "-n1", "--since=2020-01-01", "HEAD~1..--output={target}",
                                  " --all"])  # fmt: skip
def test_revs_never_becomes_an_option(tmp_path: Path, revs: str) -> None:
    repo = plain_repo(tmp_path / "repo")
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    with pytest.raises(ChurnError, match=r"a revision never starts with '-' .* 'HEAD~50\.\.HEAD'"):
        churn(repo, revs=revs.format(target=target), progress=False)
    assert target.read_text() == "keep me\n"


def test_a_revision_spelled_like_a_ref_still_works(tmp_path: Path) -> None:
    repo = plain_repo(tmp_path / "repo")
    run_git(repo, "tag", "v-1", "HEAD~2")  # a dash inside a name is fine
    assert len(churn(repo, revs="v-1..HEAD", progress=False)) == 2
    assert len(churn(repo, revs="HEAD", progress=False)) == 1


def fake_cat_file(tmp_path: Path, answer: bytes, status: int) -> CatFile:
    """A real process on real pipes that answers one request as given, then exits with `status`."""
    program = tmp_path / "answer.py"
    program.write_text(
        "import sys\nsys.stdin.readline()\n"
        f"sys.stdout.buffer.write({answer!r})\nsys.stdout.flush()\nsys.stderr.write('disk on fire')\n"
        f"sys.exit({status})\n"
    )
    return CatFile([sys.executable, str(program)])


OID = "0123456789abcdef0123456789abcdef01234567"


def test_a_truncated_blob_is_an_error_not_a_short_file(tmp_path: Path) -> None:
    reader = fake_cat_file(tmp_path, f"{OID} blob 37\n".encode() + b"x" * 10, 3)
    kind, size = reader.header(OID)
    assert (kind, size) == ("blob", 37)
    with pytest.raises(ChurnError, match=r"after 10 of the 37 bytes .* \(exit status 3: disk on fire\)"):
        reader.copy(OID, size, io.BytesIO())
    reader.close()


def test_a_blob_without_its_closing_newline_or_with_a_cut_header_is_an_error(tmp_path: Path) -> None:
    reader = fake_cat_file(tmp_path, f"{OID} blob 3\n".encode() + b"abc", 0)
    with pytest.raises(ChurnError, match="without the newline that ends them"):
        reader.copy(OID, reader.header(OID)[1], io.BytesIO())
    reader.close()
    reader = fake_cat_file(tmp_path, f"{OID} blo".encode(), 1)
    with pytest.raises(ChurnError, match=r"in the middle of the header .*exit status 1: disk on fire"):
        reader.header(OID)
    reader.close()
    reader = fake_cat_file(tmp_path, f"{OID} blob 3\n".encode() + b"abc\n", 0)  # a whole answer is read
    out = io.BytesIO()
    reader.copy(OID, reader.header(OID)[1], out)
    assert out.getvalue() == b"abc"
    reader.close()


def big_blob_repo(root: Path, size: int) -> Path:
    """A first commit with one small file, then a commit adding a `size`-byte blob of zeros and a small file
    (fast-import streams the blob: nothing here holds it whole)."""
    root.mkdir()
    run_git(root, "init", "-q", "-b", "main")
    process = subprocess.Popen(["git", "-C", str(root), "fast-import", "--quiet"], stdin=subprocess.PIPE)
    assert process.stdin is not None
    small = b"export const a = 1;\n"
    process.stdin.write(b"commit refs/heads/main\ncommitter t <t@x> 1700000000 +0000\ndata 5\nfirst\n"
                        b"M 100644 inline a.ts\ndata %d\n%s\n" % (len(small), small))  # fmt: skip
    process.stdin.write(b"commit refs/heads/main\ncommitter t <t@x> 1700000060 +0000\ndata 3\nbig\n"
                        b"M 100644 inline b.ts\ndata %d\n%s\nM 100644 inline huge.ts\ndata %d\n"
                        % (len(small), small.replace(b"a", b"b"), size))  # fmt: skip
    zeros = bytes(1 << 20)
    for _ in range(size >> 20):
        process.stdin.write(zeros)
    process.stdin.write(b"\n")
    process.stdin.close()
    assert process.wait() == 0
    run_git(root, "reset", "-q", "--hard")
    return root


def peak_rss_of_churn(repo: Path, temp: Path) -> int:
    """Peak resident memory (bytes) of a fresh process running churn over the repository's last commit,
    git's processes included (wait4 reports the largest of the child and its waited children)."""
    code = (
        "import sys\nfrom clanka_nb.history import churn\n"
        "frame = churn(sys.argv[1], revs='HEAD', cache=False, progress=False)\n"
        "print(frame['embedded'].tolist())\n"
    )
    env = {**os.environ, "TMPDIR": str(temp)}
    process = subprocess.Popen([sys.executable, "-c", code, str(repo)], stdout=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    assert process.stdout is not None
    out = process.stdout.read().decode()
    process.stdout.close()
    process.returncode = os.waitstatus_to_exitcode(status)
    assert process.returncode == 0 and out.strip() == "[1]", out  # b.ts counts; huge.ts is above 1M
    return usage.ru_maxrss * 1024


@pytest.mark.skipif(not hasattr(os, "wait4"), reason="needs os.wait4 for a child's peak memory")
def test_a_blob_above_max_file_size_is_never_read(tmp_path: Path) -> None:
    small = big_blob_repo(tmp_path / "small", 2 << 20)
    big = big_blob_repo(tmp_path / "big", 192 << 20)
    temp = tmp_path / "temp"
    temp.mkdir()
    baseline = peak_rss_of_churn(small, temp)
    peak = peak_rss_of_churn(big, temp)
    assert peak - baseline < 64 << 20, (peak, baseline)  # reading the blob would add 192 MiB, or twice that
    assert list(temp.iterdir()) == []  # and the mirror is gone


def test_a_huge_ignore_file_takes_no_disk_in_the_mirror_and_churn_ends(tmp_path: Path) -> None:
    # A 64 MiB .gitignore of zeros is 64 KB in git: it was written whole into the mirror (2 GiB took 2 GiB
    # of the temporary folder) and read and compiled for minutes. Now: its first MiB, the rest sparse.
    repo = tmp_path / "repo"
    repo.mkdir()
    run_git(repo, "init", "-q", "-b", "main")
    size = 64 << 20
    process = subprocess.Popen(["git", "-C", str(repo), "fast-import", "--quiet"], stdin=subprocess.PIPE)
    assert process.stdin is not None
    process.stdin.write(b"commit refs/heads/main\ncommitter t <t@x> 1700000000 +0000\ndata 5\nfirst\n"
                        b"M 100644 inline a.ts\ndata 20\nexport const a = 1;\n\n"
                        b"M 100644 inline skip.ts\ndata 20\nexport const s = 1;\n\n"
                        b"M 100644 inline .gitignore\ndata %d\nskip.ts\n" % size)  # fmt: skip
    zeros = bytes(1 << 20)
    process.stdin.write(zeros[: (1 << 20) - 8])
    for _ in range((size >> 20) - 1):
        process.stdin.write(zeros)
    process.stdin.write(b"\n")
    process.stdin.close()
    assert process.wait() == 0
    from clanka_nb.history._git import BlobReader, tree_files
    from clanka_nb.history._mirror import Mirror

    with BlobReader(repo) as blobs:
        mirror = Mirror(tmp_path / "mirror", blobs, "1M")
        with pytest.warns(UserWarning, match="ignore file"):
            mirror.apply(tree_files(repo, run_git(repo, "rev-parse", "HEAD").strip()))
            listed = mirror.every_listed()
    written = (tmp_path / "mirror" / ".gitignore").stat()
    assert written.st_size == size and written.st_blocks * 512 < 4 << 20  # its size as in git; 1 MiB on disk
    assert listed == {"a.ts"}  # the rule before the cap still applies


def test_a_run_killed_with_sigkill_leaves_no_mirror_after_the_next_run(tmp_path: Path) -> None:
    repo = plain_repo(tmp_path / "repo", commits=3)
    temp = tmp_path / "temp"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp)}
    code = (
        "import sys, time\nfrom clanka_nb.history._churn import _walk\n"
        "from clanka_nb.engine.settings import Grid, Settings\n"
        "steps = _walk(sys.argv[1], 'HEAD~2..HEAD', Grid(30, 0, 10_000), Settings(), None, False, False)\n"
        "next(steps)\nprint('walking', flush=True)\ntime.sleep(120)\n"
    )
    walking = subprocess.Popen([sys.executable, "-c", code, str(repo)], stdout=subprocess.PIPE, env=env)
    again = [sys.executable, "-c", "import sys; from clanka_nb.history import churn; "
             "churn(sys.argv[1], revs='HEAD', progress=False)", str(repo)]  # fmt: skip
    try:
        assert walking.stdout is not None and walking.stdout.readline() == b"walking\n"
        left = [p.name for p in temp.iterdir()]
        assert len(left) == 1 and left[0].startswith("clanka-nb-churn-")
        lock = temp / left[0] / "lock"
        os.utime(lock, (lock.stat().st_atime - 3600, lock.stat().st_mtime - 3600))  # an old run's
        subprocess.run(again, env=env, check=True)
        assert [p.name for p in temp.iterdir()] == left  # a live run's mirror is kept: its lock is held
    finally:
        walking.send_signal(signal.SIGKILL)
        walking.wait()
        walking.stdout.close()  # type: ignore[union-attr]
    assert [p.name for p in temp.iterdir()] == left  # kill -9: nothing could remove it
    subprocess.run(again, env=env, check=True)
    assert list(temp.iterdir()) == []


def test_a_repository_of_another_user_names_safe_directory(tmp_path: Path, monkeypatch) -> None:
    repo = plain_repo(tmp_path / "repo", commits=2)
    if os.geteuid() == 0:
        for path in [repo, *repo.rglob("*")]:
            os.lchown(path, 65534, 65534)  # nobody
    else:
        monkeypatch.setenv("GIT_TEST_ASSUME_DIFFERENT_OWNER", "1")  # git's own switch for this check
    with pytest.raises(ChurnError, match=r"belongs to another user \(git's safe\.directory check.*"
                                         r"git config --global --add safe\.directory"):  # fmt: skip
        churn(repo, revs="HEAD~1..HEAD", progress=False)


def test_a_path_with_a_line_break_is_read_whole(tmp_path: Path) -> None:
    repo = plain_repo(tmp_path / "two\nlines" / "repo", commits=2)
    (repo / "pkg\nx").mkdir()
    (repo / "pkg\nx" / "b.ts").write_text("export const b = 1;\n")
    run_git(repo, "add", "-A")
    run_git(repo, "commit", "-q", "-m", "pkg")
    assert churn(repo, revs="HEAD~2..HEAD", progress=False)["embedded"].tolist() == [1, 1]
    inside = churn(repo / "pkg\nx", revs="HEAD~2..HEAD", progress=False)
    assert inside["embedded"].tolist() == [0, 1]


def inputs_of(folder: Path) -> int:
    chunks = engine.chunk_codebase(folder, cache=False)
    return len({input_hash(embedding_text(c.path, c.start_line, c.name, c.type, c.parent, c.content))
                for c in chunks})  # fmt: skip


def test_a_tree_holding_a_file_and_a_folder_of_one_name_is_read_as_a_checkout(tmp_path: Path) -> None:
    repo = plain_repo(tmp_path / "repo", commits=1)
    blob = run_git(repo, "hash-object", "-w", "--stdin", data=b"export const y = 1;\n").strip()
    inner = run_git(repo, "mktree", data=f"100644 blob {blob}\ty.ts\n".encode()).strip()
    # git mktree sorts and keeps both: a damaged tree `git fsck` calls duplicateEntries
    a = run_git(repo, "rev-parse", "HEAD:a.ts").strip()
    listing = f"100644 blob {a}\ta.ts\n100644 blob {blob}\tx.ts\n040000 tree {inner}\tx.ts\n"
    tree = run_git(repo, "mktree", data=listing.encode()).strip()
    commit = run_git(repo, "commit-tree", tree, "-p", "HEAD", "-m", "both").strip()
    run_git(repo, "update-ref", "refs/heads/main", commit)
    frame = churn(repo, revs="HEAD~1..HEAD", progress=False)
    checkout = tmp_path / "checkout"  # git's own checkout of it: the folder wins over the file
    subprocess.run(["git", "clone", "-q", str(repo), str(checkout)], check=False, capture_output=True)
    assert (checkout / "x.ts" / "y.ts").is_file()
    assert frame["inputs"].tolist() == [inputs_of(checkout)] == [2]


def test_a_damaged_object_is_an_error_and_the_mirror_is_removed(tmp_path: Path, monkeypatch) -> None:
    repo = plain_repo(tmp_path / "repo", commits=2)
    blob = run_git(repo, "rev-parse", "HEAD:a.ts").strip()
    obj = repo / ".git" / "objects" / blob[:2] / blob[2:]
    obj.chmod(0o644)
    obj.write_bytes(b"not zlib")
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    with pytest.raises(ChurnError, match=r"git .*fsck"):
        churn(repo, revs="HEAD~1..HEAD", progress=False)
    assert list(temp.iterdir()) == []


def test_submodules_are_named_as_not_counted(tmp_path: Path) -> None:
    repo = plain_repo(tmp_path / "repo", commits=2)
    pointer = run_git(repo, "rev-parse", "HEAD").strip()  # any commit id will do for a submodule's entry
    run_git(repo, "update-index", "--add", "--cacheinfo", f"160000,{pointer},vendor/lib")
    (repo / "b.ts").write_text("export const b = 1;\n")
    run_git(repo, "add", "b.ts")
    run_git(repo, "commit", "-q", "-m", "a submodule")
    frame = churn(repo, revs="HEAD~2..HEAD", progress=False)
    assert frame["embedded"].tolist() == [1, 1]
    assert frame.attrs["submodules"] == ["vendor/lib"]
    assert "1 submodule ('vendor/lib') not counted" in frame.attrs["note"]
    plain = churn(repo, revs="HEAD~2..HEAD~1", progress=False)
    assert plain.attrs["submodules"] == [] and "note" not in plain.attrs


def test_a_name_this_file_system_cannot_hold_is_left_out_and_said(tmp_path: Path) -> None:
    repo = plain_repo(tmp_path / "repo", commits=1)
    blob = run_git(repo, "rev-parse", "HEAD:a.ts").strip()
    long = "x" * 300 + ".ts"  # git stores any length; most file systems stop at 255 bytes
    tree = run_git(repo, "mktree", data=f"100644 blob {blob}\ta.ts\n100644 blob {blob}\t{long}\n".encode()).strip()
    commit = run_git(repo, "commit-tree", tree, "-p", "HEAD", "-m", "long").strip()
    run_git(repo, "update-ref", "refs/heads/main", commit)
    (repo / "b.ts").write_text("export const b = 2;\n")
    run_git(repo, "add", "b.ts")
    run_git(repo, "commit", "-q", "-m", "b")
    with pytest.warns(ChurnWarning, match=r"1 path \('x+\.ts'\) left out: this file system cannot hold the name"):
        frame = churn(repo, revs="HEAD~1..HEAD", progress=False)
    assert frame["embedded"].tolist() == [1] and frame.attrs["unwritable"] == [long]
    assert "left out" in frame.attrs["note"]


def test_every_git_command_is_built_in_one_place() -> None:
    """Only `_git.py` spells a git command line; everything else asks `git_command` (or the helpers on it)."""
    import re

    import clanka_nb

    package = Path(clanka_nb.__file__).parent
    spelled = re.compile(r"""\[\s*["']git["']""")
    found = [str(path.relative_to(package)) for path in package.rglob("*.py")
             if path.name != "_git.py" and spelled.search(path.read_text(encoding="utf-8"))]  # fmt: skip
    assert found == []
    source = (package / "history" / "_git.py").read_text(encoding="utf-8")
    assert len(spelled.findall(source)) == 1  # in git_command


def test_subjects_and_names_with_line_separators_are_read_whole(tmp_path: Path) -> None:
    repo = plain_repo(tmp_path / "repo", commits=1)
    (repo / "a.ts").write_text("export const a = 10;\n")
    (repo / "c\rd\u2028e.ts").write_text("export const c = 1;\n")
    run_git(repo, "add", "-A")
    subject = "one\u2028two\x1cthree\rfour\x00"[:-1]  # all but NUL may stand in a subject
    run_git(repo, "commit", "-q", "-am", subject)
    (repo / "a.ts").write_text("export const a = 11;\n")
    run_git(repo, "commit", "-q", "-am", "  spaced  out  ")
    frame = churn(repo, revs="HEAD~2..HEAD", progress=False)
    assert frame["subject"].tolist() == [subject, "  spaced  out"]  # git keeps leading spaces
    files = churn_files(repo, revs="HEAD~2..HEAD", progress=False)
    assert files["path"].tolist() == ["a.ts", "c\rd\u2028e.ts", "a.ts"]


@pytest.mark.parametrize("name", [":(exclude)p", ":!p", "p*"])
def test_a_folder_named_like_a_pattern_is_that_folder(tmp_path: Path, name: str) -> None:
    repo = plain_repo(tmp_path / "repo", commits=1)
    (repo / "pq").mkdir()
    (repo / "pq" / "b.ts").write_text("export const b = 1;\n")
    run_git(repo, "add", "-A")
    run_git(repo, "commit", "-q", "-m", "pq")
    (repo / name).mkdir()
    (repo / name / "c.ts").write_text("export const c = 1;\n")  # never committed
    with pytest.raises(ChurnError, match="holds no file git tracks"):
        churn(repo / name, revs="HEAD~1..HEAD", progress=False)


def test_the_git_folder_itself_names_the_clone_instead(tmp_path: Path) -> None:
    repo = plain_repo(tmp_path / "repo", commits=2)
    for inside in (repo / ".git", repo / ".git" / "objects"):
        with pytest.raises(ChurnError, match=r"inside a repository's \.git folder, not its files; pass the clone"):
            churn(inside, revs="HEAD~1..HEAD", progress=False)
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(repo), str(bare)], check=True, capture_output=True)
    assert len(churn(bare, revs="HEAD~1..HEAD", progress=False)) == 1


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_an_object_file_that_is_a_fifo_is_an_error_within_the_timeout(tmp_path: Path, monkeypatch) -> None:
    """An archive can hold a FIFO where git expects a loose object: git blocks opening it, churn must not."""
    import time

    from clanka_nb.history import _git

    repo = plain_repo(tmp_path / "repo", commits=2)
    blob = run_git(repo, "rev-parse", "HEAD:a.ts").strip()
    obj = repo / ".git" / "objects" / blob[:2] / blob[2:]
    obj.unlink()
    os.mkfifo(obj)
    monkeypatch.setattr(_git, "_TIMEOUT", 3)
    started = time.monotonic()
    with pytest.raises(ChurnError, match=r"git cat-file gave no answer within 3 s, .* FIFO .*`git fsck`"):
        churn(repo, revs="HEAD~1..HEAD", progress=False)
    assert time.monotonic() - started < 30


def _drop_loose(repo: Path, spec: str) -> None:
    """Remove the loose object `spec` names from the repository (a clone that lacks one blob)."""
    blob = run_git(repo, "rev-parse", spec).strip()
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()


def test_a_missing_blob_of_a_file_never_indexed_is_never_read(tmp_path: Path) -> None:
    repo = plain_repo(tmp_path / "repo", commits=1)
    (repo / "data.tar.gz").write_bytes(b"\x1f\x8b not really an archive")
    (repo / "b.ts").write_text("export const b = 1;\n")
    run_git(repo, "add", "-A")
    run_git(repo, "commit", "-q", "-m", "archive")
    run_git(repo, "rm", "-q", "data.tar.gz")
    run_git(repo, "commit", "-q", "-m", "drop it")
    _drop_loose(repo, "HEAD~1:data.tar.gz")
    # Decided by the listing's rules (the reference never indexes .tar.gz) before git is asked for the blob.
    frame = churn(repo, revs="HEAD~2..HEAD", progress=False)
    assert len(frame) == 2 and frame["embedded"].tolist()[0] == 1  # b.ts came in; the archive cost nothing


def test_a_missing_blob_outside_a_partial_clone_is_called_damage(tmp_path: Path) -> None:
    repo = plain_repo(tmp_path / "repo", commits=3)
    _drop_loose(repo, "HEAD~1:a.ts")
    with pytest.raises(ChurnError) as raised:
        churn(repo, revs="HEAD~2..HEAD", progress=False)
    assert "git fsck" in str(raised.value) and "partial clone" not in str(raised.value)
