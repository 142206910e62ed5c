"""The default of every setting, in one place that loads nothing (the CLI's `--help` shows them too)."""

DEFAULT_CHUNK_SIZE = 30
DEFAULT_CHUNK_OVERLAP = 0
DEFAULT_MAX_FILE_SIZE = "1M"  # ripgrep's --max-filesize, as clanka lists files
# What `languages=None` means where the source has no mode of its own (a folder, a file, a text).
DEFAULT_LANGUAGES = "clanka"
# clanka's semantic index chunks with a limit of its own (SemanticSearch's chunkMaxCharacters), not the chunker's none.
INDEX_MAX_CHARACTERS = 10_000
# The grid a sweep tries when no chunk setting is given.
SWEEP_CHUNK_SIZES = (10, 20, 30, 40, 60)
