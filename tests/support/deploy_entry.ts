/**
 * A Deno Deploy entry of the examples started for real, its standard output
 * and error collected as they arrive, for the tests that start one.
 *
 * @module
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { ROOT } from "./cli.ts";

/** A running entry; disposing of it stops it and waits for its output. */
export interface DeployEntry extends AsyncDisposable {
  /** Everything written to standard output so far. */
  readonly out: string;
  /** Everything written to standard error so far. */
  readonly err: string;
}

/**
 * The `--unstable-*` flags of the `deno.json` an example deploys with (its
 * `"unstable"` list), so that the package's own deno.json, which the tests
 * run an entry with, gets the example's runtime flags too.
 *
 * @param folder the example's folder, holding its deno.json
 * @returns the flags, none when the folder has no deno.json
 */
export async function recipeFlags(folder: string): Promise<string[]> {
  let config: { unstable?: string[] };
  try {
    config = JSON.parse(await Deno.readTextFile(join(folder, "deno.json")));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  return (config.unstable ?? []).map((feature) => `--unstable-${feature}`);
}

/**
 * Starts an entry with the package's own deno.json (the examples map
 * `@inpage/editor` to JSR) and the runtime flags of the example's own
 * deno.json, and waits until `ready` holds of its output.
 *
 * @param entry the entry file, relative to the repository root
 * @param env its whole environment, beside `NO_COLOR`
 * @param ready when the entry counts as started
 * @param clearEnv whether to start from an empty environment
 * @returns the running entry
 */
export async function startDeployEntry(
  entry: string,
  env: Record<string, string>,
  ready: (out: string, err: string) => boolean,
  clearEnv = false,
): Promise<DeployEntry> {
  const flags = await recipeFlags(join(ROOT, dirname(entry)));
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", ...flags, "--config", "deno.json", entry],
    cwd: ROOT,
    clearEnv,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output = { out: "", err: "" };
  const pump = async (
    stream: ReadableStream<Uint8Array>,
    name: "out" | "err",
  ) => {
    for await (const text of stream.pipeThrough(new TextDecoderStream())) {
      output[name] += text;
    }
  };
  const pumps = Promise.all([
    pump(child.stdout, "out"),
    pump(child.stderr, "err"),
  ]);
  const running: DeployEntry = {
    get out() {
      return output.out;
    },
    get err() {
      return output.err;
    },
    async [Symbol.asyncDispose]() {
      child.kill("SIGTERM");
      await child.status;
      await pumps;
    },
  };
  try {
    const deadline = Date.now() + 30_000;
    while (!ready(output.out, output.err)) {
      assert.ok(
        Date.now() < deadline,
        `${entry} did not start: ${output.out}\n${output.err}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } catch (error) {
    await running[Symbol.asyncDispose]();
    throw error;
  }
  return running;
}
