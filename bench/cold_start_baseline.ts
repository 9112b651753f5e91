/**
 * The baseline of `bench/cold_start_bench.ts`: a bare `Deno.serve` that
 * answers every request with the same 404 JSON as the router's unknown path.
 *
 * @module
 */

Deno.serve({
  port: Number(Deno.env.get("PORT") ?? 8000),
  hostname: Deno.env.get("HOSTNAME") ?? "127.0.0.1",
  onListen: () => {},
}, () =>
  new Response(JSON.stringify({ error: "not_found" }), {
    status: 404,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
    },
  }));
