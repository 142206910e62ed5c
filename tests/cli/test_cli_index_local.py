"""`clanka-nb index` without a cluster (issue 56 item 3): one root, or `--local` with several, syncs in the command's
own process (Dask is not even imported), with the table, notes and exit code of the cluster's run on the same
input; a cluster's own logging reaches stderr only as one-line notes."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from clanka_nb._cli import _index

pytest.importorskip("apsw")

REPO = Path(__file__).resolve().parents[2]
# Runs the command in a fresh interpreter and says which of Dask's modules it imported and which rows it wrote.
PROBE = """
import json, sys
from clanka_nb.cli import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "distributed": "distributed" in sys.modules, "dask": "dask" in sys.modules}))
"""
COMPARED = ["status", "chunks", "inputs", "embedded", "cached", "reused", "deleted", "files", "error", "clanka_note"]


def _command(args: list[str], cache: Path) -> tuple[dict[str, object], str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "CLANKA_NB_CACHE_DIR": str(cache)}
    env.pop("DASK_LOGGING", None)
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env,
                          timeout=600, check=False)  # fmt: skip
    assert done.stdout.strip(), done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr


def test_one_root_syncs_in_the_process_without_importing_dask(code: Path, tmp_path: Path) -> None:
    out = tmp_path / "run.csv"
    said, err = _command(["index", str(code), "--stand-in", "-o", str(out)], tmp_path / "cache")
    assert said == {"code": 0, "distributed": False, "dask": False}, err
    first = pd.read_csv(out)
    assert list(first["status"]) == ["synced"] and first["inputs"].iloc[0] > 0
    assert first["embedded"].iloc[0] + first["cached"].iloc[0] == first["inputs"].iloc[0]
    assert first["worker"].iloc[0] == "local" and (code / ".clanka" / "search.sqlite").is_file()
    said, err = _command(["index", str(code), "--stand-in", "-o", str(out)], tmp_path / "cache")
    assert said["code"] == 0 and not said["distributed"]
    assert list(pd.read_csv(out)["status"]) == ["unchanged"]  # the state file, as the cluster's run writes it


def test_local_syncs_several_roots_in_the_process(code: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    shutil.copytree(code, other)
    out = tmp_path / "run.jsonl"
    said, err = _command(["index", str(code), str(other), "--local", "--stand-in", "-o", str(out)], tmp_path / "c")
    assert said == {"code": 0, "distributed": False, "dask": False}, err
    rows = pd.read_json(out, lines=True)
    assert list(rows["status"]) == ["synced", "synced"]
    assert rows["embedded"].iloc[1] == 0 and rows["cached"].iloc[1] == rows["inputs"].iloc[1]  # the copy: cached


def test_one_root_given_twice_is_one_line_naming_the_fix(code: Path, tmp_path: Path, capsys) -> None:
    from clanka_nb.cli import main

    assert main(["index", str(code), str(code), "--local", "--stand-in"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "same index" in err and "give each root once" in err


def _normalised(frame: pd.DataFrame, base: Path) -> list[dict[str, object]]:
    shown = frame[COMPARED].astype(object).where(frame[COMPARED].notna(), None)
    return json.loads(json.dumps(shown.to_dict("records")).replace(str(base), "BASE"))


def test_the_local_run_s_table_and_notes_are_the_cluster_s(code: Path, tmp_path: Path) -> None:
    # The same input twice (a repository at other chunk settings than clanka's, beside a missing one): the one's
    # rows and notes, run in the process, equal the other's, run on a LocalCluster, field for field.
    seen = {}
    for where in ("--local", "--cluster"):
        base = tmp_path / where.strip("-")
        shutil.copytree(code, base / "code")
        roots = [str(base / "code"), str(base / "missing")]
        runs = []
        for number in (1, 2):  # the second run finds it unchanged
            out = base / f"run{number}.csv"
            said, err = _command(["index", *roots, where, "--stand-in", "--chunk-size", "20", "-o", str(out)],
                                 base / "cache")  # fmt: skip
            assert said["code"] == 1 and said["distributed"] == (where == "--cluster"), err
            notes = sorted(line.replace(str(base), "BASE") for line in err.splitlines() if "dask:" not in line)
            runs.append((_normalised(pd.read_csv(out), base), notes))
        seen[where] = runs
    assert seen["--local"] == seen["--cluster"]
    (rows, notes), (again, _) = seen["--local"]
    assert [row["status"] for row in rows] == ["synced", "failed"] and [row["status"] for row in again] == [
        "unchanged", "failed"]
    assert any("clanka's next sync" in note or "ClankaRebuild" in note or "embed again" in note for note in notes)
    assert all(line.startswith("clanka-nb: note: ") for line in notes)


def test_a_cluster_s_log_records_are_one_line_notes(capsys) -> None:
    logger = logging.getLogger("distributed.worker")
    before = list(logging.getLogger("distributed").handlers)
    with _index.one_line_notes():
        try:
            raise RuntimeError("deep\ninside")
        except RuntimeError:
            logger.exception("Compute Failed\nKey: x\nFunction: f")
        logging.getLogger("distributed.core").warning("Event loop was unresponsive in Worker for 3.1s.\x1b[2J")
        logging.getLogger("distributed.core").info("not a note: below warnings")
        assert os.environ.get("DASK_LOGGING", "").startswith("{")  # the workers started meanwhile log so too
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "clanka-nb: note: dask: distributed.worker: Compute Failed Key: x Function: f (RuntimeError)",
        "clanka-nb: note: dask: distributed.core: Event loop was unresponsive in Worker for 3.1s.\\x1b[2J",
    ]
    assert logging.getLogger("distributed").handlers == before and "DASK_LOGGING" not in os.environ


def test_the_cluster_is_used_only_when_asked_or_for_several_roots() -> None:
    from clanka_nb._cli import _parser

    def parsed(*args: str) -> bool:
        return _index.uses_cluster(_parser.build().parse_args(["index", *args]))

    assert not parsed("a") and not parsed("a", "b", "--local")
    assert parsed("a", "--cluster") and parsed("a", "--dask", "tcp://x:8786") and parsed("a", "b")


def test_a_warning_of_several_lines_is_one_note(capsys) -> None:
    from clanka_nb.cli import _note_warning

    show = _note_warning(quiet=False)
    show(UserWarning("Port 8787 is already in use.\nPerhaps you already have a cluster running?\nHosting it on 1"),
         UserWarning, os.path.join("site-packages", "distributed", "node.py"), 195)
    show(UserWarning("an empty\nfolder"), UserWarning, "x.py", 1)
    assert capsys.readouterr().err == ("clanka-nb: note: dask: Port 8787 is already in use. Perhaps you already "
                                       "have a cluster running? Hosting it on 1\nclanka-nb: note: an empty folder\n")


def test_the_docs_say_when_a_cluster_is_used() -> None:
    text = (REPO / "docs" / "dask.md").read_text(encoding="utf-8")
    said = text[text.index("**When the command uses a cluster.**"):]
    assert all(flag in said for flag in ("One ROOT", "Several ROOTs", "--cluster", "--dask ADDRESS", "--local"))
    assert "clanka-nb index . --stand-in" in (REPO / "docs" / "guide.md").read_text(encoding="utf-8")
