/**
 * Support for the overlay's browser tests: the example site copied to a
 * temporary git repository and served on one origin with the routes and
 * the overlay's built files, Chromium on a fresh profile, and a folder for
 * the screenshots kept as artefacts.
 *
 * @module
 */

import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { copyExampleSite } from "../../examples/site/demo.ts";
import { renderSite } from "../../examples/site/render.ts";
import { createRouter } from "../../mod.ts";
import { serveOverlayAsset } from "../../overlay/assets.ts";
import { openLocalCheckout } from "../../lib/repository/local/mod.ts";
import { fastHash } from "../support/helpers.ts";

/** Debian's Chromium, installed by tests/setup.ts. */
export const CHROMIUM = "/usr/bin/chromium";

/** Chromium's flags for tests: headless, no network of its own. */
export const FLAGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Where screenshots are kept: `tests/browser/artifacts/` (git-ignored). */
export const ARTIFACTS: string = new URL("./artifacts/", import.meta.url)
  .pathname;

/** The example's English home page file. */
export const EN_HOME = "src/content/pages/en/home.json";

/** A running copy of the example site. */
export interface EditingSite extends AsyncDisposable {
  /** The origin with a trailing slash, such as `http://127.0.0.1:41234/`. */
  url: string;
  /** The site key of this run. */
  key: string;
  /** The temporary git repository. */
  root: string;
  /** Every request path the server received, in order. */
  requests: string[];
  /** Runs git in the repository and answers its standard output. */
  git(...args: string[]): Promise<string>;
  /** Reads a page file of the repository as an object. */
  page(path?: string): Promise<Record<string, unknown>>;
}

/**
 * Copies the example site to a temporary git repository and serves it, the
 * routes (over a real KV and the local checkout) and the overlay's built
 * files on one loopback origin, as `deno task demo` does.
 *
 * @returns the running site, stopped and removed on dispose
 */
export async function startEditingSite(): Promise<EditingSite> {
  const root = await copyExampleSite();
  const key = `key-${crypto.randomUUID()}`;
  const kv = await Deno.openKv(":memory:");
  const router = createRouter({ locales: ["en", "fr"] });
  const env = {
    RATE_LIMIT: kv,
    EDITOR_KEY_HASH: await fastHash(key),
    REPOSITORY: await openLocalCheckout({ root }),
    EDITOR_LOG: () => {},
  };
  const requests: string[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (request, info) => {
      const { pathname, search } = new URL(request.url);
      requests.push(pathname + search);
      if (router.find(pathname)) return router.handle(request, env, info);
      return await serveOverlayAsset(request) ??
        await renderSite(request, root) ??
        Response.json({ error: "not_found" }, { status: 404 });
    },
  );
  const git = async (...args: string[]) => {
    const output = await new Deno.Command("git", {
      args: ["-C", root, ...args],
      stdout: "piped",
      stderr: "piped",
    }).output();
    return new TextDecoder().decode(output.stdout);
  };
  return {
    url: `http://127.0.0.1:${server.addr.port}/`,
    key,
    root,
    requests,
    git,
    page: async (path = EN_HOME) =>
      JSON.parse(await Deno.readTextFile(join(root, path))),
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      kv.close();
      await Deno.remove(root, { recursive: true });
    },
  };
}

/**
 * Launches Chromium headless.
 *
 * @returns the browser, closed on dispose
 */
export async function launchChromium(): Promise<Browser & AsyncDisposable> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...FLAGS],
  });
  return Object.assign(browser, {
    [Symbol.asyncDispose]: () => browser.close(),
  });
}
