// The editor's routes and the overlay's files (/_inpage/) on Bun: Bun.serve,
// the rate windows and sessions in @deno/kv with Bun's own serializer, and
// every key check in a Worker, so a login (about 350 ms of argon2) never
// stalls other requests.
//
//   bunx jsr add @inpage/editor && bun add @deno/kv@0.14.0
//   EDITOR_KEY_HASH='$argon2id$…' GITHUB_TOKEN=… GITHUB_REPOSITORY=owner/site \
//     bun server.js
//
// Variables: PORT (8787), HOST (127.0.0.1), EDITOR_KV_PATH (a SQLite file;
// default in memory), GITHUB_BRANCH, GITHUB_API_URL, EDITOR_CLIENT_IP_HEADER
// (only behind a proxy that sets it). Bun's serializer is not V8's: a KV
// file written here is for Bun alone, and Bun cannot read Deno's or Node's.

import { deserialize as decodeV8, serialize as encodeV8 } from "node:v8";
import { openKv } from "@deno/kv";
import { createRouter } from "@inpage/editor";
import { serveOverlayAsset } from "@inpage/editor/overlay";

const router = createRouter({ locales: ["en", "fr"] });

/** One argon2id hash in a short-lived Worker (argon2_worker.js). */
function argon2InWorker(job) {
  const worker = new Worker(new URL("./argon2_worker.js", import.meta.url));
  return new Promise((resolve, reject) => {
    worker.onmessage = (event) => resolve(event.data);
    worker.onerror = (event) => reject(new Error(event.message));
    worker.postMessage(job);
  }).finally(() => worker.terminate());
}

const kv = await openKv(process.env.EDITOR_KV_PATH ?? ":memory:", {
  encodeV8,
  decodeV8,
});
const env = {
  RATE_LIMIT: kv,
  EDITOR_KEY_HASH: process.env.EDITOR_KEY_HASH,
  EDITOR_ARGON2: argon2InWorker,
  GITHUB_TOKEN: process.env.GITHUB_TOKEN,
  GITHUB_REPOSITORY: process.env.GITHUB_REPOSITORY,
  GITHUB_BRANCH: process.env.GITHUB_BRANCH,
  GITHUB_API_URL: process.env.GITHUB_API_URL,
  EDITOR_CLIENT_IP_HEADER: process.env.EDITOR_CLIENT_IP_HEADER,
};

const server = Bun.serve({
  port: Number(process.env.PORT ?? 8787),
  hostname: process.env.HOST ?? "127.0.0.1",
  async fetch(request, server) {
    const address = server.requestIP(request)?.address;
    return await serveOverlayAsset(request) ??
      router.handle(request, env, { remoteAddr: { hostname: address } });
  },
});
console.log(`Listening on http://${server.hostname}:${server.port}/`);

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, async () => {
    await server.stop();
    kv.close();
    process.exit(0);
  });
}
