"""Pieces of the `clanka-nb` command line; the entry point is `clanka_nb.cli.main`."""
