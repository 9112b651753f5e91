// The editor on Vercel: what every function of api/ serves (each route's
// file re-exports it; files starting with _ are not functions). A Web
// handler (`export default { fetch }`) for the routes under /api/ and, through
// the rewrite in vercel.json, the overlay's files under /_inpage/, with the
// rate windows and sessions in Redis (REDIS_URL: Redis from the Vercel
// Marketplace, or any Redis 6 or later that runs Lua scripts).
//
//   npx jsr add @inpage/editor
//
// Set the project's variables: REDIS_URL, EDITOR_KEY_HASH (or EDITOR_KEYS),
// GITHUB_TOKEN, GITHUB_REPOSITORY, and when needed GITHUB_BRANCH and
// GITHUB_API_URL.

import { Worker } from "node:worker_threads";
import { createRouter, warnMissingVariables } from "@inpage/editor";
import { serveOverlayAsset } from "@inpage/editor/overlay";
import { openRedisKv } from "@inpage/editor/redis";

// The only site decision: the languages of src/content/pages/{language}/.
const router = createRouter({ locales: ["en", "fr"] });

/**
 * One argon2id hash in a short-lived worker thread: an instance serves
 * several requests at once, and a login (about 350 ms) stalls none of them.
 */
function argon2InThread(job) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./_argon2_thread.js", import.meta.url), {
      workerData: job,
    });
    worker.once("message", resolve);
    worker.once("error", reject);
    worker.once(
      "exit",
      (code) => reject(new Error(`argon2 thread exit ${code}`)),
    );
  });
}

const { env: variables } = process;
const env = {
  // Nothing connects before the first request that needs it.
  RATE_LIMIT: variables.REDIS_URL
    ? openRedisKv({ url: variables.REDIS_URL })
    : undefined,
  EDITOR_KEY_HASH: variables.EDITOR_KEY_HASH,
  EDITOR_KEYS: variables.EDITOR_KEYS,
  EDITOR_ARGON2: argon2InThread,
  GITHUB_TOKEN: variables.GITHUB_TOKEN,
  GITHUB_REPOSITORY: variables.GITHUB_REPOSITORY,
  GITHUB_BRANCH: variables.GITHUB_BRANCH,
  GITHUB_API_URL: variables.GITHUB_API_URL,
  // Vercel puts the client's address in x-real-ip, replacing any a client
  // sent.
  EDITOR_CLIENT_IP_HEADER: "x-real-ip",
};

// Once per instance: the names of missing variables (never their values).
warnMissingVariables(env);

export default {
  async fetch(request) {
    return await serveOverlayAsset(request) ?? router.handle(request, env);
  },
};
