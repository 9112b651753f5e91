/**
 * What the load run (`bench/load.ts`) is made of: real `editor serve`
 * processes over a temporary git site, an HTTP client that sends each request
 * from a chosen loopback address (127.0.0.x, so every client has its own rate
 * window), the memory of a process read from `/proc`, and percentiles.
 *
 * @module
 */

import http from "node:http";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { concatBytes } from "../lib/encoding/bytes.ts";
import { startServeProcess } from "../tests/support/cli.ts";
import { commitInitial, gitIn } from "../tests/support/git.ts";

/** One answer, or a request that never finished in time. */
export interface Reply {
  /** The status; 0 when the request hung or failed. */
  status: number;
  /** The body as text. */
  text: string;
  /** The `set-cookie` headers. */
  cookies: string[];
  /** Milliseconds from send to the end of the body. */
  ms: number;
  /** Whether the request was given up after its timeout. */
  hung: boolean;
  /** The connection error, when there was one. */
  error?: string;
}

/** A request to send. */
export interface Send {
  /** The server's base URL, `http://127.0.0.1:PORT/`. */
  url: string;
  /** The method. */
  method: string;
  /** The path and query, without the leading slash. */
  path: string;
  /** The loopback address to send from. */
  from: string;
  /** Headers. */
  headers?: Record<string, string>;
  /** The body. */
  body?: Uint8Array | string;
  /** Milliseconds before the request counts as hung. Default 20,000. */
  timeoutMs?: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/**
 * Sends one request from a loopback address with node:http (which can bind
 * the local address, unlike `fetch`).
 *
 * @param send what to send
 * @returns the reply, never a rejection
 */
export function send(send: Send): Promise<Reply> {
  const target = new URL(send.url);
  const started = performance.now();
  const body = typeof send.body === "string"
    ? new TextEncoder().encode(send.body)
    : send.body;
  return new Promise((resolve) => {
    let settled = false;
    const done = (reply: Omit<Reply, "ms">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...reply, ms: performance.now() - started });
    };
    const failed = (error: Error) =>
      done({
        status: 0,
        text: "",
        cookies: [],
        hung: false,
        error: error.message,
      });
    const request = http.request({
      host: target.hostname,
      port: Number(target.port),
      path: `/${send.path}`,
      method: send.method,
      localAddress: send.from,
      agent,
      headers: {
        ...(body ? { "content-length": String(body.byteLength) } : {}),
        ...send.headers,
      },
    }, (response) => {
      const chunks: Uint8Array[] = [];
      response.on("data", (chunk: Uint8Array) => chunks.push(chunk));
      response.on("end", () =>
        done({
          status: response.statusCode ?? 0,
          text: new TextDecoder().decode(concatBytes(...chunks)),
          cookies: ([] as string[]).concat(
            response.headers["set-cookie"] ?? [],
          ),
          hung: false,
        }));
      response.on("error", failed);
    });
    const timer = setTimeout(() => {
      request.destroy();
      done({ status: 0, text: "", cookies: [], hung: true });
    }, send.timeoutMs ?? 20_000);
    request.on("error", failed);
    if (body) request.end(body);
    else request.end();
  });
}

/** Closes the kept-alive connections, so the process can end. */
export function closeConnections(): void {
  agent.destroy();
}

/** The cookie header a browser would send after a login reply. */
export function cookieOf(reply: Reply): string {
  return reply.cookies.map((c) => c.split(";")[0]).join("; ");
}

/** A running `editor serve` process. */
export interface Server {
  /** Its base URL. */
  url: string;
  /** Its process id. */
  pid: number;
  /** Its resident and peak resident memory now, in bytes. */
  memory: () => Promise<{ rss: number; peak: number }>;
  /** The start of its standard output (one JSON log line per request). */
  stdout: () => string;
  /** Stops it with SIGTERM (or the given signal) and waits. */
  stop: (signal?: Deno.Signal) => Promise<number>;
}

/**
 * Starts `editor serve` for real and waits for its URL.
 *
 * @param args the arguments after `serve`
 * @param env the environment (`EDITOR_KEY_HASH`)
 * @returns the running server
 */
export async function startServer(
  args: string[],
  env: Record<string, string>,
): Promise<Server> {
  // The log lines are drained; only the first megabyte is kept.
  const server = await startServeProcess(args, env, 1e6);
  return {
    url: server.url,
    pid: server.pid,
    memory: () => processMemory(server.pid),
    stdout: server.stdout,
    stop: server.stop,
  };
}

/**
 * The CPU time a process has used, user and system, from `/proc` (Linux).
 *
 * @param pid the process
 * @returns milliseconds
 */
export async function processCpuMs(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15, in clock ticks (100 per second).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * The resident memory of a process and its peak, from `/proc` (Linux).
 *
 * @param pid the process
 * @returns `VmRSS` and `VmHWM` in bytes
 */
export async function processMemory(
  pid: number,
): Promise<{ rss: number; peak: number }> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kib = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0) *
    1024;
  return { rss: kib("VmRSS"), peak: kib("VmHWM") };
}

/** A temporary site checkout: a git repository with pages. */
export interface Site {
  /** Its folder. */
  root: string;
  /** Runs git in it. */
  git: (...args: string[]) => Promise<string>;
  /** Removes it. */
  remove: () => Promise<void>;
}

/**
 * Makes a git repository with `src/content/pages/en/{name}.json` pages.
 *
 * @param pages the page names and their content
 * @returns the site
 */
export async function makeSite(pages: Record<string, unknown>): Promise<Site> {
  const root = await Deno.realPath(
    await Deno.makeTempDir({ prefix: "editor-load-" }),
  );
  const git = gitIn(root);
  await Deno.mkdir(join(root, "src/content/pages/en"), { recursive: true });
  for (const [name, page] of Object.entries(pages)) {
    await Deno.writeTextFile(
      join(root, `src/content/pages/en/${name}.json`),
      JSON.stringify(page, null, 2) + "\n",
    );
  }
  await commitInitial(git, "Load", "load@localhost");
  return {
    root,
    git,
    remove: () => Deno.remove(root, { recursive: true }),
  };
}

/**
 * A valid PNG of exactly `size` bytes: a 4000 × 3000 header, IDAT chunks of
 * random bytes (each with its CRC), and IEND.
 *
 * @param size the file size in bytes
 * @returns the file
 */
export function pngOfSize(size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  for (let at = 0; at < size; at += 65_536) {
    crypto.getRandomValues(out.subarray(at, Math.min(size, at + 65_536)));
  }
  const view = new DataView(out.buffer);
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  view.setUint32(8, 13);
  out.set([0x49, 0x48, 0x44, 0x52], 12);
  view.setUint32(16, 4000);
  view.setUint32(20, 3000);
  out.set([8, 6, 0, 0, 0], 24);
  view.setUint32(29, crc32(out.subarray(12, 29)));
  const iend = size - 12;
  let at = 33;
  let first = true;
  while (at < iend) {
    const room = iend - at - 12;
    const length = room - (1 << 20) < 12 ? room : 1 << 20;
    view.setUint32(at, length);
    out.set([0x49, 0x44, 0x41, 0x54], at + 4);
    if (first) out.set([0x78, 0x9c], at + 8);
    first = false;
    view.setUint32(
      at + 8 + length,
      crc32(out.subarray(at + 4, at + 8 + length)),
    );
    at += 12 + length;
  }
  view.setUint32(iend, 0);
  out.set([0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82], iend + 4);
  return out;
}

/**
 * A multipart/form-data body with one `file` part and a `name` part.
 *
 * @param file the file bytes
 * @param name the desired name
 * @returns the body and its content type
 */
export function uploadBody(
  file: Uint8Array,
  name: string,
): { body: Uint8Array; type: string } {
  const boundary = `----load${crypto.randomUUID()}`;
  const head = new TextEncoder().encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${name}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.png"\r\n` +
      `Content-Type: image/png\r\n\r\n`,
  );
  const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);
  const body = new Uint8Array(
    head.byteLength + file.byteLength + tail.byteLength,
  );
  body.set(head);
  body.set(file, head.byteLength);
  body.set(tail, head.byteLength + file.byteLength);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

/**
 * A percentile of some durations (nearest rank).
 *
 * @param values the durations
 * @param p the percentile, 0 to 100
 * @returns the value, or 0 for none
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

/**
 * The git blob SHA-1 of the bytes, as `git hash-object` gives it.
 *
 * @param bytes the content
 * @returns 40 hex digits
 */
export async function blobSha(bytes: Uint8Array): Promise<string> {
  const head = new TextEncoder().encode(`blob ${bytes.byteLength}\0`);
  const all = new Uint8Array(head.byteLength + bytes.byteLength);
  all.set(head);
  all.set(bytes, head.byteLength);
  const digest = await crypto.subtle.digest("SHA-1", all);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}
