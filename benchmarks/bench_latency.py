"""Slider release -> statistics updated in the tuning panel, in a real JupyterLab in headless Chromium.

    python benchmarks/bench_latency.py              # the sample and three.js 0.170.0 (benchmarks/.data)
    python benchmarks/bench_latency.py --releases 9 # more releases per codebase (the median is kept)

Target (issue 17): under 300 ms on the sample and on three.js. The baseline, measured in the same
releases, is the panel's whole update in the kernel (what it reports as "updated in"). The panel
sends the statistics first; the time until the histogram and preview are drawn too is printed beside.
Uses the browser tests' harness (tests/browser/_latency.py): needs Chromium and the test extra.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

# These figures measure parsing as the other benchmarks do: the persistent parse cache stays off.
os.environ.setdefault("CLANKA_NB_CACHE", "off")
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

# Fractions of the chunk_size track (1-200) to release at, in turn: sizes about 10, 20, 40, 60.
FRACTIONS = (0.05, 0.1, 0.2, 0.3)


def measure(page, server, source: Path | None, label: str, releases: int) -> None:
    from tests.browser._latency import open_tuner, release_chunk_size

    started = time.perf_counter()
    open_tuner(page, server, source, name=f"latency-{label}.ipynb")
    print(f"{label}: panel opened in {time.perf_counter() - started:.1f} s (notebook run included)")
    latencies, drawn, kernels = [], [], []
    for i in range(releases):
        time.sleep(0.5)  # past the panel's debounce window: each release is answered on its own
        release = release_chunk_size(page, FRACTIONS[i % len(FRACTIONS)])
        latencies.append(release.latency_ms)
        drawn.append(release.drawn_ms)
        kernels.append(release.kernel_ms)
        print(f"  chunk_size={release.chunk_size:<4} release -> statistics {release.latency_ms:6.0f} ms, "
              f"all drawn {release.drawn_ms:6.0f} ms   kernel update {release.kernel_ms:5.0f} ms")
    latency, kernel, whole = statistics.median(latencies), statistics.median(kernels), statistics.median(drawn)
    verdict = "met" if latency < 300 else "MISSED"
    print(f"{label}: median release -> statistics {latency:.0f} ms (max {max(latencies):.0f}), target < 300 ms: "
          f"{verdict}; baseline, the kernel's whole update: {kernel:.0f} ms ({latency / kernel:.1f}x); "
          f"release -> everything drawn (histogram, preview): {whole:.0f} ms ({whole / kernel:.1f}x)\n")


def main() -> None:
    from bench_engine import DATA
    from playwright.sync_api import sync_playwright

    from tests.browser._lab import CHROMIUM_ARGS, find_chromium, start_lab_server, stop_lab_server

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--three", default=str(DATA / "three-0.170.0/package"), help="three.js's folder")
    parser.add_argument("--releases", type=int, default=5, help="slider releases per codebase")
    args = parser.parse_args()
    executable = find_chromium()
    if executable is None:
        raise SystemExit("Chromium is not installed: apt-get install chromium")
    sources: list[tuple[str, Path | None]] = [("sample", None)]
    three = Path(args.three)
    if three.is_dir():
        sources.append(("three.js", three))
    else:
        print(f"{three} is missing (python benchmarks/bench_engine.py --fetch): the sample only\n")
    print(f"load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        server = start_lab_server(Path(tmp))
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
                try:
                    for label, source in sources:
                        context = browser.new_context(viewport={"width": 1300, "height": 1200})
                        try:
                            measure(context.new_page(), server, source, label, args.releases)
                        finally:
                            context.close()
                            server.shutdown_kernels()
                finally:
                    browser.close()
        finally:
            stop_lab_server(server.process)
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
