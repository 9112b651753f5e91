/**
 * The cold-start measure shared by `cold_start_bench.ts` and
 * `cold_start_compare.ts`: spawn a process, send `GET /no-such-path` until it
 * answers 404, stop it.
 *
 * @module
 */

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/**
 * Spawns `script` with `config` and waits for its first answer to an unknown
 * path.
 *
 * @param script the entry point
 * @param config the `deno.json` to run it with
 * @param kvPath the KV file the entry point opens (`EDITOR_KV_PATH`)
 * @param flags runtime flags, such as the `--unstable-*` of the deno.json
 *   the entry deploys with
 * @returns the milliseconds from the spawn to the answer
 */
export function firstAnswer(
  script: string,
  config: string,
  kvPath: string,
  flags: readonly string[] = [],
): Promise<number> {
  return firstAnswerOf(
    Deno.execPath(),
    ["run", "-A", "--quiet", ...flags, "--config", config, script],
    { EDITOR_KV_PATH: kvPath },
  );
}

/**
 * Spawns a program and waits for its first answer to an unknown path.
 *
 * @param program the program (`node`, Deno)
 * @param args its arguments
 * @param env its variables beside `PORT` and `HOSTNAME`
 * @param cwd its folder
 * @returns the milliseconds from the spawn to the answer
 */
export async function firstAnswerOf(
  program: string,
  args: string[],
  env: Record<string, string> = {},
  cwd?: string,
): Promise<number> {
  const port = freePort();
  const started = performance.now();
  const child = new Deno.Command(program, {
    args,
    ...(cwd === undefined ? {} : { cwd }),
    env: { PORT: String(port), HOSTNAME: "127.0.0.1", ...env },
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/no-such-path`);
        await response.body?.cancel();
        if (response.status !== 404) {
          throw new Error(`status ${response.status}`);
        }
        return performance.now() - started;
      } catch (error) {
        if (!(error instanceof TypeError)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    }
  } finally {
    child.kill();
    await child.status;
  }
}
