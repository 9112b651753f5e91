/**
 * What the framework demos share (`deno task astro-demo`, `eleventy-demo`,
 * `hugo-demo`) and what their tests use: an example copied to a temporary
 * git repository, its npm packages installed from its lock file, child
 * processes started until they print their URL, and `editor serve --proxy`
 * in front of a site's dev server, so that the pages, the overlay and the
 * routes share one origin.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { commitAll, copyTree } from "../cli/demo_site.ts";
import { listenProblem, parseDemoArgs } from "./demo_args.ts";

/** The @inpage/editor repository holding the examples. */
export const PACKAGE_ROOT: string = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
);

/**
 * Copies an example to a new temporary folder and makes it a git
 * repository with one commit (git identity set in that repository only).
 *
 * @param example the example's folder
 * @param prefix the temporary folder's prefix, such as `inpage-astro-`
 * @param skipped names left out at every depth (installed, built files)
 * @param message the commit's message
 * @returns the folder
 */
export async function copyToRepository(
  example: string,
  prefix: string,
  skipped: ReadonlySet<string>,
  message: string,
): Promise<string> {
  const root = await Deno.makeTempDir({ prefix });
  await copyTree(example, root, skipped);
  await commitAll(root, message);
  return root;
}

/**
 * Installs a site's npm packages with npm, from its lock file
 * (`package-lock.json` is left as it is). npm installs, Deno runs: npm skips
 * the optional bindings a registry lacks, which `deno install` refuses.
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
 * Spawns a child process and waits until its output matches `ready`.
 *
 * @param args the arguments after the program (Deno unless `program`)
 * @param options its folder, environment, the pattern whose first group is
 *   the URL, whether to echo its output here, how long to wait, and the
 *   program when it is not Deno
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
    program?: string;
  },
): Promise<RunningProcess> {
  const child = new Deno.Command(options.program ?? Deno.execPath(), {
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

/**
 * Runs a build to its end (`astro build`, `eleventy`, `hugo`).
 *
 * @param what the build, in words, for the error
 * @param args the arguments after the program (Deno unless `program`)
 * @param options its folder, environment and program
 * @throws {Error} with what it printed, when it fails
 */
export async function runBuild(
  what: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; program?: string },
): Promise<void> {
  const { success, stdout, stderr } = await new Deno.Command(
    options.program ?? Deno.execPath(),
    {
      args,
      cwd: options.cwd,
      env: { NO_COLOR: "1", ...options.env },
      stdout: "piped",
      stderr: "piped",
    },
  ).output();
  if (!success) {
    const decoder = new TextDecoder();
    throw new Error(
      `${what} failed:\n${decoder.decode(stdout)}\n${decoder.decode(stderr)}`,
    );
  }
}

/** The first line of what was thrown. */
export function firstLine(error: unknown): string {
  return String(error instanceof Error ? error.message : error).split("\n")[0]
    ?.trim() || "failed";
}

/** A framework demo, as {@linkcode runDemo} runs it. */
export interface Demo {
  /** The task's name, such as `eleventy-demo`. */
  name: string;
  /** The dev server, in words: `astro dev`, `eleventy --serve`. */
  server: string;
  /** The `--help` text. */
  usage: string;
  /** Copies the example to a temporary git repository. */
  copy: () => Promise<string>;
  /** Whether it has npm packages to install. */
  install: boolean;
  /**
   * Starts the dev server in the copy; `editorPort` is where the editor will
   * listen (a dev server that writes its own origin into pages, such as
   * Hugo's live reload, is told it).
   */
  start: (root: string, editorPort: number) => Promise<RunningProcess>;
  /** More arguments of `editor serve`, such as `--template-syntax refuse`. */
  editorArgs?: string[];
}

/**
 * Runs a demo from the command line: reads `--port` and `--hostname`,
 * copies the example, installs its packages, starts its dev server and
 * `editor serve --proxy` in front of it, prints the URL and a fresh site
 * key; Ctrl-C stops both and removes the folder.
 *
 * @param demo the demo
 * @param args the command's arguments
 */
export async function runDemo(demo: Demo, args: string[]): Promise<void> {
  const options = parseDemoArgs(args);
  if (typeof options === "string") {
    console.error(`${demo.name}: ${options}\n\n${demo.usage}`);
    Deno.exit(1);
  }
  if (options.help) {
    console.log(demo.usage);
    Deno.exit(0);
  }
  const problem = listenProblem(options.hostname, options.port);
  if (problem) {
    console.error(`${demo.name}: ${problem}`);
    Deno.exit(1);
  }
  // The editor's port, chosen now: the dev server may need to know it.
  const port = options.port === 0 ? freePort() : options.port;
  const root = await demo.copy();
  const remove = () => Deno.remove(root, { recursive: true }).catch(() => {});
  console.log(`Site copied to ${root} (a git repository)`);
  let server: RunningProcess;
  try {
    if (demo.install) {
      console.log("Installing its npm packages…");
      const ms = await installPackages(root);
      console.log(`Installed in ${(ms / 1000).toFixed(1)} s`);
    }
    console.log(`Starting ${demo.server}…`);
    server = await demo.start(root, port);
  } catch (error) {
    await remove();
    console.error(`${demo.name}: ${firstLine(error)}`);
    Deno.exit(1);
  }
  let editor: RunningProcess;
  try {
    editor = await startEditorProxy(root, server.url, {
      port,
      args: [
        "--hostname",
        options.hostname,
        "--kv",
        join(root, ".git", "editor-kv.sqlite3"),
        ...demo.editorArgs ?? [],
      ],
    });
  } catch (error) {
    await server.stop();
    await remove();
    // editor serve says what went wrong in one line of its own ("editor: …").
    const said = /^editor: (.+)$/m.exec((error as Error).message)?.[1];
    console.error(`${demo.name}: ${said ?? firstLine(error)}`);
    Deno.exit(1);
  }
  const key = /site key for this run is (\S+)/.exec(editor.output())?.[1];
  console.log(`
${(demo.server + ":").padEnd(15)} ${server.url} (behind the editor)
Open:           ${editor.url}en/?edit
Site key:       ${key ?? "(from EDITOR_KEY_HASH)"}
Repository:     ${root} (git -C ${root} log)
Ctrl-C stops both servers and removes the folder.
`);
  editor.follow();
  const done = async () => {
    await editor.stop();
    await server.stop();
    await remove();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", done);
  Deno.addSignalListener("SIGTERM", done);
}
