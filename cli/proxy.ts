/**
 * `editor serve --proxy URL`: every request that is not the editor's goes to
 * the site's own dev server (for example `astro dev`), so the pages, the
 * overlay and the routes share one origin.
 *
 * The method, the path and query, the headers (but hop-by-hop ones, those
 * that `connection` names, and the `editor_session` cookie) and the body are
 * passed on, the body
 * streamed; the answer comes back streamed with its status and headers
 * (hop-by-hop ones dropped the same way), redirects included (a `location`
 * on the dev server's origin is made relative, or absolute on the browser's
 * origin when its path starts with `//`). The path and query are set on a
 * copy of the dev server's URL, so no path (`//host`, `/\host`, `/..//host`,
 * an absolute-form target) ever names another host. `accept-encoding` is sent as
 * `identity`, so the bytes pass through unchanged. A WebSocket upgrade opens
 * a WebSocket to the dev server with the same path, query, sub-protocols and
 * headers, then relays messages both ways until either side closes: live
 * reload keeps working. When the dev server does not answer: 502
 * `{ "error": "unavailable" }`. A request body that stops arriving for the
 * idle time is cut off: 408 `{ "error": "request_timeout" }` when the dev
 * server has not answered yet.
 *
 * @module
 */

import { BODY_IDLE_MS } from "../lib/limits.ts";
import { SESSION_COOKIE } from "../lib/wire/names.ts";
import { BodyIdleError, readWithin } from "../lib/http/read_capped.ts";

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
 * @param options how long a request body may stop arriving, in
 *   milliseconds (default `BODY_IDLE_MS` of `limits.ts`)
 * @returns the handler: the dev server's answer, or 502 JSON (408 JSON for a
 *   body that stopped arriving)
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
  options: { bodyIdleMs?: number | undefined } = {},
): (request: Request) => Promise<Response> {
  const base = proxyTarget(target);
  const idleMs = options.bodyIdleMs ?? BODY_IDLE_MS;
  return async (request) => {
    const incoming = new URL(request.url);
    const url = upstreamUrl(base, incoming);
    if (url.origin !== base.origin) return refused(); // never reached
    if (request.headers.get("upgrade")?.toLowerCase() === "websocket") {
      return await relayWebSocket(request, url);
    }
    const headers = withoutSession(passedHeaders(request.headers));
    headers.set("accept-encoding", "identity");
    headers.set("x-forwarded-host", incoming.host);
    headers.set("x-forwarded-proto", incoming.protocol.slice(0, -1));
    let stalled = false;
    const body = request.body &&
      idleBody(request.body, idleMs, () => stalled = true);
    let answer: Response;
    try {
      // No `request.signal`: reading it makes Deno warn about its legacy
      // abort. A client that goes away cancels the answer's body instead,
      // which ends the fetch.
      answer = await fetch(url, {
        method: request.method,
        headers,
        body,
        redirect: "manual",
      });
    } catch {
      return stalled ? jsonError(408, "request_timeout") : unavailable();
    }
    const out = passedHeaders(answer.headers);
    const location = out.get("location");
    if (location) {
      const moved = sameOriginLocation(location, url, base, incoming);
      if (moved !== undefined) out.set("location", moved);
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

/**
 * The headers without the editor's session cookie: the token is for the
 * routes, and the dev server (its logs, its plugins) never gets it. The
 * site's own cookies, and `editor_edit`, go on.
 */
function withoutSession(headers: Headers): Headers {
  const cookie = headers.get("cookie");
  if (cookie === null) return headers;
  const kept = cookie.split(";").filter((pair) =>
    pair.split("=", 1)[0]?.trim() !== SESSION_COOKIE
  ).map((pair) => pair.trim()).filter(Boolean);
  if (kept.length === 0) headers.delete("cookie");
  else headers.set("cookie", kept.join("; "));
  return headers;
}

/**
 * A request body passed on as it arrives, errored (and the client's stream
 * cancelled) when no byte arrives for `idleMs`.
 */
function idleBody(
  body: ReadableStream<Uint8Array>,
  idleMs: number,
  onIdle: () => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await readWithin(reader.read(), idleMs);
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        if (error instanceof BodyIdleError) {
          onIdle();
          reader.cancel(error).catch(() => {});
        }
        controller.error(error);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}

/**
 * The dev server's URL for a request: a copy of the target whose path and
 * query are set from the request's, so its origin is always the target's.
 * A path such as `//other.example/x` stays a path on the dev server (never
 * `new URL(path, base)`, which would read it as another host).
 */
function upstreamUrl(base: URL, incoming: URL): URL {
  const url = new URL(base.href);
  url.pathname = `${base.pathname.replace(/\/$/, "")}${incoming.pathname}`;
  url.search = incoming.search;
  url.hash = "";
  return url;
}

/**
 * A `location` on the dev server's origin, made to point at the same path on
 * the origin the browser used: relative (`/en/`) when it reads as a path, and
 * absolute on the browser's origin when its path starts with `//`, which a
 * browser would read as another host. A `location` elsewhere is left as the
 * dev server wrote it (`undefined`).
 */
function sameOriginLocation(
  location: string,
  asked: URL,
  base: URL,
  incoming: URL,
): string | undefined {
  let moved: URL;
  try {
    moved = new URL(location, asked);
  } catch {
    return undefined;
  }
  if (moved.origin !== base.origin) return undefined;
  const prefix = base.pathname.replace(/\/$/, "");
  const path = prefix && moved.pathname.startsWith(prefix + "/")
    ? moved.pathname.slice(prefix.length)
    : moved.pathname;
  const relative = `${path}${moved.search}${moved.hash}`;
  return path.startsWith("//") ? `${incoming.origin}${relative}` : relative;
}

/**
 * A copy of headers without the hop-by-hop ones: the standard set, the names
 * listed in `connection` (RFC 9110 §7.6.1), and any `extra`.
 */
function passedHeaders(
  headers: Headers,
  extra: ReadonlySet<string> = new Set(),
): Headers {
  const named = new Set(
    (headers.get("connection") ?? "").split(",").map((name) =>
      name.trim().toLowerCase()
    ).filter(Boolean),
  );
  const out = new Headers();
  for (const [name, value] of headers) {
    if (!HOP_BY_HOP.has(name) && !named.has(name) && !extra.has(name)) {
      out.append(name, value);
    }
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
  const headers = withoutSession(passedHeaders(request.headers, HANDSHAKE));
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
  return jsonError(502, "unavailable");
}

function refused(): Response {
  return jsonError(400, "bad_request");
}

function jsonError(status: number, error: string): Response {
  return new Response(JSON.stringify({ error }), {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
