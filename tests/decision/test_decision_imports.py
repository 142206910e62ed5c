"""The verdict is a library of its own: `import clanka_nb.decision` loads neither the engine nor tree-sitter."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PROBE = """
import json, sys, time
started = time.perf_counter()
import clanka_nb.decision
seconds = time.perf_counter() - started
print(json.dumps({"modules": sorted(sys.modules), "seconds": seconds}))
"""


def test_the_verdict_loads_without_the_engine_or_tree_sitter() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, env=env,
                          cwd=REPO)  # fmt: skip
    loaded = json.loads(done.stdout.splitlines()[-1])["modules"]
    ours = [name for name in loaded if name.split(".")[0] == "clanka_nb"]
    assert not [name for name in loaded if name.split(".")[0] in {"tree_sitter", "tree_sitter_language_pack"}]
    assert not [name for name in ours if name.startswith(("clanka_nb.engine", "clanka_nb.retrieval"))]
    # The package, its leaves and the verdict's own modules: nothing else of clanka_nb.
    assert {name.split(".")[1] for name in ours if "." in name} <= {"decision", "defaults", "extras", "keywords",
                                                                   "metrics", "warning"}  # fmt: skip
    assert "clanka_nb.decision._decision" in ours
