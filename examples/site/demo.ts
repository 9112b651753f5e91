/**
 * `deno task demo`: the example site, edited in place. It copies this folder
 * to a temporary git repository, then serves, on one origin, the site's
 * pages (rendered from their JSON on each request), the overlay under
 * `/_inpage/` and the editor's routes, with a fresh site key. Ctrl-C or
 * SIGTERM stops it and removes the folder; the project's own files are never
 * written.
 *
 * ```sh
 * npx --yes deno@2.9.6 task demo              # http://127.0.0.1:8787/
 * npx --yes deno@2.9.6 task demo --port 0     # a free port
 * ```
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { commitAll, copyTree } from "../../cli/demo_site.ts";
import { startServe } from "../../cli/serve.ts";
import { ServeError } from "../../cli/site_checkout.ts";
import { renderSite } from "./render.ts";
import { randomToken } from "../../lib/access/random_token.ts";
import { hashKey } from "../../lib/access/site_key.ts";
import { listenProblem, parseDemoArgs } from "../demo_args.ts";

/** This example's folder. */
export const EXAMPLE: string = dirname(fileURLToPath(import.meta.url));

/**
 * Copies the example site to a new temporary folder and makes it a git
 * repository with one commit (its git identity set in that repository only).
 *
 * @returns the folder
 */
export async function copyExampleSite(): Promise<string> {
  const root = await Deno.realPath(
    await Deno.makeTempDir({ prefix: "inpage-demo-" }),
  );
  try {
    await copyTree(EXAMPLE, root);
    await commitAll(root, "Example site");
  } catch (error) {
    await Deno.remove(root, { recursive: true });
    throw error;
  }
  return root;
}

if (import.meta.main) {
  const usage = `Usage: deno task demo [--port 8787] [--hostname 127.0.0.1]

Copies examples/site/ to a temporary git repository and serves its pages, the
overlay (/_inpage/) and the editor's routes on one origin, with a fresh site
key. Ctrl-C stops it and removes the folder. --port 0 picks a free port.
`;
  const args = parseDemoArgs(Deno.args);
  if (typeof args === "string") {
    console.error(`demo: ${args}\n\n${usage}`);
    Deno.exit(1);
  }
  if (args.help) {
    console.log(usage);
    Deno.exit(0);
  }
  const { port, hostname } = args;
  const problem = listenProblem(hostname, port);
  if (problem) {
    console.error(`demo: ${problem}`);
    Deno.exit(1);
  }
  const root = await copyExampleSite();
  const remove = () => Deno.remove(root, { recursive: true }).catch(() => {});
  // A fresh key each run, whatever the environment holds, told below with
  // the address on one stream (none with named editors: theirs are used).
  const named = Boolean(Deno.env.get("EDITOR_KEYS"));
  const key = named ? undefined : randomToken(18);
  const keyHash = key === undefined ? undefined : await hashKey(key);
  const encoder = new TextEncoder();
  const write = (file: typeof Deno.stdout) => (text: string) =>
    void file.writeSync(encoder.encode(text));
  let running;
  try {
    running = await startServe({
      repo: root,
      port,
      hostname,
      commit: true,
      kv: join(root, ".git", "editor-kv.sqlite3"),
      render: (request) => renderSite(request, root),
    }, {
      out: write(Deno.stdout),
      err: write(Deno.stderr),
      getEnv: (name) =>
        name === "EDITOR_KEY_HASH" ? keyHash : Deno.env.get(name),
    });
  } catch (error) {
    await remove();
    if (!(error instanceof ServeError)) throw error;
    console.error(`demo: ${error.message}`);
    Deno.exit(1);
  }
  console.error(
    `Demo site copied to ${root} (a git repository, removed when this stops)\nOpen ${running.url}en/?edit and log in${
      key === undefined
        ? " with a named editor's key"
        : `: the site key for this run is ${key}`
    }\nCtrl-C stops.`,
  );
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    console.error("Stopping");
    void running.shutdown();
  };
  const signals: Deno.Signal[] = Deno.build.os === "windows"
    ? ["SIGINT", "SIGBREAK"]
    : ["SIGINT", "SIGTERM"];
  for (const signal of signals) Deno.addSignalListener(signal, stop);
  await running.finished;
  await remove();
  Deno.exit(0);
}
