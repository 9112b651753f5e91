/**
 * A flood from one client over its budget: how fast the router answers 429
 * (a KV read of the window, no write), as a ratio to a bare handler that
 * returns the same JSON, in-process, in the same run.
 *
 * Run: deno bench -A bench/rate_flood_bench.ts
 */

import { createRouter } from "../mod.ts";

const kv = await Deno.openKv(":memory:");
const router = createRouter({ locales: ["en"] });
const env = { RATE_LIMIT: kv, EDITOR_KEY_HASH: "", EDITOR_LOG: () => {} };
const info = { remoteAddr: { hostname: "192.0.2.1" } };
const request = () =>
  new Request("https://site.example/api/auth", {
    method: "POST",
    headers: { "content-type": "application/json", "content-length": "15" },
    body: '{"key":"wrong"}',
  });

// Spend the budget: 5 login attempts per 15 minutes.
for (let i = 0; i < 5; i++) await router.handle(request(), env, info);
const check = await router.handle(request(), env, info);
if (check.status !== 429) throw new Error(`expected 429, got ${check.status}`);
const body = await check.text();

Deno.bench({
  name: "bare handler returning the same 429 JSON",
  group: "flood",
  baseline: true,
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
  name: "router.handle answering 429 to a client over budget",
  group: "flood",
  async fn() {
    const response = await router.handle(request(), env, info);
    if (response.status !== 429) throw new Error("expected 429");
    await response.arrayBuffer();
  },
});
