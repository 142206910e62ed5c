"""Tests of the retrieval probe: queries, masking, searchers and scores."""
