"""Churn: per commit, exactly what indexing a checkout of it from scratch gives, and clear errors."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from clanka_nb import engine
from clanka_nb.engine.embedding import embedding_text, input_hash
from clanka_nb.history import ChurnError, churn, churn_files, churn_summary, demo_repository, plot_churn
from tests._shared import clone_history

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs the git command")
GRID = {"chunk_size": [30, 12], "chunk_overlap": [0, 4], "chunk_max_characters": 10_000}


def run_git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org"}  # fmt: skip
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env).stdout


def inputs_of_checkout(folder: Path, size: int, overlap: int, limit: int | None, max_file_size: int) -> set[str]:
    """What a fresh index of this folder holds: the SHA-256 of every chunk's embedding input."""
    chunks = engine.chunk_codebase(
        folder, chunk_size=size, chunk_overlap=overlap, chunk_max_characters=limit, max_file_size=max_file_size,
        cache=False,
    )
    return {input_hash(embedding_text(c.path, c.start_line, c.name, c.type, c.parent, c.content)) for c in chunks}


def from_scratch(repo: Path, revs: str, workdir: Path, max_file_size: int = 2**20, subfolder: str = "") -> pd.DataFrame:
    """Check out the baseline and every commit of `revs` (first parents) and index each (`subfolder` of it)
    from scratch."""
    hashes = run_git(repo, "log", "--first-parent", "--reverse", "--format=%H", revs).split()
    baseline = run_git(repo, "rev-parse", f"{hashes[0]}^1").strip()
    shutil.rmtree(workdir, ignore_errors=True)
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(repo), str(workdir)], check=True)
    rows = []
    settings = [(s, o) for s in GRID["chunk_size"] for o in GRID["chunk_overlap"]]
    run_git(workdir, "checkout", "-q", "--force", baseline)
    limit = GRID["chunk_max_characters"]
    indexed = workdir / subfolder
    indexed.mkdir(exist_ok=True)
    before = {key: inputs_of_checkout(indexed, *key, limit, max_file_size) for key in settings}
    for commit in hashes:
        run_git(workdir, "checkout", "-q", "--force", commit)
        run_git(workdir, "clean", "-q", "-f", "-d", "-x")
        indexed.mkdir(exist_ok=True)
        for key in settings:
            after = inputs_of_checkout(indexed, *key, limit, max_file_size)
            rows.append({"commit": commit, "chunk_size": key[0], "chunk_overlap": key[1], "inputs": len(after),
                         "embedded": len(after - before[key]), "reused": len(after & before[key]),
                         "deleted": len(before[key] - after)})  # fmt: skip
            before[key] = after
    return pd.DataFrame(rows)


def compared(frame: pd.DataFrame) -> pd.DataFrame:
    columns = ["commit", "chunk_size", "chunk_overlap", "inputs", "embedded", "reused", "deleted"]
    out = frame[columns].astype({c: "int64" for c in columns[1:]}).astype({"commit": "object"})
    return out.sort_values(columns[:3]).reset_index(drop=True)


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return clone_history(tmp_path_factory)


@pytest.mark.slow
def test_bundled_history_equals_indexing_each_checkout_from_scratch(history: Path, tmp_path: Path) -> None:
    revs = "HEAD~60..HEAD~45"
    got = churn(history, revs=revs, progress=False, **GRID)
    assert len(got) == 15 * 4 and got["embedded"].sum() > 0 and (got["files_changed"] > 0).all()
    pd.testing.assert_frame_equal(compared(got), compared(from_scratch(history, revs, tmp_path / "checkout")))


def test_reasons_add_up_and_a_line_inserted_on_top_is_a_line_shift(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    run_git(repo, "init", "-q", "-b", "main")
    body = "".join(f"export function f{i}() {{\n  return {i};\n}}\n\n" for i in range(12))
    (repo / "a.ts").write_text(body)
    (repo / "b.ts").write_text("export const b = 1;\n")
    run_git(repo, "add", "-A")
    run_git(repo, "commit", "-q", "-m", "start")
    (repo / "a.ts").write_text('import "./setup";\n' + body)  # no declaration: every function moves one line
    run_git(repo, "commit", "-q", "-am", "shift")
    (repo / "c.ts").write_text("export const c = 2;\n")
    (repo / "b.ts").write_text("export const b = 3;\n")
    run_git(repo, "add", "-A")
    run_git(repo, "commit", "-q", "-m", "edit and add")
    frame = churn(repo, revs="HEAD~2..HEAD", progress=False)
    shift, edit = frame.iloc[0], frame.iloc[1]
    assert (shift["embedded"], shift["line_shift"], shift["edited"], shift["new_file"]) == (12, 12, 0, 0)
    assert (shift["deleted"], shift["reused"], shift["inputs"]) == (12, 1, 13)
    assert (edit["embedded"], edit["edited"], edit["new_file"], edit["deleted"]) == (2, 1, 1, 1)
    files = churn_files(repo, revs="HEAD~2..HEAD", progress=False)
    assert files[["path", "change", "embedded"]].values.tolist() == [
        ["a.ts", "modified", 12], ["c.ts", "added", 1], ["b.ts", "modified", 1],
    ] or files[["path", "change", "embedded"]].values.tolist() == [
        ["a.ts", "modified", 12], ["b.ts", "modified", 1], ["c.ts", "added", 1],
    ]
    summary = churn_summary(frame)
    assert summary["line_shift_share"].iloc[0] == pytest.approx(12 / 14)
    assert summary["p95_embedded"].iloc[0] == pytest.approx(12 - 0.05 * 10)


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.BinaryFileWarning")  # binary-looking content, on purpose
def test_tricky_changes_equal_indexing_from_scratch(tmp_path: Path) -> None:
    """Ignore rules that change, a folder that becomes a file, renames, binary files, links, a merge."""
    repo = tmp_path / "repo"
    repo.mkdir()
    run_git(repo, "init", "-q", "-b", "main")
    step = 0

    def commit(files: dict[str, str | bytes | None]) -> None:
        nonlocal step
        for rel, text in files.items():
            path = repo / rel
            if text is None:
                shutil.rmtree(path) if path.is_dir() else path.unlink()
                if path.parent != repo and not any(path.parent.iterdir()):
                    path.parent.rmdir()
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text if isinstance(text, bytes) else text.encode())
        run_git(repo, "add", "-A")
        step += 1
        run_git(repo, "commit", "-q", "--allow-empty", "-m", f"step {step}")

    commit({"src/a.ts": "export const a = 1;\n", "gen/out.ts": "export const g = 1;\n", "x/y.ts": "let y = 1;\n"})
    commit({".gitignore": "gen/\n", "notes.md": "# notes\n\nsome prose\n"})
    commit({"x/y.ts": None, "x": "not a folder any more\n", "bin.ts": b"\x00\x01binary\xff"})
    commit({"src/a.ts": None, "src/renamed.ts": "export const a = 1;\n"})
    os.symlink("src/renamed.ts", repo / "link.ts")
    commit({".gitignore": "", "big.ts": "x" * 5000})
    run_git(repo, "checkout", "-q", "-b", "side")
    commit({"side.ts": "export function side() {}\n"})
    run_git(repo, "checkout", "-q", "main")
    commit({"main.ts": "export function main() {}\n"})
    run_git(repo, "merge", "-q", "--no-ff", "-m", "merge side", "side")
    commit({"notes.md": "# notes\n\nmore prose\n"})
    revs = f"{run_git(repo, 'rev-list', '--max-parents=0', 'HEAD').strip()}..HEAD"
    got = churn(repo, revs=revs, progress=False, max_file_size=4000, **GRID)
    expected = from_scratch(repo, revs, tmp_path / "checkout", max_file_size=4000)
    pd.testing.assert_frame_equal(compared(got), compared(expected))


def test_a_subfolder_churns_its_own_files_as_indexing_that_folder_would(tmp_path: Path) -> None:
    """A package of a monorepo: its files only, paths relative to it, ignore files above it applied."""
    repo = tmp_path / "repo"
    (repo / "pkg" / "src").mkdir(parents=True)
    (repo / "other").mkdir()
    run_git(repo, "init", "-q", "-b", "main")

    def commit(files: dict[str, str | None]) -> None:
        for rel, text in files.items():
            (repo / rel).unlink() if text is None else (repo / rel).write_text(text)
        run_git(repo, "add", "-A")
        run_git(repo, "commit", "-q", "--allow-empty", "-m", f"change {sorted(files)}")

    commit({"pkg/src/a.ts": "export const a = 1;\n", "other/o.ts": "export const o = 1;\n", "root.ts": "let r;\n"})
    commit({"pkg/src/b.ts": "export const b = 2;\n", "other/o.ts": "export const o = 2;\n"})
    commit({"other/p.ts": "export const p = 3;\n"})  # outside the package: nothing to embed
    commit({".gitignore": "b.ts\n"})  # a rule above the package hides one of its files
    commit({"pkg/src/a.ts": "export const a = 10;\n", "root.ts": "let s;\n"})
    commit({".gitignore": None, "pkg/.gitignore": "a.ts\n"})
    revs = f"{run_git(repo, 'rev-list', '--max-parents=0', 'HEAD').strip()}..HEAD"
    got = churn(repo / "pkg", revs=revs, progress=False, **GRID)
    expected = from_scratch(repo, revs, tmp_path / "checkout", subfolder="pkg")
    pd.testing.assert_frame_equal(compared(got), compared(expected))
    whole = churn(repo, revs=revs, progress=False, **GRID)
    assert got["embedded"].sum() < whole["embedded"].sum()
    first = got[(got["chunk_size"] == 30) & (got["chunk_overlap"] == 0)]
    assert first["files_changed"].tolist() == [1, 0, 0, 1, 1]
    assert first["embedded"].tolist() == [1, 0, 0, 1, 1] and first["deleted"].tolist() == [0, 0, 1, 1, 1]
    files = churn_files(repo / "pkg", revs=revs, progress=False, chunk_size=30)
    assert files[["path", "change"]].values.tolist() == [
        ["src/b.ts", "added"], ["src/b.ts", "deleted"], ["src/a.ts", "modified"], ["src/b.ts", "added"],
        ["src/a.ts", "deleted"],
    ]
    # A folder of an outer checkout, not its top: that folder's files, never the outer repository's.
    inner = churn(repo / "other", revs=revs, progress=False, chunk_size=30)
    assert inner["embedded"].tolist() == [1, 1, 0, 0, 0]
    (repo / "build").mkdir()
    (repo / "build" / "out.ts").write_text("export const out = 1;\n")  # never committed
    with pytest.raises(ChurnError, match=r"'build' holds no file git tracks .* pass a folder `git ls-files` lists"):
        churn(repo / "build", revs=revs, progress=False)
    quiet = churn(repo / "other", revs="HEAD~1..HEAD", progress=False)  # tracked, unchanged: nothing embedded
    assert quiet["embedded"].tolist() == [0] and quiet["inputs"].tolist() == [2]


def test_no_resource_warning_is_left_behind(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    run_git(repo, "init", "-q", "-b", "main")
    for i in range(2):
        (repo / f"f{i}.ts").write_text(f"export const f = {i};\n")
        run_git(repo, "add", "-A")
        run_git(repo, "commit", "-q", "-m", f"c{i}")
    script = (
        "import gc, sys, clanka_nb.history as h\n"
        "h.churn(sys.argv[1], revs='HEAD~1..HEAD', progress=False)\n"
        "h.churn_files(sys.argv[1], revs='HEAD~1..HEAD', progress=False)\n"
        "gc.collect()\n"
    )
    run = subprocess.run(
        [sys.executable, "-X", "dev", "-W", "error::ResourceWarning", "-c", script, str(repo)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0 and "ResourceWarning" not in run.stderr, run.stderr


def test_token_counts_are_summed_over_embedded_inputs(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    run_git(repo, "init", "-q", "-b", "main")
    (repo / "a.ts").write_text("export const a = 1;\n")
    run_git(repo, "add", "-A")
    run_git(repo, "commit", "-q", "-m", "one")
    (repo / "b.ts").write_text("export const b = 2;\n")
    run_git(repo, "add", "-A")
    run_git(repo, "commit", "-q", "-m", "two")
    frame = churn(repo, revs="HEAD~1..HEAD", token_counter=len, progress=False)
    text = embedding_text("b.ts", 1, "b", "variable", None, "export const b = 2;")
    assert frame["tokens_embedded"].tolist() == [len(text)]
    with pytest.raises(ValueError, match="token_counter returned None"):
        churn(repo, revs="HEAD~1..HEAD", token_counter=lambda text: None, progress=False)  # type: ignore[arg-type]


def test_plot_shows_each_setting(history: Path) -> None:
    frame = churn(history, revs="HEAD~5..HEAD", chunk_size=[30, 10], progress=False)
    figure = plot_churn(frame)
    per_commit, total = figure.axes
    assert len(per_commit.get_lines()) == 2 and len(total.get_lines()) == 2
    assert total.get_lines()[0].get_ydata()[-1] == frame[frame["chunk_size"] == 10]["embedded"].sum()


def test_plot_ticks_are_whole_commits(history: Path) -> None:
    frame = churn(history, revs="HEAD~5..HEAD", chunk_size=[30], progress=False)
    figure = plot_churn(frame)
    figure.canvas.draw()  # the locator picks the ticks when drawn
    for axis in figure.axes:
        ticks = [t for t in axis.get_xticks() if axis.get_xlim()[0] <= t <= axis.get_xlim()[1]]
        assert ticks and all(float(t).is_integer() for t in ticks), ticks


def test_bad_input_says_what_to_do(tmp_path: Path, history: Path) -> None:
    (tmp_path / "plain").mkdir()
    with pytest.raises(ChurnError, match="not a git repository"):
        churn(tmp_path / "plain")
    with pytest.raises(ChurnError, match="is not a folder"):
        churn(tmp_path / "missing")
    with pytest.raises(ChurnError, match=r"cannot read the revisions 'nope\.\.HEAD'"):
        churn(history, revs="nope..HEAD")
    with pytest.raises(ChurnError, match="holds no commits"):
        churn(history, revs="HEAD..HEAD~3")
    with pytest.raises(ValueError, match="chunk_size is empty"):
        churn(history, revs="HEAD~1..HEAD", chunk_size=[])
    with pytest.raises(ValueError, match="not a churn frame"):
        churn_summary(pd.DataFrame({"x": [1]}))


def test_a_shallow_clone_without_the_baseline_is_refused(tmp_path: Path, history: Path) -> None:
    shallow = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "3", f"file://{history}", str(shallow)], check=True)
    with pytest.raises(ChurnError, match=r"shallow.*git fetch --unshallow"):
        churn(shallow, revs="HEAD~5..HEAD")
    assert len(churn(shallow, revs="HEAD~2..HEAD", progress=False)) == 2


def test_demo_repository_shows_every_kind_of_reembedding(tmp_path: Path) -> None:
    repo = demo_repository(tmp_path / "bookshop")
    frame = churn(repo, revs="HEAD~10..HEAD", progress=False).set_index("subject")
    assert frame.loc["pricing: a licence header on top", "line_shift"] > 5
    assert frame.loc["pricing: a licence header on top", "edited"] == 0
    assert frame.loc["a gift-card module", "new_file"] == 2
    assert frame.loc["legacy receipts removed", "deleted"] > 0
    assert frame.loc["pricing: digital VAT goes down", ["embedded", "edited"]].tolist() == [1, 1]
    with pytest.raises(ChurnError, match="exists"):
        demo_repository(repo)


def test_the_default_range_walks_a_history_shorter_than_it_whole(tmp_path: Path) -> None:
    # HEAD~50..HEAD on 3 commits: all 3, the first against the empty tree (its files are all new), as
    # history_queries reads HEAD~500..HEAD; a range inside the history still starts where it says.
    repo = tmp_path / "repo"
    repo.mkdir()
    run_git(repo, "init", "-q", "-b", "main")
    hashes = []
    for i in range(3):
        (repo / f"m{i}.ts").write_text(f"export const m{i} = {i};\n")
        run_git(repo, "add", "-A")
        run_git(repo, "commit", "-q", "-m", f"add m{i}")
        hashes.append(run_git(repo, "rev-parse", "HEAD").strip())
    whole = churn(repo, progress=False)
    assert whole["commit"].tolist() == hashes
    assert whole["embedded"].tolist() == [1, 1, 1]
    assert whole["new_file"].tolist() == [1, 1, 1]
    assert churn(repo, revs="HEAD~1..HEAD", progress=False)["commit"].tolist() == hashes[2:]
    assert churn_files(repo, revs="HEAD~9..HEAD", progress=False)["path"].tolist() == ["m0.ts", "m1.ts", "m2.ts"]
    with pytest.raises(ChurnError, match=r"cannot read the revisions 'nope~3\.\.HEAD'"):
        churn(repo, revs="nope~3..HEAD", progress=False)


def test_a_frame_for_the_repository_is_an_error_naming_the_fix(tmp_path: Path) -> None:
    frame = pd.DataFrame({"commit": ["abc"]})
    for call in (churn, churn_files):
        with pytest.raises(TypeError, match=r"must be a folder .* got DataFrame; pass the folder of a git clone"):
            call(frame)
