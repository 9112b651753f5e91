/**
 * GitHub requests per publish, counted by the GitHub double, for this
 * checkout and another one (the code before a change) in the same run: a
 * page alone, and a page with two new images as the overlay publishes it
 * (the code before: two uploads then the save; this code: two staged
 * uploads then the save). Each publish runs after the page was read, as
 * in the overlay, and twice in a row: the first publish of a process, then
 * the next one. For each: every request, those GitHub counts against the
 * hourly budget (a 304 is not counted), the content-creating ones (POST,
 * PATCH, PUT, DELETE: at most 80 a minute) and the commits made; and how
 * many requests of the page's read before it were counted.
 *
 * Run: deno run -A bench/github_requests.ts <other checkout>
 * (make the other checkout with `git archive main | tar -x -C <dir>`)
 *
 * @module
 */

import { type Cost, measure, twoReads } from "../tests/support/github_costs.ts";
import type { Router } from "../mod.ts";

const other = Deno.args[0];
if (other === undefined) {
  console.error("usage: github_requests.ts <other checkout>");
  Deno.exit(2);
}
const before: { createRouter: (options: { locales: string[] }) => Router } =
  await import(new URL(`file://${await Deno.realPath(other)}/mod.ts`).href);
const after = await import("../mod.ts");
const routers = {
  before: before.createRouter({ locales: ["en"] }),
  after: after.createRouter({ locales: ["en"] }),
};

const show = (cost: Cost) =>
  `${cost.requests} requests, ${cost.billed} billed, ${cost.creating} creating, ${cost.commits} commit${
    cost.commits === 1 ? "" : "s"
  } (the read before it: ${cost.readBilled} billed)`;
for (
  const [kind, images] of [["page alone", 0], ["page + 2 images", 2]] as const
) {
  const costs = {
    before: await measure(routers.before, images, false),
    after: await measure(routers.after, images, true),
  };
  for (const round of [0, 1]) {
    console.log(
      `${kind}, publish ${round + 1}: before ${
        show(costs.before[round]!)
      }; after ${show(costs.after[round]!)}`,
    );
  }
}
console.log(
  `two reads of an unchanged page, requests billed: before ${
    (await twoReads(routers.before)).join(" + ")
  }; after ${(await twoReads(routers.after)).join(" + ")}`,
);
