/**
 * Support for the Astro example's tests: Chromium, the page files of a copy
 * of the example, and the Deno Deploy entry started for real.
 *
 * @module
 */

import { CHROMIUM, FLAGS } from "../support/chromium.ts";
import { recipeFlags } from "../support/deploy_entry.ts";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";
import {
  PACKAGE_ROOT,
  type RunningProcess,
  spawnUntil,
} from "../../examples/astro/demo.ts";

/** A browser context on a fresh profile, closed and removed on dispose. */
export interface Browser extends AsyncDisposable {
  /** The context. */
  context: BrowserContext;
}

/**
 * Launches Chromium headless on a fresh profile in `work`.
 *
 * @param work a temporary folder of the test
 * @returns the context
 */
export async function launchChromium(work: string): Promise<Browser> {
  const context = await chromium.launchPersistentContext(
    join(work, "profile"),
    {
      executablePath: CHROMIUM,
      headless: true,
      args: [...FLAGS],
      viewport: { width: 1100, height: 900 },
    },
  );
  return {
    context,
    [Symbol.asyncDispose]: async () => {
      await context.close();
    },
  };
}

/** Where screenshots are kept: `tests/browser/artifacts/` (git-ignored). */
export const ARTIFACTS: string = new URL("./artifacts/", import.meta.url)
  .pathname;
await Deno.mkdir(ARTIFACTS, { recursive: true });

/** The English home page of the example. */
export const EN_HOME = "src/content/pages/en/home.json";

/**
 * Every page file of a site, by path from the site's root.
 *
 * @param root the site's folder
 * @returns the files' text
 */
export async function pageFiles(root: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const pages = join(root, "src/content/pages");
  for await (const locale of Deno.readDir(pages)) {
    if (!locale.isDirectory) continue;
    for await (const file of Deno.readDir(join(pages, locale.name))) {
      if (!file.name.endsWith(".json")) continue;
      const path = `src/content/pages/${locale.name}/${file.name}`;
      files[path] = await Deno.readTextFile(join(root, path));
    }
  }
  return files;
}

/**
 * Starts examples/astro/deploy.ts for real on a free loopback port.
 *
 * @param env its environment (SITE_DIR, EDITOR_KEY_HASH, GITHUB_*, …)
 * @returns the running entry point
 */
export async function startDeployEntry(
  env: Record<string, string>,
): Promise<RunningProcess> {
  return await spawnUntil(
    [
      "run",
      "-A",
      "--quiet",
      ...await recipeFlags(join(PACKAGE_ROOT, "examples/astro")),
      "--config",
      "deno.json",
      "examples/astro/deploy.ts",
    ],
    {
      cwd: PACKAGE_ROOT,
      env: { PORT: "0", HOSTNAME: "127.0.0.1", ...env },
      ready: /Listening on (http:\/\/127\.0\.0\.1:\d+\/)/,
    },
  );
}

/**
 * Waits until `check` returns true, polling.
 *
 * @param check the condition
 * @param what what is awaited, for the failure message
 * @param timeoutMs how long at most
 */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!await check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
