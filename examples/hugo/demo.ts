/**
 * `deno task hugo-demo`: the Hugo example edited in place, no JavaScript
 * framework in the site. It copies this folder to a temporary git
 * repository, starts `hugo server` (Debian's `hugo`), and puts
 * `editor serve --proxy --template-syntax refuse` in front of it, so that
 * the pages, the overlay and the routes share one origin, Hugo's live reload
 * included. It prints the URL and a fresh site key. Ctrl-C stops both
 * servers and removes the folder; the repository's own files are never
 * written.
 *
 * The functions are also what the Hugo tests use.
 *
 * @module
 */

import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import {
  copyToRepository,
  freePort,
  runBuild,
  runDemo,
  type RunningProcess,
  spawnUntil,
} from "../dev_servers.ts";

/** This example's folder. */
export const EXAMPLE: string = dirname(fileURLToPath(import.meta.url));

/** What a copy leaves out: built and generated files. */
const SKIPPED = new Set(["_site", "resources", ".hugo_build.lock"]);

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
    "inpage-hugo-",
    SKIPPED,
    "Hugo example site",
  );
}

/**
 * Starts `hugo server` in a site folder on a free loopback port, its pages
 * naming the editor's origin (links and the live reload's WebSocket, which
 * the editor's proxy passes on).
 *
 * @param root the site's folder
 * @param editorPort the port the editor listens on, in front of it
 * @param echo whether to echo its output
 * @returns the running dev server
 */
export async function startHugoServer(
  root: string,
  editorPort: number,
  echo = false,
): Promise<RunningProcess> {
  const port = freePort();
  const hugo = await spawnUntil(
    [
      "server",
      "--bind",
      "127.0.0.1",
      "--port",
      String(port),
      "--baseURL",
      `http://127.0.0.1:${editorPort}/`,
      "--appendPort=false",
      "--liveReloadPort",
      String(editorPort),
      "--disableFastRender",
    ],
    {
      cwd: root,
      program: "hugo",
      ready: /(Web Server is available)/,
      echo,
      timeoutMs: 60_000,
    },
  );
  return { ...hugo, url: `http://127.0.0.1:${port}/` };
}

/**
 * Runs `hugo` in a site folder: `_site/` holds the built site.
 *
 * @param root the site's folder
 */
export function hugoBuild(root: string): Promise<void> {
  return runBuild("hugo", [], { cwd: root, program: "hugo" });
}

if (import.meta.main) {
  await runDemo({
    name: "hugo-demo",
    server: "hugo server",
    usage: `Usage: deno task hugo-demo [--port 8787] [--hostname 127.0.0.1]

Copies examples/hugo/ to a temporary git repository, starts hugo server
(Debian's hugo) behind editor serve --proxy (with --template-syntax refuse),
and prints the URL and a fresh site key. Ctrl-C stops both and removes the
folder. --port 0 picks a free port.
`,
    copy: copyExample,
    install: false,
    start: (root, editorPort) => startHugoServer(root, editorPort),
    editorArgs: EDITOR_ARGS,
  }, Deno.args);
}
