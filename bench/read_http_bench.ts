/**
 * The read path over HTTP: `GET /api/content` on `editor serve` (rate window
 * and session checked in KV, path whitelist, file read, version) against a
 * bare `Deno.serve` that reads the same file and answers it as JSON, both
 * real processes on loopback, on a site of 202 pages, in the same run. The
 * same client (node:http, keep-alive) sends to both; each client address
 * sends 50 reads, under the budget of 60, as an editor would.
 *
 * Run: deno bench -A bench/read_http_bench.ts
 */

import { join } from "node:path";
import { hashKey } from "../mod.ts";
import {
  closeConnections,
  cookieOf,
  makeSite,
  send,
  startServer,
} from "./load_support.ts";

const KEY = "read key";
const pages: Record<string, unknown> = {};
for (let i = 0; i < 202; i++) {
  pages[`page-${i}`] = {
    title: `Page ${i}`,
    sections: Array.from({ length: 8 }, (_, s) => ({
      id: `s${s}`,
      heading: `Section ${s}`,
      body: `Some <strong>rich</strong> text for section ${s} of page ${i}. `
        .repeat(4),
    })),
  };
}
const site = await makeSite(pages);
const work = await Deno.makeTempDir({ prefix: "editor-read-http-" });
const editor = await startServer(
  ["--repo", site.root, "--port", "0", "--kv", join(work, "kv.sqlite3")],
  {
    EDITOR_KEY_HASH: await hashKey(KEY, {
      memory: 64,
      iterations: 1,
      parallelism: 1,
    }),
  },
);
const baselineProcess = new Deno.Command(Deno.execPath(), {
  args: [
    "run",
    "-A",
    "--quiet",
    new URL("./read_baseline_server.ts", import.meta.url).pathname,
    site.root,
  ],
  stdout: "piped",
  stderr: "inherit",
}).spawn();
const reader = baselineProcess.stdout.pipeThrough(new TextDecoderStream())
  .getReader();
let printed = "";
while (!/listening on (\S+)/.test(printed)) {
  const { value, done } = await reader.read();
  if (done) throw new Error("the baseline did not start");
  printed += value;
}
const baselineUrl = /listening on (\S+)/.exec(printed)?.[1] as string;
void (async () => {
  while (!(await reader.read()).done) { /* drain */ }
})();

const login = await send({
  url: editor.url,
  method: "POST",
  path: "api/auth",
  from: "127.0.9.1",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ key: KEY }),
});
if (login.status !== 200) throw new Error(`login: ${login.status}`);
const cookie = cookieOf(login);
let n = 0;
const next = () => {
  const i = n++;
  const client = Math.floor(i / 50);
  return {
    path: `src/content/pages/en/page-${i % 202}.json`,
    from: `127.10.${(client >> 8) & 255}.${client & 255}`,
  };
};

Deno.bench({
  name: "bare Deno.serve reading the file, over HTTP",
  group: "read-http",
  baseline: true,
  async fn() {
    const { path, from } = next();
    const reply = await send({
      url: baselineUrl,
      method: "GET",
      path: `api/content?path=${path}`,
      from,
    });
    if (reply.status !== 200) throw new Error(`status ${reply.status}`);
  },
});

Deno.bench({
  name: "editor serve GET /api/content with a session, over HTTP",
  group: "read-http",
  async fn() {
    const { path, from } = next();
    const reply = await send({
      url: editor.url,
      method: "GET",
      path: `api/content?path=${path}`,
      from,
      headers: { cookie },
    });
    if (reply.status !== 200) throw new Error(`status ${reply.status}`);
  },
});

globalThis.addEventListener("unload", () => {
  closeConnections();
  try {
    baselineProcess.kill();
  } catch { /* already gone */ }
  void editor.stop();
  Deno.removeSync(site.root, { recursive: true });
  Deno.removeSync(work, { recursive: true });
});
