// Serves this example through Netlify's own local emulation of its platform
// (@netlify/dev, from npm; no account, no login): netlify.toml, the
// function's config.path routing, the Netlify global and context.ip, as
// `netlify dev` runs them. A node:http server on a loopback port stands for
// Netlify's edge: the client's address reaches the function as the edge
// passes it (x-forwarded-for, whatever the client sent in it replaced), and
// a body of a binary type goes as base64, as the edge sends it to a Lambda
// (the emulation reads every body as text and decodes those types from
// base64, so raw bytes would arrive mangled). Variables come from the
// environment; PORT defaults to 8888.

import { createServer } from "node:http";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { NetlifyDev } from "@netlify/dev";
import { shouldBase64Encode } from "@netlify/dev-utils";

const projectRoot = fileURLToPath(new URL(".", import.meta.url));
const netlify = new NetlifyDev({
  projectRoot,
  skipGitignore: true,
  functions: { enabled: true },
  redirects: { enabled: true },
  staticFiles: { enabled: true },
  environmentVariables: { enabled: true },
  aiGateway: { enabled: false },
  blobs: { enabled: false },
  database: { enabled: false },
  edgeFunctions: { enabled: false },
  geolocation: { enabled: false },
  headers: { enabled: false },
  images: { enabled: false },
  server: { enabled: false },
});
await netlify.start();

const server = createServer((req, res) => {
  serve(req, res).catch((error) => {
    console.error(error);
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
});

async function serve(req, res) {
  const headers = new Headers();
  for (const [name, values] of Object.entries(req.headersDistinct)) {
    for (const value of values) headers.append(name, value);
  }
  headers.set("x-forwarded-for", req.socket.remoteAddress ?? "");
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  let body = hasBody ? Readable.toWeb(req) : undefined;
  if (body && shouldBase64Encode(headers.get("content-type") ?? "")) {
    const bytes = Buffer.from(await new Response(body).arrayBuffer());
    body = bytes.toString("base64");
  }
  const request = new Request(`http://${req.headers.host}${req.url}`, {
    method: req.method,
    headers,
    body,
    duplex: "half",
  });
  const response = await netlify.handle(request) ??
    new Response("Not Found", { status: 404 });
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

server.listen(Number(process.env.PORT ?? 8888), "127.0.0.1", () => {
  const { address, port } = server.address();
  console.log(`Listening on http://${address}:${port}/`);
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    server.close();
    netlify.stop().finally(() => process.exit(0));
  });
}
