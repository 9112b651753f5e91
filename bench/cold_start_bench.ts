/**
 * Cold start: the time from spawning a process to its first answer, for the
 * Deno Deploy entry point (`examples/deno-deploy/main.ts`: the router, the
 * KV, the env) against a bare `Deno.serve` answering the same 404 JSON
 * (`bench/cold_start_baseline.ts`), in the same run. Each iteration starts a
 * new process and sends `GET /no-such-path` until it answers.
 *
 * Run: deno bench -A bench/cold_start_bench.ts
 */

import { firstAnswer } from "./cold_start_support.ts";
import { recipeFlags } from "../tests/support/deploy_entry.ts";

const work = await Deno.makeTempDir({ prefix: "editor-cold-start-" });
const ENTRY = new URL("../examples/deno-deploy/main.ts", import.meta.url)
  .pathname;
const BASELINE = new URL("./cold_start_baseline.ts", import.meta.url).pathname;
const CONFIG = new URL("../deno.json", import.meta.url).pathname;
// The runtime flags of the deno.json the entry deploys with.
const FLAGS = await recipeFlags(
  new URL("../examples/deno-deploy", import.meta.url).pathname,
);
let runs = 0;

/** Spawns the script and waits for its first answer to an unknown path. */
async function firstAnswerOf(script: string): Promise<void> {
  // The package's own deno.json: the example's maps @inpage/editor to JSR.
  await firstAnswer(script, CONFIG, `${work}/kv-${runs++}.sqlite3`, FLAGS);
}

Deno.bench({
  name: "bare Deno.serve answering the 404 JSON",
  group: "cold-start",
  baseline: true,
  n: 20,
  warmup: 2,
  async fn() {
    await firstAnswerOf(BASELINE);
  },
});

Deno.bench({
  name: "Deno Deploy entry point (router, KV) answering the 404 JSON",
  group: "cold-start",
  n: 20,
  warmup: 2,
  async fn() {
    await firstAnswerOf(ENTRY);
  },
});

globalThis.addEventListener("unload", () => {
  Deno.removeSync(work, { recursive: true });
});
