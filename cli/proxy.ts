/**
 * `editor serve --proxy URL`: every request that is not the editor's goes to
 * the site's own dev server (for example `astro dev`), so the pages, the
 * overlay and the routes share one origin.
 *
 * The method, the path and query, the headers (but hop-by-hop ones) and the
 * body are passed on, the body streamed; the answer comes back streamed with
 * its status and headers, redirects included (a `location` on the dev
 * server's origin is made relative). `accept-encoding` is sent as
 * `identity`, so the bytes pass through unchanged. A WebSocket upgrade opens
 * a WebSocket to the dev server with the same path, query, sub-protocols and
 * headers, then relays messages both ways until either side closes: live
 * reload keeps working. When the dev server does not answer: 502
 * `{ "error": "unavailable" }`.
 *
 * @module
 */

/** Headers that belong to one connection, never passed on. */
const HOP_BY_HOP: ReadonlySet<string> = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
  "content-length",
]);

/** Headers the WebSocket handshake makes itself. */
const HANDSHAKE: ReadonlySet<string> = new Set([
  "sec-websocket-key",
  "sec-websocket-version",
  "sec-websocket-extensions",
  "sec-websocket-protocol",
  "sec-websocket-accept",
]);

/** How long the dev server may take to accept a WebSocket. */
const WEBSOCKET_OPEN_MS = 10_000;

/**
 * Checks a `--proxy` target: an `http:` or `https:` URL with no credentials,
 * query or fragment.
 *
 * @param target the dev server's URL, e.g. `http://127.0.0.1:4321`
 * @returns the URL, its path without a final `/`
 * @throws {TypeError} on anything else
 * @example
 * ```ts
 * import { proxyTarget } from "@inpage/editor/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(proxyTarget("http://127.0.0.1:4321").href, "http://127.0.0.1:4321/");
 * assert.throws(() => proxyTarget("ftp://example.com"), TypeError);
 * ```
 */
export function proxyTarget(target: string): URL {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new TypeError(`${target} is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`${target} is not an http: or https: URL`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new TypeError(
      `${target} must have no credentials, query or fragment`,
    );
  }
  return url;
}

/**
 * Creates the handler that passes requests to a dev server.
 *
 * @param target the dev server's URL (see {@linkcode proxyTarget})
 * @returns the handler: the dev server's answer, or 502 JSON
 * @throws {TypeError} on a target that is not an http(s) URL
 * @example
 * ```ts
 * import { createProxy } from "@inpage/editor/cli";
 * import assert from "node:assert/strict";
 *
 * const upstream = Deno.serve(
 *   { hostname: "127.0.0.1", port: 0, onListen() {} },
 *   (request) => new Response(`dev server: ${new URL(request.url).pathname}`),
 * );
 * const proxy = createProxy(`http://127.0.0.1:${upstream.addr.port}`);
 * const response = await proxy(new Request("http://127.0.0.1:8787/en/about/"));
 * assert.equal(await response.text(), "dev server: /en/about/");
 * await upstream.shutdown();
 * ```
 */
export function createProxy(
  target: string,
): (request: Request) => Promise<Response> {
  const base = proxyTarget(target);
  const prefix = base.pathname.replace(/\/$/, "");
  const upstreamUrl = (request: Request): URL => {
    const url = new URL(request.url);
    return new URL(`${prefix}${url.pathname}${url.search}`, base.origin);
  };
  return async (request) => {
    const url = upstreamUrl(request);
    if (request.headers.get("upgrade")?.toLowerCase() === "websocket") {
      return await relayWebSocket(request, url);
    }
    const headers = passedHeaders(request.headers, HOP_BY_HOP);
    headers.set("accept-encoding", "identity");
    const incoming = new URL(request.url);
    headers.set("x-forwarded-host", incoming.host);
    headers.set("x-forwarded-proto", incoming.protocol.slice(0, -1));
    let answer: Response;
    try {
      answer = await fetch(url, {
        method: request.method,
        headers,
        body: request.body,
        redirect: "manual",
        signal: request.signal,
      });
    } catch {
      return unavailable();
    }
    const out = passedHeaders(answer.headers, HOP_BY_HOP);
    const location = out.get("location");
    if (location) {
      try {
        const moved = new URL(location, url);
        if (moved.origin === base.origin) {
          out.set("location", `${moved.pathname}${moved.search}${moved.hash}`);
        }
      } catch {
        // Left as the dev server wrote it.
      }
    }
    const empty = request.method === "HEAD" ||
      [101, 204, 205, 304].includes(answer.status);
    if (empty) await answer.body?.cancel();
    return new Response(empty ? null : answer.body, {
      status: answer.status,
      statusText: answer.statusText,
      headers: out,
    });
  };
}

/** A copy of headers without the named ones. */
function passedHeaders(
  headers: Headers,
  dropped: ReadonlySet<string>,
): Headers {
  const out = new Headers();
  for (const [name, value] of headers) {
    if (!dropped.has(name)) out.append(name, value);
  }
  return out;
}

/**
 * Opens a WebSocket to the dev server, then upgrades the request with the
 * sub-protocol the dev server chose, and relays both ways.
 */
async function relayWebSocket(request: Request, url: URL): Promise<Response> {
  const protocols = (request.headers.get("sec-websocket-protocol") ?? "")
    .split(",").map((protocol) => protocol.trim()).filter(Boolean);
  const headers = passedHeaders(
    request.headers,
    new Set([...HOP_BY_HOP, ...HANDSHAKE]),
  );
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  let upstream: WebSocket;
  try {
    upstream = new WebSocket(url, { protocols, headers });
  } catch {
    return unavailable();
  }
  upstream.binaryType = "arraybuffer";
  const opened = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), WEBSOCKET_OPEN_MS);
    upstream.onopen = () => {
      clearTimeout(timer);
      resolve(true);
    };
    upstream.onerror = upstream.onclose = () => {
      clearTimeout(timer);
      resolve(false);
    };
  });
  if (!opened) {
    try {
      upstream.close();
    } catch {
      // Never opened.
    }
    return unavailable();
  }
  let upgraded: { socket: WebSocket; response: Response };
  try {
    upgraded = Deno.upgradeWebSocket(
      request,
      upstream.protocol ? { protocol: upstream.protocol } : {},
    );
  } catch {
    upstream.close();
    return unavailable();
  }
  const { socket, response } = upgraded;
  socket.binaryType = "arraybuffer";
  const waiting: (string | ArrayBuffer)[] = [];
  upstream.onmessage = (event: MessageEvent<string | ArrayBuffer>) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(event.data);
    else if (socket.readyState === WebSocket.CONNECTING) {
      waiting.push(event.data);
    }
  };
  socket.onopen = () => {
    for (const data of waiting.splice(0)) socket.send(data);
  };
  socket.onmessage = (event: MessageEvent<string | ArrayBuffer>) => {
    if (upstream.readyState === WebSocket.OPEN) upstream.send(event.data);
  };
  const closeBoth = (event: CloseEvent | Event) => {
    const code = event instanceof CloseEvent ? closeCode(event.code) : 1011;
    const reason = event instanceof CloseEvent ? event.reason : "";
    for (const side of [socket, upstream]) {
      if (
        side.readyState === WebSocket.OPEN ||
        side.readyState === WebSocket.CONNECTING
      ) {
        try {
          side.close(code, reason);
        } catch {
          // Already closing.
        }
      }
    }
  };
  upstream.onclose = closeBoth;
  upstream.onerror = closeBoth;
  socket.onclose = closeBoth;
  socket.onerror = closeBoth;
  return response;
}

/** A close code that may be sent: 1000, or one in 3000 to 4999. */
function closeCode(code: number): number {
  return code === 1000 || (code >= 3000 && code <= 4999) ? code : 1000;
}

function unavailable(): Response {
  return new Response(JSON.stringify({ error: "unavailable" }), {
    status: 502,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
