/**
 * The production entry point on Deno Deploy: the routes over GitHub, with
 * the app's Deno KV for sessions and rate windows, and the overlay's files
 * under `/_inpage/` (compressed, cached by their hashed names).
 *
 * On Deno Deploy, provision a Deno KV database (the organization's
 * Databases) and assign it to the app: `Deno.openKv()` opens it, one logical
 * database per timeline (production, each Git branch, each preview), so a
 * session opened on a preview is not one in production. Its transactions
 * are strongly consistent across the app's isolates and regions: sessions
 * and rate windows stay exact however many isolates serve the app.
 *
 * Set these variables on the app:
 * - `EDITOR_KEY_HASH`: the PHC string printed by `deno task editor hash-key`
 * - `EDITOR_KEYS` (optional): named editors, the JSON object whose entries
 *   `deno task editor hash-key --name <id>` prints
 * - `GITHUB_TOKEN`: a fine-grained token with only "Contents: read and write"
 *   on the one repository
 * - `GITHUB_REPOSITORY`: `owner/name`
 * - `GITHUB_BRANCH` (optional, default `main`), `GITHUB_API_URL` (optional,
 *   default `https://api.github.com`; set it for GitHub Enterprise Server)
 * - `EDITOR_CLIENT_IP_HEADER` (optional): a header set by a trusted proxy
 * - `EDITOR_PREVIEW_SECRET`: 32 characters or more, random, for the preview
 *   links of reviews (`openssl rand -base64 32`)
 *
 * Scheduled reviews are published by `Deno.cron`, every minute.
 *
 * Locally: `deno run -A examples/deno-deploy/main.ts`, with `PORT`,
 * `HOSTNAME` and `EDITOR_KV_PATH` (a SQLite file) if the defaults do not suit.
 *
 * @module
 */

import {
  createRouter,
  type Env,
  lazyKv,
  runSchedule,
  warnMissingVariables,
} from "@inpage/editor";
import { serveOverlayAsset } from "@inpage/editor/overlay";

// The only site decision: the languages of src/content/pages/{language}/.
const router = createRouter({ locales: ["en", "fr"] });

const env: Env = {
  // Opened by the first request that needs it. No path on Deno Deploy: the
  // app's KV. Locally: a SQLite file.
  RATE_LIMIT: lazyKv(() => Deno.openKv(Deno.env.get("EDITOR_KV_PATH"))),
  EDITOR_KEY_HASH: Deno.env.get("EDITOR_KEY_HASH"),
  EDITOR_KEYS: Deno.env.get("EDITOR_KEYS"),
  GITHUB_TOKEN: Deno.env.get("GITHUB_TOKEN"),
  GITHUB_REPOSITORY: Deno.env.get("GITHUB_REPOSITORY"),
  GITHUB_BRANCH: Deno.env.get("GITHUB_BRANCH"),
  GITHUB_API_URL: Deno.env.get("GITHUB_API_URL"),
  EDITOR_CLIENT_IP_HEADER: Deno.env.get("EDITOR_CLIENT_IP_HEADER"),
  EDITOR_PREVIEW_SECRET: Deno.env.get("EDITOR_PREVIEW_SECRET"),
};

// Once at start-up: the names of missing variables (never their values).
warnMissingVariables(env);

// Scheduled jobs are declared here, at the top level and before
// Deno.serve: Deno Deploy finds the Deno.cron() calls of an app when it
// deploys it. Scheduled reviews are published every minute (locally:
// --unstable-cron).
if (typeof Deno.cron === "function") {
  Deno.cron("inpage scheduled reviews", "* * * * *", async () => {
    await runSchedule(env);
  });
}

Deno.serve(
  {
    port: Number(Deno.env.get("PORT") ?? 8000),
    hostname: Deno.env.get("HOSTNAME") ?? "0.0.0.0",
    onListen: ({ hostname, port }) =>
      console.log(`Listening on http://${hostname}:${port}/`),
  },
  // The overlay's files under /_inpage/ (compressed, cached), then the routes.
  async (request, info) =>
    await serveOverlayAsset(request) ?? router.handle(request, env, info),
);
