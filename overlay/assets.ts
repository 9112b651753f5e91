/**
 * The overlay's built files, answered on the site's own origin:
 * `/_inpage/loader.js` and `/_inpage/overlay.js`. The files are read next
 * to this module (`./dist/`) with `fetch`, so this works whether the
 * package runs from a checkout (`file:`) or from a registry (`https:`).
 *
 * ```ts
 * import { serveOverlayAsset } from "./assets.ts";
 *
 * const answer = await serveOverlayAsset(
 *   new Request("http://localhost/_inpage/loader.js"),
 * );
 * console.assert(answer?.headers.get("content-type")?.startsWith("text/javascript"));
 * ```
 *
 * @module
 */

/**
 * The paths the overlay's files are served at, and the built file of each.
 *
 * @example
 * ```ts
 * import { OVERLAY_ASSET_PATHS } from "./assets.ts";
 *
 * console.assert("/_inpage/loader.js" in OVERLAY_ASSET_PATHS);
 * ```
 */
export const OVERLAY_ASSET_PATHS: Readonly<Record<string, string>> = {
  "/_inpage/loader.js": "./dist/loader.js",
  "/_inpage/overlay.js": "./dist/overlay.js",
};

const cache = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

function load(file: string): Promise<Uint8Array<ArrayBuffer>> {
  let bytes = cache.get(file);
  if (!bytes) {
    bytes = fetch(new URL(file, import.meta.url)).then(async (response) => {
      if (!response.ok) throw new Error(`${file}: ${response.status}`);
      return new Uint8Array(await response.arrayBuffer());
    });
    bytes.catch(() => cache.delete(file));
    cache.set(file, bytes);
  }
  return bytes;
}

/**
 * Answers a request for one of the overlay's files.
 *
 * @param request the request
 * @returns the file (`text/javascript`, `nosniff`), a 405 for a method
 *   other than GET or HEAD on those paths, or `undefined` for any other path
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
  if (!Object.hasOwn(OVERLAY_ASSET_PATHS, pathname)) return undefined;
  const headers = {
    "x-content-type-options": "nosniff",
    "cache-control": "no-cache",
  };
  if (request.method !== "GET" && request.method !== "HEAD") {
    return Response.json({ error: "method_not_allowed" }, {
      status: 405,
      headers: { ...headers, allow: "GET, HEAD" },
    });
  }
  const bytes = await load(OVERLAY_ASSET_PATHS[pathname] as string);
  return new Response(request.method === "HEAD" ? null : bytes, {
    headers: {
      ...headers,
      "content-type": "text/javascript; charset=utf-8",
      "content-length": String(bytes.byteLength),
    },
  });
}
