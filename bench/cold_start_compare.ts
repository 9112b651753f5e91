/**
 * Cold start of this checkout against another one (the code before a
 * change), in the same run: the Deno Deploy entry point of each and a bare
 * `Deno.serve` (`cold_start_baseline.ts`); and the serverless Node handler
 * of the Vercel recipe (`examples/vercel/api/_editor.js` over the package's
 * neutral build, the shape a Netlify Function has too) behind `node:http`
 * (`cold_start_node_handler.mjs`) and a bare `node:http` server
 * (`cold_start_node_bare.mjs`). Each is spawned in a random order, `n` times,
 * and the medians of the times to the first answer (`GET /no-such-path`, the
 * router's 404) are printed with their ratios. On a loaded machine a median
 * of interleaved runs moves less than the averages of `cold_start_bench.ts`.
 *
 * Run: deno run -A bench/cold_start_compare.ts <other checkout> [n=40]
 * (make the other checkout with `git archive <commit> | tar -x -C <dir>`)
 *
 * @module
 */

import { join } from "node:path";
import { firstAnswer, firstAnswerOf } from "./cold_start_support.ts";
import { prepareExample } from "../tests/support/hosts.ts";
import { recipeFlags } from "../tests/support/deploy_entry.ts";

const here = new URL("..", import.meta.url).pathname;
const other = Deno.args[0];
if (other === undefined) {
  console.error("usage: cold_start_compare.ts <other checkout> [n]");
  Deno.exit(2);
}
const n = Number(Deno.args[1] ?? 40);
const ENTRY = "examples/deno-deploy/main.ts";
// Each checkout's entry runs with the flags of the deno.json it deploys with;
// the bare server with this checkout's.
const flags = {
  here: await recipeFlags(join(here, "examples/deno-deploy")),
  other: await recipeFlags(join(other, "examples/deno-deploy")),
};
const vercel = await prepareExample("vercel");
const work = await Deno.makeTempDir({ prefix: "editor-cold-compare-" });
let runs = 0;
const deno = ([script, config, flags]: [string, string, string[]]) => () =>
  firstAnswer(script, config, `${work}/kv-${runs++}.sqlite3`, flags);
const node = (script: string, ...args: string[]) => () =>
  firstAnswerOf("node", [join(here, "bench", script), ...args], {
    // Nothing connects before a request needs the store.
    REDIS_URL: "redis://127.0.0.1:9",
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
  }, vercel);
const entries: Record<string, () => Promise<number>> = {
  bare: deno([
    `${here}bench/cold_start_baseline.ts`,
    `${here}deno.json`,
    flags.here,
  ]),
  other: deno([`${other}/${ENTRY}`, `${other}/deno.json`, flags.other]),
  this: deno([`${here}${ENTRY}`, `${here}deno.json`, flags.here]),
  "node bare": node("cold_start_node_bare.mjs"),
  "node handler": node(
    "cold_start_node_handler.mjs",
    join(vercel, "api", "_editor.js"),
  ),
};

const times: Record<string, number[]> = Object.fromEntries(
  Object.keys(entries).map((name) => [name, []]),
);
for (const spawn of Object.values(entries)) await spawn();
for (let i = 0; i < n; i++) {
  const order = Object.keys(times).sort(() => Math.random() - 0.5);
  for (const name of order) times[name]!.push(await entries[name]!());
}
await Deno.remove(work, { recursive: true });

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const [bare, before, after, nodeBare, nodeHandler] = [
  "bare",
  "other",
  "this",
  "node bare",
  "node handler",
].map((name) => median(times[name]!)) as [
  number,
  number,
  number,
  number,
  number,
];
console.log(
  `n=${n}: bare ${bare.toFixed(1)} ms, other ${before.toFixed(1)} ms (${
    (before / bare).toFixed(2)
  }×), this ${after.toFixed(1)} ms (${
    (after / bare).toFixed(2)
  }×); this/other ${(after / before).toFixed(2)}; node bare ${
    nodeBare.toFixed(1)
  } ms, node handler ${nodeHandler.toFixed(1)} ms (${
    (nodeHandler / nodeBare).toFixed(2)
  }×)`,
);
