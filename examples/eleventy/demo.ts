/**
 * `deno task eleventy-demo`: the Eleventy example edited in place. It copies
 * this folder to a temporary git repository, installs its npm packages
 * there, starts `eleventy --serve` (through Deno, which runs Eleventy's
 * Node code and reads the regions helper's TypeScript), and puts
 * `editor serve --proxy --template-syntax refuse` in front of it, so that
 * the pages, the overlay and the routes share one origin. It prints the URL
 * and a fresh site key. Ctrl-C stops both servers and removes the folder;
 * the repository's own files are never written.
 *
 * The functions are also what the Eleventy tests use.
 *
 * @module
 */

import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import {
  copyToRepository,
  freePort,
  PACKAGE_ROOT,
  runBuild,
  runDemo,
  type RunningProcess,
  spawnUntil,
} from "../dev_servers.ts";

/** This example's folder. */
export const EXAMPLE: string = dirname(fileURLToPath(import.meta.url));

/** What a copy leaves out: installed and built files. */
const SKIPPED = new Set(["node_modules", "_site"]);

/** The environment Eleventy runs with: where the regions helper is. */
export const ELEVENTY_ENV: Record<string, string> = {
  INPAGE_EDITOR_ROOT: PACKAGE_ROOT,
};

/**
 * The arguments of `editor serve` for this site: it renders page strings as
 * markdown and text only, and refuses template syntax all the same.
 */
export const EDITOR_ARGS: string[] = ["--template-syntax", "refuse"];

/**
 * Copies the example to a new temporary git repository.
 *
 * @returns the folder
 */
export function copyExample(): Promise<string> {
  return copyToRepository(
    EXAMPLE,
    "inpage-eleventy-",
    SKIPPED,
    "Eleventy example site",
  );
}

/**
 * Starts `eleventy --serve` in a site folder on a free loopback port.
 *
 * @param root the site's folder, packages installed
 * @param echo whether to echo its output
 * @returns the running dev server
 */
export function startEleventyServe(
  root: string,
  echo = false,
): Promise<RunningProcess> {
  return spawnUntil(
    [
      "run",
      "-A",
      "npm:@11ty/eleventy",
      "--serve",
      "--port",
      String(freePort()),
    ],
    {
      cwd: root,
      env: ELEVENTY_ENV,
      ready: /Server at (http:\/\/[^\s]+)/,
      echo,
      timeoutMs: 120_000,
    },
  );
}

/**
 * Runs `eleventy` in a site folder: `_site/` holds the built site.
 *
 * @param root the site's folder, packages installed
 */
export function eleventyBuild(root: string): Promise<void> {
  return runBuild("eleventy", ["run", "-A", "npm:@11ty/eleventy"], {
    cwd: root,
    env: ELEVENTY_ENV,
  });
}

if (import.meta.main) {
  await runDemo({
    name: "eleventy-demo",
    server: "eleventy --serve",
    usage: `Usage: deno task eleventy-demo [--port 8787] [--hostname 127.0.0.1]

Copies examples/eleventy/ to a temporary git repository, installs its
packages, starts eleventy --serve behind editor serve --proxy (with
--template-syntax refuse), and prints the URL and a fresh site key. Ctrl-C
stops both and removes the folder. --port 0 picks a free port.
`,
    copy: copyExample,
    install: true,
    start: (root) => startEleventyServe(root),
    editorArgs: EDITOR_ARGS,
  }, Deno.args);
}
