/**
 * A real `redis-server` (Debian's package, installed by tests/setup.ts) on a
 * free loopback port, with nothing saved to disk, stopped by its process id.
 *
 * @module
 */

/** A running redis-server. */
export interface RedisServer extends AsyncDisposable {
  /** `redis://127.0.0.1:{port}`. */
  readonly url: string;
  /** Its port. */
  readonly port: number;
  /** Stops it (SIGKILL: it goes away as a crashed server does). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** Pauses it (SIGSTOP): connected, never answering. */
  pause(): void;
  /** Resumes it after {@linkcode RedisServer.pause}. */
  resume(): void;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** Whether the server answers PING on the port. */
async function answers(port: number): Promise<boolean> {
  try {
    const connection = await Deno.connect({ hostname: "127.0.0.1", port });
    try {
      await connection.write(new TextEncoder().encode("PING\r\n"));
      const buffer = new Uint8Array(16);
      const read = await connection.read(buffer);
      return new TextDecoder().decode(buffer.subarray(0, read ?? 0)) ===
        "+PONG\r\n";
    } finally {
      connection.close();
    }
  } catch {
    return false;
  }
}

/**
 * Starts redis-server on a free loopback port and waits until it answers.
 *
 * @returns the server, stopped when disposed
 */
export async function startRedis(): Promise<RedisServer> {
  const port = freePort();
  let child: Deno.ChildProcess | undefined;
  let paused = false;
  const start = async () => {
    child = new Deno.Command("redis-server", {
      args: [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--loglevel",
        "warning",
      ],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    const deadline = Date.now() + 10_000;
    while (!await answers(port)) {
      if (Date.now() > deadline) {
        throw new Error(`redis-server did not answer on port ${port}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const stop = async () => {
    if (!child) return;
    const running = child;
    child = undefined;
    if (paused) running.kill("SIGCONT");
    paused = false;
    running.kill("SIGKILL");
    await running.status;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    pause() {
      child?.kill("SIGSTOP");
      paused = true;
    },
    resume() {
      child?.kill("SIGCONT");
      paused = false;
    },
    [Symbol.asyncDispose]: stop,
  };
}
