/**
 * The overlay's built files, answered on the site's own origin under
 * `/_inpage/`: the loader a page includes (`/_inpage/loader.js`), the
 * overlay's entry it imports (`/_inpage/overlay-{hash}.js`) and the lazy
 * parts (`/_inpage/cropper-{hash}.js`). `deno task build` makes them, with
 * a gzip and a brotli copy of each, in `overlay/dist/`.
 *
 * - A client that accepts `br` or `gzip` gets that copy, with
 *   `content-encoding`; every answer says `vary: accept-encoding`.
 * - A file named by its hash is `public, max-age=31536000, immutable`: a
 *   browser asks for it once. The loader is `no-cache` with an `ETag`: the
 *   browser asks each time and gets 304 without a body while it is the same.
 * - Another name under `/_inpage/` is 404 `{ "error": "not_found" }`.
 * - A file is answered by its path alone: the query is ignored. The overlay
 *   imports a lazy part again after a failed fetch as `{part}?retry={n}`,
 *   since a browser may keep the failed fetch of a URL; it gets the same
 *   bytes, tag and cache header.
 *
 * The files come from `overlay/dist/files.ts`, a module the build writes
 * beside them and this one imports when a first file is asked for: no file
 * system, no `fetch` of the package's own files, no host API. So the same
 * code serves them on Deno, Node 20+, Bun and workerd, from a checkout or
 * from the published package, bundled or not.
 *
 * ```ts
 * import { serveOverlayAsset } from "./serve.ts";
 *
 * const answer = await serveOverlayAsset(
 *   new Request("http://localhost/_inpage/loader.js", {
 *     headers: { "accept-encoding": "gzip" },
 *   }),
 * );
 * console.assert(answer?.headers.get("content-encoding") === "gzip");
 * ```
 *
 * @module
 */

/**
 * The folder every overlay file is served under.
 *
 * @example
 * ```ts
 * import { OVERLAY_PREFIX } from "./serve.ts";
 *
 * console.assert(`${OVERLAY_PREFIX}loader.js` === "/_inpage/loader.js");
 * ```
 */
export const OVERLAY_PREFIX = "/_inpage/";

/**
 * The cache header of a file named by its hash: a browser keeps it a year
 * and never asks again.
 *
 * @example
 * ```ts
 * import { IMMUTABLE, overlayAssets, serveOverlayAsset } from "./serve.ts";
 *
 * const [, entry] = await overlayAssets();
 * const answer = await serveOverlayAsset(
 *   new Request(`http://localhost${entry?.path}`),
 * );
 * console.assert(answer?.headers.get("cache-control") === IMMUTABLE);
 * ```
 */
export const IMMUTABLE = "public, max-age=31536000, immutable";

type Encoding = "br" | "gzip";

type Built = typeof import("../../overlay/dist/files.ts");

let built: Promise<Built> | undefined;

/**
 * The built files' module, imported once, when a first file or the entry's
 * name is asked for: a process that serves no editor never parses it.
 */
function builtFiles(): Promise<Built> {
  built ??= import("../../overlay/dist/files.ts");
  built.catch(() => built = undefined);
  return built;
}

function loadManifest(): Promise<Built["MANIFEST"]> {
  return builtFiles().then(({ MANIFEST }) => MANIFEST);
}

const cache = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

/**
 * The bytes of a stored file (`{name}.br`, `{name}.gz`) or of a built file
 * itself, which is the gzip copy unpacked when only that copy is stored.
 */
function load(file: string): Promise<Uint8Array<ArrayBuffer>> {
  let bytes = cache.get(file);
  if (!bytes) {
    bytes = builtFiles().then(async ({ FILES }) => {
      const stored = Object.hasOwn(FILES, file) ? FILES[file] : undefined;
      if (stored !== undefined) return fromBase64(stored);
      const gzip = await load(`${file}.gz`);
      const unpacked = new Blob([gzip]).stream().pipeThrough(
        new DecompressionStream("gzip"),
      );
      return new Uint8Array(await new Response(unpacked).arrayBuffer());
    });
    bytes.catch(() => cache.delete(file));
    cache.set(file, bytes);
  }
  return bytes;
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * The overlay's files as served: the path of each, whether a page loads
 * it (the loader), every editor loads it (the entry and its static
 * imports), or only some sessions do (the lazy parts).
 *
 * @returns one entry per file, the loader first
 * @example
 * ```ts
 * import { overlayAssets } from "./serve.ts";
 *
 * const assets = await overlayAssets();
 * console.assert(assets[0]?.path === "/_inpage/loader.js");
 * console.assert(assets.some((asset) => asset.loadedBy === "lazy"));
 * ```
 */
export async function overlayAssets(): Promise<
  Array<{ path: string; loadedBy: "page" | "editor" | "lazy" }>
> {
  const { loader, eager, lazy } = await loadManifest();
  return [
    { path: OVERLAY_PREFIX + loader, loadedBy: "page" as const },
    ...eager.map((name) => ({
      path: OVERLAY_PREFIX + name,
      loadedBy: "editor" as const,
    })),
    ...lazy.map((name) => ({
      path: OVERLAY_PREFIX + name,
      loadedBy: "lazy" as const,
    })),
  ];
}

/**
 * The encoding to answer in: the accepted one with the highest weight
 * among those the file has (brotli first on a tie), else `undefined` for
 * the bytes as they are.
 */
function chooseEncoding(
  accept: string | null,
  available: readonly Encoding[],
): Encoding | undefined {
  if (!accept) return undefined;
  const weights = new Map<string, number>();
  for (const part of accept.split(",")) {
    const [coding = "", ...parameters] = part.split(";");
    let weight = 1;
    for (const parameter of parameters) {
      const [name, value] = parameter.split("=");
      if (name?.trim().toLowerCase() === "q") {
        weight = Number(value?.trim());
        if (!Number.isFinite(weight)) weight = 0;
      }
    }
    weights.set(coding.trim().toLowerCase(), weight);
  }
  let best: Encoding | undefined;
  let bestWeight = 0;
  for (const encoding of ["br", "gzip"] as const) {
    if (!available.includes(encoding)) continue;
    const weight = weights.get(encoding) ?? weights.get("*") ?? 0;
    if (weight > bestWeight) {
      best = encoding;
      bestWeight = weight;
    }
  }
  return best;
}

/** Whether `If-None-Match` names the tag (weak comparison, or `*`). */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((tag) =>
    tag.trim() === "*" || bare(tag) === etag
  );
}

function jsonAnswer(
  status: number,
  body: unknown,
  extra: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      ...extra,
    },
  });
}

/**
 * Answers a request for one of the overlay's files.
 *
 * @param request the request
 * @returns `undefined` for a path outside `/_inpage/`; else the file (in
 *   the best encoding the client accepts, 304 when `If-None-Match` names
 *   its ETag), 404 JSON for a name that is not one of the files, or 405
 *   JSON for a method other than GET or HEAD
 * @example
 * ```ts ignore
 * import { serveOverlayAsset } from "@inpage/editor/overlay";
 *
 * Deno.serve(async (request) =>
 *   await serveOverlayAsset(request) ?? new Response("Not found", { status: 404 })
 * );
 * ```
 */
export async function serveOverlayAsset(
  request: Request,
): Promise<Response | undefined> {
  const { pathname } = new URL(request.url);
  if (!pathname.startsWith(OVERLAY_PREFIX)) return undefined;
  const { loader, files } = await loadManifest();
  const name = pathname.slice(OVERLAY_PREFIX.length);
  const file = Object.hasOwn(files, name) ? files[name] : undefined;
  if (!file) return jsonAnswer(404, { error: "not_found" });
  if (request.method !== "GET" && request.method !== "HEAD") {
    return jsonAnswer(405, { error: "method_not_allowed" }, {
      allow: "GET, HEAD",
    });
  }
  const encoding = chooseEncoding(
    request.headers.get("accept-encoding"),
    file.encodings,
  );
  const etag = encoding === undefined
    ? file.etag
    : file.etag.replace(/"$/, `-${encoding}"`);
  const headers: Record<string, string> = {
    "cache-control": name === loader ? "no-cache" : IMMUTABLE,
    etag,
    vary: "accept-encoding",
    "x-content-type-options": "nosniff",
  };
  if (matches(request.headers.get("if-none-match"), etag)) {
    return new Response(null, { status: 304, headers });
  }
  const bytes = await load(
    encoding === "br"
      ? `${name}.br`
      : encoding === "gzip"
      ? `${name}.gz`
      : name,
  );
  if (encoding !== undefined) headers["content-encoding"] = encoding;
  const init: ResponseInit & { encodeBody?: "manual" } = {
    headers: {
      ...headers,
      "content-type": "text/javascript; charset=utf-8",
      "content-length": String(bytes.byteLength),
    },
  };
  // workerd compresses a body in the content-encoding its answer names
  // unless told the body is compressed already; other hosts ignore this.
  if (encoding !== undefined) init.encodeBody = "manual";
  return new Response(request.method === "HEAD" ? null : bytes, init);
}

/**
 * Tells an editor's browser to fetch the overlay's entry beside the page:
 * for a request with the `editor_edit` cookie (a session) or `?edit`, an
 * HTML page's answer gains `Link: </_inpage/overlay-{hash}.js>;
 * rel=modulepreload`. The loader would otherwise find the entry only once it
 * has run, one round trip later. Any other answer is returned as it is.
 * (The cookie's name is `EDIT_COOKIE` of `lib/wire/names.ts`, written out:
 * this module imports nothing; a test keeps the two equal.)
 *
 * @param request the page's request
 * @param response the page's answer
 * @returns the answer, with the `Link` header when it is for an editor
 * @example
 * ```ts
 * import { withOverlayPreload } from "./serve.ts";
 *
 * const page = new Response("<!doctype html><title>Home</title>", {
 *   headers: { "content-type": "text/html; charset=utf-8" },
 * });
 * const request = new Request("http://localhost/en/?edit");
 * const answer = await withOverlayPreload(request, page);
 * console.assert(/rel=modulepreload/.test(answer.headers.get("link") ?? ""));
 * ```
 */
export async function withOverlayPreload(
  request: Request,
  response: Response,
): Promise<Response> {
  const editor = new URL(request.url).searchParams.has("edit") ||
    (request.headers.get("cookie") ?? "").split(";").some((pair) =>
      pair.trim() === "editor_edit=1"
    );
  if (
    !editor || request.method !== "GET" || response.status !== 200 ||
    !/^text\/html\b/i.test(response.headers.get("content-type") ?? "")
  ) return response;
  const { entry } = await loadManifest();
  const headers = new Headers(response.headers);
  headers.append("link", `<${OVERLAY_PREFIX}${entry}>; rel=modulepreload`);
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}
