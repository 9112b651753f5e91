// The editor's routes and the overlay's files (/_inpage/) on Node 20 or
// later: a node:http server, the rate windows and sessions in @deno/kv, and
// every key check in a worker thread, so a login (about 350 ms of argon2)
// never stalls other requests.
//
//   npx jsr add @inpage/editor && npm install @deno/kv@0.14.0
//   EDITOR_KEY_HASH='$argon2id$…' GITHUB_TOKEN=… GITHUB_REPOSITORY=owner/site \
//     node server.mjs
//
// Variables: PORT (8787), HOST (127.0.0.1), EDITOR_KV_PATH (a SQLite file;
// default in memory), GITHUB_BRANCH, GITHUB_API_URL, EDITOR_CLIENT_IP_HEADER
// (only behind a proxy that sets it). A KV file written by Deno cannot be
// read here (another V8 serialisation version): give Node its own file.

import { createServer } from "node:http";
import { Readable } from "node:stream";
import { Worker } from "node:worker_threads";
import { openKv } from "@deno/kv";
import { createRouter } from "@inpage/editor";
import { serveOverlayAsset } from "@inpage/editor/overlay";

const router = createRouter({ locales: ["en", "fr"] });

/** One argon2id hash in a short-lived worker thread (argon2_thread.mjs). */
function argon2InThread(job) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./argon2_thread.mjs", import.meta.url), {
      workerData: job,
    });
    worker.once("message", resolve);
    worker.once("error", reject);
    worker.once(
      "exit",
      (code) => reject(new Error(`argon2 thread exit ${code}`)),
    );
  });
}

const kv = await openKv(process.env.EDITOR_KV_PATH ?? ":memory:");
const env = {
  RATE_LIMIT: kv,
  EDITOR_KEY_HASH: process.env.EDITOR_KEY_HASH,
  EDITOR_ARGON2: argon2InThread,
  GITHUB_TOKEN: process.env.GITHUB_TOKEN,
  GITHUB_REPOSITORY: process.env.GITHUB_REPOSITORY,
  GITHUB_BRANCH: process.env.GITHUB_BRANCH,
  GITHUB_API_URL: process.env.GITHUB_API_URL,
  EDITOR_CLIENT_IP_HEADER: process.env.EDITOR_CLIENT_IP_HEADER,
};

const server = createServer((req, res) => {
  serve(req, res).catch((error) => {
    console.error(error);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});

async function serve(req, res) {
  const controller = new AbortController();
  res.once("close", () => controller.abort());
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const request = new Request(
    `http://${req.headers.host ?? "localhost"}${req.url}`,
    {
      method: req.method,
      headers: Object.entries(req.headersDistinct).flatMap(([name, values]) =>
        values.map((value) => [name, value])
      ),
      body: hasBody ? Readable.toWeb(req) : undefined,
      duplex: "half",
      signal: controller.signal,
    },
  );
  const info = { remoteAddr: { hostname: req.socket.remoteAddress } };
  const response = await serveOverlayAsset(request) ??
    await router.handle(request, env, info);
  const headers = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  res.writeHead(response.status, headers);
  if (response.body) {
    for await (const chunk of response.body) res.write(chunk);
  }
  res.end();
}

const port = Number(process.env.PORT ?? 8787);
const host = process.env.HOST ?? "127.0.0.1";
server.listen(port, host, () => {
  const { address, port } = server.address();
  console.log(`Listening on http://${address}:${port}/`);
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => server.close(() => kv.close()));
}
