// clanka's first index of a tree, timed: the reference bench_first_index.py runs beside clanka-nb's.
//
// Usage: node_modules/.bin/node --import tsx index.ts TREE BASE_URL DB DIMENSIONS
//   TREE        the folder to index (clanka lists it with `rg --files`)
//   BASE_URL    an OpenAI-compatible API, e.g. http://127.0.0.1:8765/v1 (clanka posts to BASE_URL/embeddings)
//   DB          a new SQLite file (removed first, with its -wal and -shm, so every run is a first index)
//   DIMENSIONS  the width of the server's vectors (clanka's vector table is made that wide)
// Prints one line of JSON: {"seconds": from building clanka's SemanticSearch to its first index done,
// "chunks": rows in DB, "node": the version}; clanka's own log goes to stderr.
import { existsSync, rmSync } from "node:fs"
import { resolve } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { performance } from "node:perf_hooks"
import { OpenAiClient, OpenAiEmbeddingModel } from "@effect/ai-openai"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Redacted from "effect/Redacted"
import * as SemanticSearch from "./src/SemanticSearch.ts"

const [tree, baseUrl, dbPath, width] = process.argv.slice(2)
if (!tree || !baseUrl || !dbPath || !width) {
  console.error("usage: index.ts TREE BASE_URL DB DIMENSIONS")
  process.exit(2)
}
const db = resolve(dbPath)
for (const file of [db, `${db}-wal`, `${db}-shm`]) {
  if (existsSync(file)) rmSync(file)
}

const search = SemanticSearch.layer({ directory: resolve(tree), database: db }).pipe(
  Layer.provide(OpenAiEmbeddingModel.model("text-embedding-3-small", { dimensions: Number(width) })),
  Layer.provide(OpenAiClient.layer({ apiKey: Redacted.make("unused"), apiUrl: baseUrl })),
  Layer.provide(NodeHttpClient.layerUndici),
  Layer.provide(NodeServices.layer),
)
const toStderr = Logger.layer([Logger.withConsoleError(Logger.formatSimple)])

const started = performance.now()
const seconds = await Effect.runPromise(
  Effect.gen(function* () {
    const service = yield* SemanticSearch.SemanticSearch
    // Every method of the service waits for the first index; removing the path "" does nothing more.
    yield* service.removeFile("")
    return (performance.now() - started) / 1000
  }).pipe(Effect.provide(search), Effect.provide(toStderr)),
)

const connection = new DatabaseSync(db, { readOnly: true })
const row = connection.prepare("SELECT count(*) AS n FROM chunks").get() as { n: number }
connection.close()
process.stdout.write(
  JSON.stringify({ seconds, chunks: Number(row.n), node: process.version }) + "\n",
  () => process.exit(0),
)
