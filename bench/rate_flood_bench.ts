/**
 * Clients over their budget: how fast the router answers a first 429 (a KV
 * read of the window, no write), as a ratio to a bare handler that returns
 * the same JSON, in-process, in the same run. Each iteration is a client of
 * its own whose window is full: a client's later 429s wait 250 ms by design
 * (see `REFUSED_AGAIN_DELAY_MS`), which a bench of work would only count as
 * sleep.
 *
 * Run: deno bench -A bench/rate_flood_bench.ts
 */

import { createRouter } from "../mod.ts";
import { clientTag } from "../lib/http/client_address.ts";
import { BUDGETS } from "../lib/limits.ts";

const kv = await Deno.openKv(":memory:");
const router = createRouter({ locales: ["en"] });
const env = { RATE_LIMIT: kv, EDITOR_KEY_HASH: "", EDITOR_LOG: () => {} };
const request = () =>
  new Request("https://site.example/api/auth", {
    method: "POST",
    headers: { "content-type": "application/json", "content-length": "15" },
    body: '{"key":"wrong"}',
  });

// Full windows for more clients than the runs: 5 login attempts each.
const RUNS = 5_000;
const clients = Array.from({ length: RUNS + 200 }, (_, i) => ({
  remoteAddr: {
    hostname: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
  },
}));
const full = Array.from({ length: BUDGETS.auth.limit }, () => Date.now());
for (const client of clients) {
  await kv.set(
    ["editor", "rate", "auth", clientTag(request(), env, client)],
    full,
    { expireIn: BUDGETS.auth.windowMs },
  );
}
let next = 0;
const check = await router.handle(request(), env, clients[next++]);
if (check.status !== 429) throw new Error(`expected 429, got ${check.status}`);
const body = await check.text();

Deno.bench({
  name: "bare handler returning the same 429 JSON",
  group: "flood",
  baseline: true,
  n: RUNS / 2,
  warmup: 50,
  async fn() {
    const incoming = request();
    const response = await Promise.resolve(
      new Response(incoming.method === "POST" ? body : "", {
        status: 429,
        headers: {
          "content-type": "application/json; charset=utf-8",
          "cache-control": "no-store",
          "x-content-type-options": "nosniff",
          "retry-after": "900",
        },
      }),
    );
    await response.arrayBuffer();
  },
});

Deno.bench({
  name: "router.handle answering a first 429 to a client over budget",
  group: "flood",
  n: RUNS,
  warmup: 50,
  async fn() {
    const response = await router.handle(request(), env, clients[next++]);
    if (response.status !== 429) throw new Error("expected 429");
    await response.arrayBuffer();
  },
});
