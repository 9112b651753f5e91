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

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { commitAll, copyTree } from "../../cli/demo_site.ts";
import { listenProblem, parseDemoArgs } from "../demo_args.ts";

/** This example's folder. */
export const EXAMPLE: string = dirname(fileURLToPath(import.meta.url));
/** The @inpage/editor repository holding it. */
export const PACKAGE_ROOT: string = join(EXAMPLE, "..", "..");

/** What a copy leaves out: installed, built and generated files. */
const SKIPPED = new Set(["node_modules", "dist", ".astro"]);

/**
 * Copies the example to a new temporary folder and makes it a git
 * repository with one commit (git identity set in that repository only).
 *
 * @returns the folder
 */
export async function copyExample(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "inpage-astro-" });
  await copyTree(EXAMPLE, root, SKIPPED);
  await commitAll(root, "Astro example site");
  return root;
}

/**
 * Installs the site's npm packages with npm, from its lock file
 * (`package-lock.json` is left as it is). Astro's compiler names optional
 * bindings for every platform, some of which the registry lacks: npm skips
 * those, `deno install` refuses them, so npm installs and Deno runs.
 *
 * @param root the site's folder
 * @returns the time it took, in milliseconds
 */
export async function installPackages(root: string): Promise<number> {
  const start = performance.now();
  const npm = Deno.build.os === "windows" ? "npm.cmd" : "npm";
  const { success, stderr } = await new Deno.Command(npm, {
    args: [
      "install",
      "--no-save",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      "--loglevel=error",
    ],
    cwd: root,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!success) {
    throw new Error(
      `npm install failed in ${root}: ${new TextDecoder().decode(stderr)}`,
    );
  }
  return performance.now() - start;
}

/** A running child process that printed its URL. */
export interface RunningProcess extends AsyncDisposable {
  /** The URL it printed, ending with `/`. */
  url: string;
  /** Everything printed so far, both streams. */
  output: () => string;
  /** Stops it (SIGTERM unless told) and waits for its exit. */
  stop: (signal?: Deno.Signal) => Promise<void>;
  /** From now on, echoes what it prints. */
  follow: () => void;
}

/**
 * Spawns a Deno child process and waits until its output matches `ready`.
 *
 * @param args the arguments after the Deno executable
 * @param options its folder, environment, the pattern whose first group is
 *   the URL, whether to echo its output here, and how long to wait
 * @returns the running process
 */
export async function spawnUntil(
  args: string[],
  options: {
    cwd: string;
    env?: Record<string, string>;
    ready: RegExp;
    echo?: boolean;
    timeoutMs?: number;
  },
): Promise<RunningProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: options.cwd,
    env: { NO_COLOR: "1", ...options.env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let text = "";
  let echoing = options.echo ?? false;
  const pump = async (
    stream: ReadableStream<Uint8Array>,
    echo: { write(bytes: Uint8Array): Promise<number> },
  ) => {
    for await (const chunk of stream) {
      text += new TextDecoder().decode(chunk);
      if (echoing) await echo.write(chunk);
    }
  };
  const pumps = Promise.all([
    pump(child.stdout, Deno.stdout),
    pump(child.stderr, Deno.stderr),
  ]);
  let exited = false;
  const status = child.status.finally(() => exited = true);
  const stop = async (signal: Deno.Signal = "SIGTERM") => {
    if (!exited) {
      try {
        child.kill(signal);
      } catch {
        // It ended meanwhile.
      }
    }
    await status;
    await pumps;
  };
  // deno-lint-ignore no-control-regex
  const plain = () => text.replace(/\u001b\[[0-9;]*m/g, "");
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let url: string | undefined;
  while (!(url = options.ready.exec(plain())?.[1])) {
    if (exited || Date.now() > deadline) {
      await stop();
      throw new Error(`${args.join(" ")} did not start:\n${plain()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: url.endsWith("/") ? url : url + "/",
    output: plain,
    stop,
    follow: () => void (echoing = true),
    [Symbol.asyncDispose]: () => stop(),
  };
}

/** A free loopback port (closed again before it is returned). */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
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
export async function astroBuild(root: string): Promise<void> {
  const { success, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "npm:astro", "build"],
    cwd: root,
    env: { NO_COLOR: "1", ...ASTRO_ENV },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!success) {
    const decoder = new TextDecoder();
    throw new Error(
      `astro build failed:\n${decoder.decode(stdout)}\n${
        decoder.decode(stderr)
      }`,
    );
  }
}

/**
 * Starts `editor serve --repo root --proxy url` from this repository.
 *
 * @param root the site's checkout
 * @param target the dev server's URL
 * @param options the port, extra arguments and environment, and echo
 * @returns the running editor
 */
export function startEditorProxy(
  root: string,
  target: string,
  options: {
    port?: number;
    args?: string[];
    env?: Record<string, string>;
    echo?: boolean;
  } = {},
): Promise<RunningProcess> {
  return spawnUntil(
    [
      "run",
      "-A",
      join(PACKAGE_ROOT, "cli.ts"),
      "serve",
      "--repo",
      root,
      "--proxy",
      target,
      "--port",
      String(options.port ?? 0),
      ...options.args ?? [],
    ],
    {
      cwd: PACKAGE_ROOT,
      env: options.env ?? {},
      ready: /listening on (http:\/\/\S+\/)/,
      echo: options.echo ?? false,
    },
  );
}

if (import.meta.main) {
  const usage =
    `Usage: deno task astro-demo [--port 8787] [--hostname 127.0.0.1]

Copies examples/astro/ to a temporary git repository, installs its packages,
starts astro dev behind editor serve --proxy, and prints the URL and a fresh
site key. Ctrl-C stops both and removes the folder. --port 0 picks a free port.
`;
  const args = parseDemoArgs(Deno.args);
  if (typeof args === "string") {
    console.error(`astro-demo: ${args}\n\n${usage}`);
    Deno.exit(1);
  }
  if (args.help) {
    console.log(usage);
    Deno.exit(0);
  }
  const problem = listenProblem(args.hostname, args.port);
  if (problem) {
    console.error(`astro-demo: ${problem}`);
    Deno.exit(1);
  }
  const root = await copyExample();
  const remove = () => Deno.remove(root, { recursive: true }).catch(() => {});
  console.log(`Site copied to ${root} (a git repository)`);
  console.log("Installing its npm packages…");
  let astro: RunningProcess;
  try {
    const ms = await installPackages(root);
    console.log(
      `Installed in ${(ms / 1000).toFixed(1)} s; starting astro dev…`,
    );
    astro = await startAstroDev(root);
  } catch (error) {
    await remove();
    console.error(`astro-demo: ${firstLine(error)}`);
    Deno.exit(1);
  }
  let editor: RunningProcess;
  try {
    editor = await startEditorProxy(root, astro.url, {
      port: args.port,
      args: [
        "--hostname",
        args.hostname,
        "--kv",
        join(root, ".git", "editor-kv.sqlite3"),
      ],
    });
  } catch (error) {
    await astro.stop();
    await remove();
    // editor serve says what went wrong in one line of its own ("editor: …").
    const said = /^editor: (.+)$/m.exec((error as Error).message)?.[1];
    console.error(`astro-demo: ${said ?? firstLine(error)}`);
    Deno.exit(1);
  }
  const key = /site key for this run is (\S+)/.exec(editor.output())?.[1];
  console.log(`
astro dev:      ${astro.url} (behind the editor)
Open:           ${editor.url}en/?edit
Site key:       ${key ?? "(from EDITOR_KEY_HASH)"}
Repository:     ${root} (git -C ${root} log)
Ctrl-C stops both servers and removes the folder.
`);
  editor.follow();
  const done = async () => {
    await editor.stop();
    await astro.stop();
    await remove();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", done);
  Deno.addSignalListener("SIGTERM", done);
}

/** The first line of what was thrown. */
function firstLine(error: unknown): string {
  return String(error instanceof Error ? error.message : error).split("\n")[0]
    ?.trim() || "failed";
}
