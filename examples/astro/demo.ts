/**
 * `deno task astro-demo`: the Astro example edited in place. It copies this
 * folder to a temporary git repository, installs its npm packages there,
 * starts `astro dev` (through Deno, which runs Astro's Node code), and puts
 * `editor serve --proxy` in front of it, so that the pages, the overlay and
 * the routes share one origin. It prints the URL and a fresh site key. Ctrl-C
 * stops both servers and removes the folder; the repository's own files are
 * never written.
 *
 * The functions are also what the Astro tests use.
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

export {
  freePort,
  installPackages,
  PACKAGE_ROOT,
  spawnUntil,
  startEditorProxy,
} from "../dev_servers.ts";
export type { RunningProcess } from "../dev_servers.ts";

/** This example's folder. */
export const EXAMPLE: string = dirname(fileURLToPath(import.meta.url));

/** What a copy leaves out: installed, built and generated files. */
const SKIPPED = new Set(["node_modules", "dist", ".astro"]);

/**
 * Copies the example to a new temporary folder and makes it a git
 * repository with one commit (git identity set in that repository only).
 *
 * @returns the folder
 */
export function copyExample(): Promise<string> {
  return copyToRepository(
    EXAMPLE,
    "inpage-astro-",
    SKIPPED,
    "Astro example site",
  );
}

/** The environment Astro runs with: the helper's source, no telemetry. */
export const ASTRO_ENV: Record<string, string> = {
  INPAGE_EDITOR_ROOT: PACKAGE_ROOT,
  ASTRO_TELEMETRY_DISABLED: "1",
};

/**
 * Starts `astro dev` in a site folder on a free loopback port, again (up to
 * three times) when it restarts itself as it starts.
 *
 * @param root the site's folder, packages installed
 * @param echo whether to echo its output
 * @returns the running dev server
 */
export async function startAstroDev(
  root: string,
  echo = false,
): Promise<RunningProcess> {
  // Under Deno, Astro's watcher may take its own settings file, written as
  // it starts, for a change: Astro restarts, cuts its first content sync
  // short, and then answers every page with 404. Started again, it does not.
  for (let attempt = 1;; attempt++) {
    const astro = await spawnUntil(
      [
        "run",
        "-A",
        "npm:astro",
        "dev",
        "--host",
        "127.0.0.1",
        "--port",
        String(freePort()),
      ],
      {
        cwd: root,
        env: ASTRO_ENV,
        ready: /Local\s+(http:\/\/127\.0\.0\.1:\d+\/?)/,
        echo,
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    if (attempt === 3 || !/Restarting/.test(astro.output())) return astro;
    await astro.stop();
  }
}

/**
 * Runs `astro build` in a site folder: `dist/` holds the built site.
 *
 * @param root the site's folder, packages installed
 */
export function astroBuild(root: string): Promise<void> {
  return runBuild("astro build", ["run", "-A", "npm:astro", "build"], {
    cwd: root,
    env: ASTRO_ENV,
  });
}

if (import.meta.main) {
  await runDemo({
    name: "astro-demo",
    server: "astro dev",
    usage: `Usage: deno task astro-demo [--port 8787] [--hostname 127.0.0.1]

Copies examples/astro/ to a temporary git repository, installs its packages,
starts astro dev behind editor serve --proxy, and prints the URL and a fresh
site key. Ctrl-C stops both and removes the folder. --port 0 picks a free port.
`,
    copy: copyExample,
    install: true,
    start: (root) => startAstroDev(root),
  }, Deno.args);
}
