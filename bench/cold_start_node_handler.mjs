// A serverless Node handler behind node:http, for bench/cold_start_compare.ts:
// the module given as the first argument is loaded as Vercel loads a
// function (its default export's fetch, or the default function Netlify
// calls with a context), then every request is a Web Request passed to it.

import { createServer } from "node:http";
import { Readable } from "node:stream";
import { pathToFileURL } from "node:url";

const module = await import(pathToFileURL(process.argv[2]).href);
const handler = typeof module.default === "function"
  ? (request) => module.default(request, { ip: "127.0.0.1" })
  : (request) => module.default.fetch(request);

createServer(async (req, res) => {
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const response = await handler(
    new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers: Object.entries(req.headersDistinct).flatMap(([name, values]) =>
        values.map((value) => [name, value])
      ),
      body: hasBody ? Readable.toWeb(req) : undefined,
      duplex: "half",
    }),
  );
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}).listen(Number(process.env.PORT ?? 3000), "127.0.0.1");
