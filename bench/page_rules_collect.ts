/**
 * Collecting every problem against stopping at the first, on the realistic
 * 100 KB page that passes, as a ratio measured in one run: the three
 * versions run in turn, round after round (so that a change in the machine's
 * load touches each alike), and the ratio is the median of the rounds'
 * ratios.
 *
 * - `first`: `pageRules(content, 1)`, the walk stops at its first problem;
 * - `collect`: `pageRules(content)`, every problem up to 50;
 * - `before`: the rules as they were before collecting
 *   (`page_rules_before.ts`, commit `10d1b2e`), without the link check of
 *   values under any key and the markdown rule.
 *
 * The same for the page whose rich text is markdown.
 *
 * Run: `deno run -A bench/page_rules_collect.ts [rounds]`.
 *
 * @module
 */

import { pageRules } from "../lib/pages/page_rules.ts";
import { pageRulesBefore } from "./page_rules_before.ts";
import { realisticPage } from "./realistic_page.ts";

const ROUNDS = Number(Deno.args[0] ?? 200);

function time(run: () => void, times: number): number {
  const start = performance.now();
  for (let index = 0; index < times; index++) run();
  return (performance.now() - start) / times;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function compare(name: string, content: string): void {
  const versions: Record<string, () => void> = {
    before: () => pageRulesBefore(content),
    first: () => pageRules(content, 1),
    collect: () => pageRules(content),
    json: () => JSON.stringify(JSON.parse(content), null, 2),
  };
  for (const run of Object.values(versions)) time(run, 20); // warm up
  const times: Record<string, number[]> = {};
  for (let round = 0; round < ROUNDS; round++) {
    // A different order each round.
    const names = Object.keys(versions);
    if (round % 2 === 1) names.reverse();
    for (const version of names) {
      (times[version] ??= []).push(time(versions[version] as () => void, 3));
    }
  }
  const ratio = (a: string, b: string) =>
    median(
      (times[a] as number[]).map((value, index) =>
        value / (times[b] as number[])[index]!
      ),
    );
  console.log(
    `${name}: median ms before ${median(times.before!).toFixed(2)}, first ${
      median(times.first!).toFixed(2)
    }, collect ${median(times.collect!).toFixed(2)}, JSON ${
      median(times.json!).toFixed(2)
    }; collect/first ${ratio("collect", "first").toFixed(3)}, ` +
      `collect/before ${ratio("collect", "before").toFixed(3)}, ` +
      `first/before ${ratio("first", "before").toFixed(3)}, ` +
      `collect/JSON ${ratio("collect", "json").toFixed(2)}, ` +
      `before/JSON ${ratio("before", "json").toFixed(2)}`,
  );
}

compare("100 KB page (HTML rich text)", realisticPage());
compare("100 KB page (markdown rich text)", realisticPage(0, true));
