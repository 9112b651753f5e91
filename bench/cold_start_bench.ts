/**
 * Cold start: the time from spawning a process to its first answer, for the
 * Deno Deploy entry point (`examples/deno-deploy/main.ts`: the router, the
 * KV, the env) against a bare `Deno.serve` answering the same 404 JSON
 * (`bench/cold_start_baseline.ts`), in the same run. Each iteration starts a
 * new process and sends `GET /no-such-path` until it answers.
 *
 * Run: deno bench -A bench/cold_start_bench.ts
 */

const work = await Deno.makeTempDir({ prefix: "editor-cold-start-" });
const ENTRY = new URL("../examples/deno-deploy/main.ts", import.meta.url)
  .pathname;
const BASELINE = new URL("./cold_start_baseline.ts", import.meta.url).pathname;
const CONFIG = new URL("../deno.json", import.meta.url).pathname;
let runs = 0;

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** Spawns the script and waits for its first answer to an unknown path. */
async function firstAnswer(script: string): Promise<void> {
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    // The package's own deno.json: the example's maps @inpage/editor to JSR.
    args: ["run", "-A", "--quiet", "--config", CONFIG, script],
    env: {
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      EDITOR_KV_PATH: `${work}/kv-${runs++}.sqlite3`,
    },
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
        return;
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

Deno.bench({
  name: "bare Deno.serve answering the 404 JSON",
  group: "cold-start",
  baseline: true,
  n: 20,
  warmup: 2,
  async fn() {
    await firstAnswer(BASELINE);
  },
});

Deno.bench({
  name: "Deno Deploy entry point (router, KV) answering the 404 JSON",
  group: "cold-start",
  n: 20,
  warmup: 2,
  async fn() {
    await firstAnswer(ENTRY);
  },
});

globalThis.addEventListener("unload", () => {
  Deno.removeSync(work, { recursive: true });
});
