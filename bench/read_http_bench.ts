/**
 * The read path over HTTP: `GET /api/content` on `editor serve` (rate window
 * and session checked in KV, path whitelist, file read, version) against two
 * peers, all three real processes on loopback, on a site of 202 pages, in the
 * same run:
 *
 * - Keystatic's local-mode API (`@keystatic/core@0.6.9`, the handler
 *   `@keystatic/astro` mounts at `/api/keystatic/[...params]`), run by
 *   `bench/keystatic_server.ts` over the same site folder. A page read there is
 *   `GET /api/keystatic/blob/{git blob sha}/src/content/pages/en/page-N.json`
 *   with the header `no-cors: 1`, answered with the file's bytes: what
 *   Keystatic's admin UI sends to read an entry after the tree (`fetchBlob` in
 *   `packages/keystatic/src/app/useItemData.ts`, served by `blob` in
 *   `packages/keystatic/src/api/api-node.ts`, github:Thinkmill/keystatic). It
 *   checks the path against the collection's directory, reads the file and
 *   its git blob SHA-1 against the one asked; it has no session and no rate
 *   window (local mode trusts whoever reaches the dev server). The shas are
 *   the committed ones (`git ls-tree`), as the tree route would give them.
 * - a bare `Deno.serve` that reads the same file and answers it as JSON
 *   (`bench/read_baseline_server.ts`), the cheapest possible peer.
 *
 * The same client (node:http, keep-alive) sends to all three, the same pages
 * in turn; each client address sends 50 reads, under the budget of 60, as an
 * editor would. Before benchmarking, Keystatic's answer to one read is checked
 * to be the page file's bytes.
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
const keyHash = await hashKey(KEY, {
  memory: 64,
  iterations: 1,
  parallelism: 1,
});
const editor = await startServer(
  ["--repo", site.root, "--port", "0", "--kv", join(work, "kv.sqlite3")],
  { EDITOR_KEY_HASH: keyHash },
);
// The same, with its KV file in memory (tmpfs): a commit there is not
// flushed to disk, which shows what the slot's commit costs on this disk.
const shm = await Deno.stat("/dev/shm").then((s) => s.isDirectory, () => false);
const memoryWork = shm
  ? await Deno.makeTempDir({ dir: "/dev/shm", prefix: "editor-read-http-" })
  : undefined;
const editorOnTmpfs = memoryWork === undefined ? undefined : await startServer(
  ["--repo", site.root, "--port", "0", "--kv", join(memoryWork, "kv.sqlite3")],
  { EDITOR_KEY_HASH: keyHash },
);
/**
 * Starts a peer server (a script of this folder, given the site folder) and
 * waits for the URL it prints; its output is drained after.
 */
async function startPeer(script: string, runFlags: string[] = []) {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      ...runFlags,
      new URL(script, import.meta.url).pathname,
      site.root,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream())
    .getReader();
  let printed = "";
  while (!/listening on (\S+)/.test(printed)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${script} did not start`);
    printed += value;
  }
  void (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  return {
    process: child,
    url: /listening on (\S+)/.exec(printed)?.[1] as string,
  };
}
const baseline = await startPeer("./read_baseline_server.ts");
const baselineProcess = baseline.process;
const baselineUrl = baseline.url;
/** Stops what is started so far and throws: the bench cannot run. */
async function abort(
  error: unknown,
  peers: Deno.ChildProcess[],
): Promise<never> {
  closeConnections();
  for (const peer of peers) peer.kill();
  await editor.stop();
  await editorOnTmpfs?.stop();
  await site.remove();
  await Deno.remove(work, { recursive: true });
  if (memoryWork) await Deno.remove(memoryWork, { recursive: true });
  throw error;
}
// --no-lock: Keystatic's packages stay out of deno.lock (see the server).
const keystatic = await startPeer("./keystatic_server.ts", ["--no-lock"])
  .catch((error) => abort(error, [baselineProcess]));

// The git blob sha of each page, as Keystatic's tree route gives them.
const shas = new Map<string, string>();
for (
  const line of (await site.git("ls-tree", "-r", "HEAD", "src/content/pages"))
    .trim().split("\n")
) {
  const [mode, type, sha, path] = line.split(/\s+/);
  if (mode && type === "blob" && sha && path) shas.set(path, sha);
}
const keystaticPath = (path: string) =>
  `api/keystatic/blob/${shas.get(path)}/${path}`;
const check = await send({
  url: keystatic.url,
  method: "GET",
  path: keystaticPath("src/content/pages/en/page-7.json"),
  from: "127.0.9.2",
  headers: { "no-cors": "1" },
});
const expected = await Deno.readTextFile(
  join(site.root, "src/content/pages/en/page-7.json"),
);
if (check.status !== 200 || check.text !== expected) {
  await abort(
    new Error(
      `Keystatic did not answer the page: ${check.status} ${check.text}`,
    ),
    [baselineProcess, keystatic.process],
  );
}

async function logIn(url: string): Promise<string> {
  const login = await send({
    url,
    method: "POST",
    path: "api/auth",
    from: "127.0.9.1",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key: KEY }),
  });
  if (login.status !== 200) throw new Error(`login: ${login.status}`);
  return cookieOf(login);
}
const cookie = await logIn(editor.url);
const tmpfsCookie = editorOnTmpfs && await logIn(editorOnTmpfs.url);
let n = 0;
const next = () => {
  const i = n++;
  const client = Math.floor(i / 50);
  return {
    path: `src/content/pages/en/page-${i % 202}.json`,
    from: `127.10.${(client >> 8) & 255}.${client & 255}`,
  };
};

/** One read bench: the same client, the same pages, in one group. */
function readBench(
  name: string,
  url: string,
  pathOf: (page: string) => string,
  headers: Record<string, string> = {},
  baseline = false,
) {
  Deno.bench({
    name,
    group: "read-http",
    baseline,
    async fn() {
      const { path, from } = next();
      const reply = await send({
        url,
        method: "GET",
        path: pathOf(path),
        from,
        headers,
      });
      if (reply.status !== 200) throw new Error(`status ${reply.status}`);
    },
  });
}

const contentPath = (page: string) => `api/content?path=${page}`;
// Each server first answers 1,000 reads, so that the runs compare servers in
// their steady state (JIT-compiled, files cached); the cold start has a
// benchmark of its own. Without it `editor serve`, which compiles more code,
// measures about 0.8 ms slower here.
for (
  const [url, pathOf, headers] of [
    [baselineUrl, contentPath, {}],
    [editor.url, contentPath, { cookie }],
    [keystatic.url, keystaticPath, { "no-cors": "1" }],
    ...(editorOnTmpfs && tmpfsCookie
      ? [[editorOnTmpfs.url, contentPath, { cookie: tmpfsCookie }] as const]
      : []),
  ] as const
) {
  for (let i = 0; i < 1000; i++) {
    const { path, from } = next();
    await send({ url, method: "GET", path: pathOf(path), from, headers });
  }
}
readBench(
  "bare Deno.serve reading the file, over HTTP",
  baselineUrl,
  contentPath,
  {},
  true,
);
readBench(
  "editor serve GET /api/content with a session, over HTTP",
  editor.url,
  contentPath,
  { cookie },
);
readBench(
  "Keystatic local API GET /api/keystatic/blob, over HTTP",
  keystatic.url,
  keystaticPath,
  { "no-cors": "1" },
);
if (editorOnTmpfs && tmpfsCookie) {
  readBench(
    "editor serve, its KV file on tmpfs (/dev/shm), over HTTP",
    editorOnTmpfs.url,
    contentPath,
    { cookie: tmpfsCookie },
  );
}

globalThis.addEventListener("unload", () => {
  closeConnections();
  for (const peer of [baselineProcess, keystatic.process]) {
    try {
      peer.kill();
    } catch { /* already gone */ }
  }
  void editor.stop();
  void editorOnTmpfs?.stop();
  Deno.removeSync(site.root, { recursive: true });
  Deno.removeSync(work, { recursive: true });
  if (memoryWork) Deno.removeSync(memoryWork, { recursive: true });
});
