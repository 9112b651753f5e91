// Serves this example as Vercel serves a project without a framework, on a
// loopback port, for the tests: Vercel's own `vercel dev` needs an account,
// so this stands in for it, following Vercel's documented behaviour.
//
// - Each file of api/ (and its folders) is a function at /api/{name}, except files whose name
//   starts with _ or . (shared code); public/ is served as static files.
// - The filesystem comes first, then vercel.json's rewrites. A rewritten
//   request keeps the URL the browser asked for; the named parameters of
//   the source that the destination does not use are added to its query.
// - x-forwarded-for, x-real-ip, x-forwarded-host and x-forwarded-proto come
//   from the connection: whatever a client sent in them is replaced.
// - A function exports `default { fetch }` or one function per method (GET,
//   POST, …) and gets a Web Request; a method it does not export is 405.
//
// All functions run in this one process (on Vercel each is an instance of
// its own). Variables come from the environment; PORT defaults to 3000.

import { readdir, readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL(".", import.meta.url));
const { rewrites = [] } = JSON.parse(
  await readFile(join(root, "vercel.json"), "utf8"),
);

const functions = new Map();
for (const name of await readdir(join(root, "api"), { recursive: true })) {
  if (/(^|\/)[_.]/.test(name) || !/\.m?js$/.test(name)) continue;
  const path = `/api/${name.replace(/\.m?js$/, "")}`;
  functions.set(path, pathToFileURL(join(root, "api", name)).href);
}

/** A vercel.json source (`/a/:name`, `/a/:rest*`) as a regular expression. */
function sourcePattern(source) {
  const names = [];
  const pattern = source.split("/").map((segment) => {
    const named = /^:(\w+)(\*)?$/.exec(segment);
    if (!named) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    names.push(named[1]);
    return named[2] ? "(.*)" : "([^/]+)";
  }).join("/");
  return { regex: new RegExp(`^${pattern}$`), names };
}

/** The function and URL a path is served by, or undefined. */
function route(url) {
  if (functions.has(url.pathname)) {
    return { module: functions.get(url.pathname), url };
  }
  for (const { source, destination } of rewrites) {
    const { regex, names } = sourcePattern(source);
    const match = regex.exec(url.pathname);
    if (!match) continue;
    let target = destination;
    const unused = new URLSearchParams();
    names.forEach((name, index) => {
      const value = decodeURIComponent(match[index + 1]);
      if (target.includes(`:${name}`)) {
        target = target.replaceAll(`:${name}`, value);
      } else unused.append(name, value);
    });
    const destinationUrl = new URL(target, url);
    const module = functions.get(destinationUrl.pathname);
    if (!module) return undefined;
    const kept = new URL(url);
    for (const [name, value] of destinationUrl.searchParams) {
      kept.searchParams.append(name, value);
    }
    for (const [name, value] of unused) kept.searchParams.append(name, value);
    return { module, url: kept };
  }
  return undefined;
}

const TYPES = { ".html": "text/html; charset=utf-8", ".css": "text/css" };

async function staticFile(pathname) {
  const name = pathname.endsWith("/") ? `${pathname}index.html` : pathname;
  if (name.split("/").includes("..")) return undefined;
  try {
    const bytes = await readFile(join(root, "public", name));
    return new Response(bytes, {
      headers: {
        "content-type": TYPES[extname(name)] ?? "application/octet-stream",
      },
    });
  } catch {
    return undefined;
  }
}

async function invoke(module, request) {
  const exports = await import(module);
  const handler = exports.default?.fetch
    ? exports.default.fetch.bind(exports.default)
    : exports[request.method];
  if (typeof handler !== "function") {
    return new Response("Method Not Allowed", { status: 405 });
  }
  return await handler(request, { waitUntil: () => {} });
}

const server = createServer((req, res) => {
  serve(req, res).catch((error) => {
    console.error(error);
    if (!res.headersSent) res.writeHead(500);
    res.end("FUNCTION_INVOCATION_FAILED");
  });
});

async function serve(req, res) {
  const url = new URL(req.url, `http://${req.headers.host ?? "localhost"}`);
  const headers = new Headers();
  for (const [name, values] of Object.entries(req.headersDistinct)) {
    for (const value of values) headers.append(name, value);
  }
  const address = req.socket.remoteAddress ?? "";
  headers.set("x-forwarded-for", address);
  headers.set("x-real-ip", address);
  headers.set("x-forwarded-host", url.host);
  headers.set("x-forwarded-proto", "http");
  let response = functions.has(url.pathname)
    ? undefined
    : await staticFile(url.pathname);
  if (!response) {
    const found = route(url);
    if (found) {
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      response = await invoke(
        found.module,
        new Request(found.url, {
          method: req.method,
          headers,
          body: hasBody ? Readable.toWeb(req) : undefined,
          duplex: "half",
        }),
      );
    }
  }
  response ??= new Response("The page could not be found.\n\nNOT_FOUND\n", {
    status: 404,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
  const out = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") out[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) out["set-cookie"] = cookies;
  res.writeHead(response.status, out);
  if (response.body) {
    for await (const chunk of response.body) res.write(chunk);
  }
  res.end();
}

server.listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () => {
  const { address, port } = server.address();
  console.log(`Listening on http://${address}:${port}/`);
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    server.close();
    process.exit(0);
  });
}
