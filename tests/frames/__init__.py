"""Tests of the pandas layer, clanka_nb.frames."""
