/**
 * Reading a page through `router.handle()` with a valid session (rate
 * window in KV, session lookup, path whitelist, read and git blob version),
 * as a ratio to reading the same file and returning it as JSON directly, in
 * the same run.
 *
 * Run: deno bench -A bench/content_read_bench.ts
 */

import { join } from "node:path";
import { createRouter } from "../mod.ts";
import { openLocalCheckout } from "../lib/repository/local/mod.ts";
import { signedInEnv } from "../tests/support/helpers.ts";

const root = await Deno.makeTempDir({ prefix: "editor-read-bench-" });
const path = "src/content/pages/en/home.json";
const page = {
  title: "Home",
  sections: Array.from({ length: 40 }, (_, i) => ({
    id: `s${i}`,
    heading: `Section ${i}`,
    body: `Some <strong>rich</strong> text for section ${i}. `.repeat(8),
  })),
};
await Deno.mkdir(join(root, "src/content/pages/en"), { recursive: true });
await Deno.writeTextFile(
  join(root, path),
  JSON.stringify(page, null, 2) + "\n",
);

const kv = await Deno.openKv(":memory:");
const key = "bench key";
const router = createRouter({ locales: ["en"] });
const { env, cookie } = await signedInEnv(router, kv, key, {
  REPOSITORY: await openLocalCheckout({ root, commit: false }),
  EDITOR_LOG: () => {},
});
let client = 0;

Deno.bench({
  name: "read the file and return it as JSON directly",
  group: "content-read",
  baseline: true,
  async fn() {
    const content = await Deno.readTextFile(join(root, path));
    const response = new Response(JSON.stringify({ content }), {
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    await response.arrayBuffer();
  },
});

Deno.bench({
  name: "router.handle GET /api/content with a valid session",
  group: "content-read",
  async fn() {
    // A new client each time, as many editors would be: each request takes
    // a slot in its own rate window (a KV write), like a first read.
    const n = client++;
    const response = await router.handle(
      new Request(`http://127.0.0.1/api/content?path=${path}`, {
        headers: { cookie },
      }),
      env,
      {
        remoteAddr: {
          hostname: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
        },
      },
    );
    if (response.status !== 200) throw new Error(`status ${response.status}`);
    await response.arrayBuffer();
  },
});

globalThis.addEventListener("unload", () => {
  kv.close();
  Deno.removeSync(root, { recursive: true });
});
