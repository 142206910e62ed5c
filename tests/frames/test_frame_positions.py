"""Line numbers become global line positions in one place (`LineIndex.positions`), whichever way chunks come."""

from __future__ import annotations

import math

import pytest

from clanka_nb import engine, frames, sample_codebase
from clanka_nb.frames.lines import LineIndex, span_positions
from clanka_nb.retrieval.search._index import Chunks


@pytest.fixture(scope="module")
def codebase() -> engine.Codebase:
    return engine.Codebase(sample_codebase(), languages="extended")


@pytest.mark.parametrize("settings", [(30, 0, None), (4, 2, None), (12, 3, 200)])
def test_spans_chunks_and_frames_give_the_same_positions(codebase: engine.Codebase, settings: tuple) -> None:
    setting = engine.ChunkSettings.build(*settings)
    index = LineIndex(codebase, codebase.files)
    per_file = [codebase.file_chunks(path, setting) for path in index.paths]
    starts, ends = span_positions(index, [[(c.start_line, c.end_line) for c in chunks] for chunks in per_file])
    assert Chunks(index, per_file).position.tolist() == starts.tolist()
    # The positions hold the chunk's own lines, laid end to end over the whole codebase.
    every_line = [line for text in index.texts if text is not None for line in text.lines]
    flat = [chunk for chunks in per_file for chunk in chunks]
    assert len(flat) == len(starts) > 0
    for chunk, start, end in zip(flat, starts.tolist(), ends.tolist(), strict=True):
        assert "\n".join(every_line[start : end + 1]) == chunk.content
    # A chunk frame's rows go through the same function: its statistics are the spans' statistics.
    stats = frames.CodebaseStats(codebase)
    frame = frames.chunk_codebase(codebase, chunk_size=settings[0], chunk_overlap=settings[1],
                                  chunk_max_characters=settings[2], progress=False)
    from_frame = stats.frame_row(frame, setting)
    from_spans, _ = stats.spans_row(codebase, setting, {})
    assert from_frame.keys() == from_spans.keys()
    for key, value in from_frame.items():
        other = from_spans[key]
        assert (value is None and other is None) or value == other or math.isclose(value, other), key
