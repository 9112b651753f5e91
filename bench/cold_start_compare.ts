/**
 * Cold start of this checkout against another one (the code before a
 * change), in the same run: the Deno Deploy entry point of each and a bare
 * `Deno.serve` (`cold_start_baseline.ts`) are spawned in a random order, `n`
 * times each, and the medians of the times to the first answer are printed
 * with their ratios. On a loaded machine a median of interleaved runs moves
 * less than the averages of `cold_start_bench.ts`.
 *
 * Run: deno run -A bench/cold_start_compare.ts <other checkout> [n=40]
 * (make the other checkout with `git archive <commit> | tar -x -C <dir>`)
 *
 * @module
 */

import { firstAnswer } from "./cold_start_support.ts";

const here = new URL("..", import.meta.url).pathname;
const other = Deno.args[0];
if (other === undefined) {
  console.error("usage: cold_start_compare.ts <other checkout> [n]");
  Deno.exit(2);
}
const n = Number(Deno.args[1] ?? 40);
const ENTRY = "examples/deno-deploy/main.ts";
const entries: Record<string, [string, string]> = {
  bare: [`${here}bench/cold_start_baseline.ts`, `${here}deno.json`],
  other: [`${other}/${ENTRY}`, `${other}/deno.json`],
  this: [`${here}${ENTRY}`, `${here}deno.json`],
};
const work = await Deno.makeTempDir({ prefix: "editor-cold-compare-" });
let runs = 0;
const spawn = ([script, config]: [string, string]) =>
  firstAnswer(script, config, `${work}/kv-${runs++}.sqlite3`);

const times: Record<string, number[]> = { bare: [], other: [], this: [] };
for (const entry of Object.values(entries)) await spawn(entry);
for (let i = 0; i < n; i++) {
  const order = Object.keys(times).sort(() => Math.random() - 0.5);
  for (const name of order) times[name]!.push(await spawn(entries[name]!));
}
await Deno.remove(work, { recursive: true });

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const [bare, before, after] = [times.bare!, times.other!, times.this!].map(
  median,
) as [number, number, number];
console.log(
  `n=${n}: bare ${bare.toFixed(1)} ms, other ${before.toFixed(1)} ms (${
    (before / bare).toFixed(2)
  }×), this ${after.toFixed(1)} ms (${
    (after / bare).toFixed(2)
  }×); this/other ${(after / before).toFixed(2)}`,
);
