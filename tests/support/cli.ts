/**
 * Running the real CLI in a subprocess, for the CLI tests.
 *
 * @module
 */

import assert from "node:assert/strict";
import { spawnWithInput } from "./process.ts";

/** Where the project lives. */
export const ROOT: string = new URL("../../", import.meta.url).pathname;

/** The CLI entry point. */
export const CLI: string = new URL("../../cli.ts", import.meta.url).pathname;

/** What a finished CLI run printed. */
export interface CliRun {
  /** Exit code. */
  code: number;
  /** Standard output. */
  stdout: string;
  /** Standard error. */
  stderr: string;
}

/**
 * Runs `deno run -A cli.ts …` with some standard input.
 *
 * @param args the CLI arguments
 * @param stdin what is piped in
 * @param env extra environment variables
 * @param timeoutMs when given, the process is killed after this long (a
 *   command that should fail at once, such as `serve` on a bad
 *   configuration, then fails its test instead of hanging it)
 * @returns the exit code and outputs
 */
export async function runCli(
  args: string[],
  stdin = "",
  env: Record<string, string> = {},
  timeoutMs?: number,
): Promise<CliRun> {
  const child = await spawnWithInput(
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", CLI, ...args],
      cwd: ROOT,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1", ...env },
      ...(timeoutMs === undefined
        ? {}
        : { signal: AbortSignal.timeout(timeoutMs) }),
    }),
    stdin,
  );
  const output = await child.output();
  return {
    code: output.code,
    stdout: new TextDecoder().decode(output.stdout),
    stderr: new TextDecoder().decode(output.stderr),
  };
}

/**
 * Runs `editor <command> --help` and asserts that it exits 0 and that its
 * output holds each of the texts.
 *
 * @param command the command, e.g. `serve`
 * @param texts what the help must mention (each is the message of its own
 *   assertion)
 */
export async function assertHelpMentions(
  command: string,
  texts: string[],
): Promise<void> {
  const run = await runCli([command, "--help"]);
  assert.equal(run.code, 0);
  for (const text of texts) assert.ok(run.stdout.includes(text), text);
}

/**
 * Checks a password against a PHC string with Debian's python3-argon2
 * (argon2-cffi over the reference C library): an independent verifier.
 *
 * @param phc the hash
 * @param key the key
 * @returns whether argon2-cffi accepts it
 */
export async function verifyWithPython(
  phc: string,
  key: string,
): Promise<boolean> {
  const output = await new Deno.Command("/usr/bin/python3", {
    args: [
      "-c",
      "import sys, argon2\ntry:\n  argon2.PasswordHasher().verify(sys.argv[1], sys.argv[2].encode()); print('match')\nexcept argon2.exceptions.VerifyMismatchError:\n  print('mismatch')",
      phc,
      key,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout).trim();
  if (text !== "match" && text !== "mismatch") {
    throw new Error(
      `python3-argon2 failed: ${new TextDecoder().decode(output.stderr)}`,
    );
  }
  return text === "match";
}

/** A running `editor serve` subprocess. */
export interface ServeProcess extends AsyncDisposable {
  /** The URL it printed. */
  url: string;
  /** Its process id. */
  pid: number;
  /** Everything printed so far on standard output (up to `keepStdout`). */
  stdout: () => string;
  /** Everything printed so far on standard error. */
  stderr: () => string;
  /** Sends a signal and waits for the exit code. */
  stop: (signal?: Deno.Signal) => Promise<number>;
}

/**
 * Starts `editor serve` for real and waits for its URL.
 *
 * @param args the arguments after `serve`
 * @param env extra environment variables
 * @param keepStdout how many characters of standard output to keep; the rest
 *   is read and dropped (a long run logs a line per request)
 * @returns the running server
 */
export async function startServeProcess(
  args: string[],
  env: Record<string, string> = {},
  keepStdout = Infinity,
): Promise<ServeProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", CLI, "serve", ...args],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", ...env },
  }).spawn();
  let out = "";
  let err = "";
  const pump = async (
    stream: ReadableStream<Uint8Array>,
    add: (text: string) => void,
  ) => {
    for await (const text of stream.pipeThrough(new TextDecoderStream())) {
      add(text);
    }
  };
  const pumps = Promise.all([
    pump(
      child.stdout,
      (text) => void (out.length < keepStdout && (out += text)),
    ),
    pump(child.stderr, (text) => void (err += text)),
  ]);
  const deadline = Date.now() + 30_000;
  let url: string | undefined;
  let exited = false;
  const status = child.status.then((s) => {
    exited = true;
    return s;
  });
  while (!url) {
    url = /listening on (http:\/\/\S+\/)/.exec(out)?.[1];
    if (url) break;
    if (exited || Date.now() > deadline) {
      await pumps;
      throw new Error(`editor serve did not start: ${out}\n${err}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  let code: number | undefined;
  const stop = async (signal: Deno.Signal = "SIGTERM") => {
    if (code !== undefined) return code;
    if (!exited) child.kill(signal);
    code = (await status).code;
    await pumps;
    return code;
  };
  return {
    url,
    pid: child.pid,
    stdout: () => out,
    stderr: () => err,
    stop,
    [Symbol.asyncDispose]: async () => void await stop(),
  };
}

/** What else to give `editor serve` over a checkout. */
export interface ServeCheckoutOptions {
  /** The KV file; `:memory:` when absent. */
  kv?: string;
  /** More arguments (`--site dir`, `--proxy url`, `--no-commit` …). */
  args?: string[];
  /** Extra environment variables. */
  env?: Record<string, string>;
}

/**
 * Starts `editor serve --repo <checkout> … --port 0 --kv <kv>` for real and
 * waits for its URL.
 *
 * @param repo the checkout's folder
 * @param options the KV file, more arguments, extra environment variables
 * @param keepStdout how many characters of standard output to keep
 * @returns the running server
 */
export function serveCheckout(
  repo: string,
  options: ServeCheckoutOptions = {},
  keepStdout = Infinity,
): Promise<ServeProcess> {
  return startServeProcess(
    [
      "--repo",
      repo,
      ...(options.args ?? []),
      "--port",
      "0",
      "--kv",
      options.kv ?? ":memory:",
    ],
    options.env,
    keepStdout,
  );
}
