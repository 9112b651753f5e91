// The Node baseline of bench/cold_start_compare.ts: a bare node:http server
// that answers every request with the router's 404 JSON for an unknown path.

import { createServer } from "node:http";

createServer((_req, res) => {
  res.writeHead(404, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
  });
  res.end(JSON.stringify({ error: "not_found" }));
}).listen(Number(process.env.PORT ?? 3000), "127.0.0.1");
