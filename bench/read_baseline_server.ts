/**
 * The baseline of `bench/read_http_bench.ts`: a bare `Deno.serve` on
 * loopback that reads the page named by `?path=` from the site folder and
 * answers it as JSON, with no session, no rate window and no version. It
 * prints its URL, as `editor serve` does.
 *
 * Run: deno run -A bench/read_baseline_server.ts SITE_FOLDER
 *
 * @module
 */

import { join } from "node:path";
import { servePeer } from "./peer_server.ts";

const root = Deno.args[0] ?? ".";
servePeer("baseline", async (request) => {
  const path = new URL(request.url).searchParams.get("path") ?? "";
  const content = await Deno.readTextFile(join(root, path));
  return new Response(JSON.stringify({ content }), {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
    },
  });
});
