/**
 * The production entry point of the Astro example on Deno Deploy: the built
 * site (`dist/`, made by `astro build`), the overlay's files under
 * `/_inpage/` and the four routes over GitHub, all on one origin.
 *
 * Publishing commits the page file to GitHub; the site's own CI
 * (`.github/workflows/deploy.yml`) then checks the pages with `editor check`,
 * rebuilds `dist/` and deploys this entry again.
 *
 * Set these variables in the Deno Deploy project (as for
 * `examples/deno-deploy/main.ts`): `EDITOR_KEY_HASH`, `GITHUB_TOKEN`,
 * `GITHUB_REPOSITORY`, and when needed `GITHUB_BRANCH`, `GITHUB_API_URL`,
 * `EDITOR_CLIENT_IP_HEADER`.
 *
 * Locally, after `astro build`: `deno run -A examples/astro/deploy.ts`, with
 * `PORT`, `HOSTNAME`, `EDITOR_KV_PATH` (a SQLite file) and `SITE_DIR` (the
 * built site, default `dist/` beside this file) if the defaults do not suit.
 *
 * @module
 */

import { createRouter, type Env, warnMissingVariables } from "@inpage/editor";
import { notFoundResponse, serveStaticFile } from "@inpage/editor/cli";
import { serveOverlayAsset, withOverlayPreload } from "@inpage/editor/overlay";

// The only site decision: the languages of src/content/pages/{language}/.
const router = createRouter({ locales: ["en", "fr"] });

const site = Deno.env.get("SITE_DIR") ??
  new URL("./dist/", import.meta.url).pathname;

// No path on Deno Deploy: the managed KV. Locally: a SQLite file.
const kv = await Deno.openKv(Deno.env.get("EDITOR_KV_PATH"));

const env: Env = {
  RATE_LIMIT: kv,
  EDITOR_KEY_HASH: Deno.env.get("EDITOR_KEY_HASH"),
  EDITOR_KEYS: Deno.env.get("EDITOR_KEYS"),
  GITHUB_TOKEN: Deno.env.get("GITHUB_TOKEN"),
  GITHUB_REPOSITORY: Deno.env.get("GITHUB_REPOSITORY"),
  GITHUB_BRANCH: Deno.env.get("GITHUB_BRANCH"),
  GITHUB_API_URL: Deno.env.get("GITHUB_API_URL"),
  EDITOR_CLIENT_IP_HEADER: Deno.env.get("EDITOR_CLIENT_IP_HEADER"),
};

// Once at start-up: the names of missing variables (never their values).
warnMissingVariables(env);

Deno.serve(
  {
    port: Number(Deno.env.get("PORT") ?? 8000),
    hostname: Deno.env.get("HOSTNAME") ?? "0.0.0.0",
    onListen: ({ hostname, port }) =>
      console.log(`Listening on http://${hostname}:${port}/`),
  },
  async (request, info) => {
    const { pathname } = new URL(request.url);
    if (router.find(pathname)) return router.handle(request, env, info);
    const asset = await serveOverlayAsset(request);
    if (asset) return asset;
    // An editor's page names the overlay's entry to fetch beside it.
    const file = await serveStaticFile(request, site);
    return file ? await withOverlayPreload(request, file) : notFoundResponse();
  },
);
