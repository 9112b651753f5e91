/**
 * `editor serve --site DIR`: a built site's static files, served beside the
 * routes on one origin.
 *
 * A request path is decoded one segment at a time and refused (404 JSON)
 * when a segment is empty inside the path, `.` or `..`, starts with a dot
 * (dotfiles and dot folders), or holds `/`, `\`, a NUL or a control
 * character once decoded, so `..`, `%2e%2e`, `%2f` and backslashes never
 * climb out of the folder. The file found is resolved with `realPath` and
 * must lie inside the folder's own real path: a symbolic link may point
 * within the site, never out of it. A folder is served by its `index.html`
 * (redirected to the address with a final `/` first), and `/about` falls back
 * to `about.html`. Every answer carries `x-content-type-options: nosniff`.
 *
 * @module
 */

import { extname, join, sep } from "node:path";

/** Content types by file extension (lower case, with the dot). */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".htm": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".otf": "font/otf",
  ".mp4": "video/mp4",
  ".webm": "video/webm",
  ".mp3": "audio/mpeg",
  ".pdf": "application/pdf",
  ".wasm": "application/wasm",
};

/**
 * The content type of a file name, from its extension;
 * `application/octet-stream` when unknown.
 *
 * @param name a file name or path
 * @returns the content type
 * @example
 * ```ts
 * import { contentTypeOf } from "@inpage/editor/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(contentTypeOf("index.html"), "text/html; charset=utf-8");
 * assert.equal(contentTypeOf("photo.WEBP"), "image/webp");
 * assert.equal(contentTypeOf("archive.xyz"), "application/octet-stream");
 * ```
 */
export function contentTypeOf(name: string): string {
  return CONTENT_TYPES[extname(name).toLowerCase()] ??
    "application/octet-stream";
}

/**
 * The decoded segments of a URL path, or `undefined` when any of them would
 * leave the folder or name a hidden file: empty inside the path, `.` or `..`,
 * a leading dot, a `/`, `\`, NUL or control character after decoding, or a
 * malformed escape. A final `/` gives a final empty segment.
 *
 * @param pathname the URL's path, as received (percent-encoded)
 * @returns the segments, or `undefined`
 * @example
 * ```ts
 * import { safeSegments } from "@inpage/editor/cli";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(safeSegments("/fr/%C3%A9t%C3%A9/"), ["fr", "été", ""]);
 * assert.equal(safeSegments("/%2e%2e/etc/passwd"), undefined);
 * assert.equal(safeSegments("/a%2fb"), undefined);
 * assert.equal(safeSegments("/.env"), undefined);
 * ```
 */
export function safeSegments(pathname: string): string[] | undefined {
  if (!pathname.startsWith("/")) return undefined;
  const raw = pathname.slice(1).split("/");
  const segments: string[] = [];
  for (let index = 0; index < raw.length; index++) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw[index] as string);
    } catch {
      return undefined;
    }
    if (segment === "") {
      if (index === raw.length - 1) {
        segments.push("");
        continue;
      }
      return undefined;
    }
    // deno-lint-ignore no-control-regex
    if (segment.startsWith(".") || /[/\\\u0000-\u001f\u007f]/.test(segment)) {
      return undefined;
    }
    segments.push(segment);
  }
  return segments;
}

/**
 * Serves the file of a folder that a GET or HEAD request names, with its
 * content type and `nosniff`; a folder by its `index.html`.
 *
 * @param request the request
 * @param root the folder
 * @returns the response (200, or 308 to add a folder's final `/`), or
 *   `undefined` when the folder has no such file, the path is refused, or
 *   the method is neither GET nor HEAD
 * @example
 * ```ts
 * import { serveStaticFile } from "@inpage/editor/cli";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/index.html`, "<h1>Hello</h1>");
 * const response = await serveStaticFile(new Request("http://x/"), root);
 * assert.equal(response?.headers.get("content-type"), "text/html; charset=utf-8");
 * assert.equal(await response?.text(), "<h1>Hello</h1>");
 * assert.equal(await serveStaticFile(new Request("http://x/.git/config"), root), undefined);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function serveStaticFile(
  request: Request,
  root: string,
): Promise<Response | undefined> {
  if (request.method !== "GET" && request.method !== "HEAD") return undefined;
  const url = new URL(request.url);
  const segments = safeSegments(url.pathname);
  if (!segments) return undefined;
  const top = await Deno.realPath(root).catch(() => undefined);
  if (!top) return undefined;
  const slash = segments.at(-1) === "";
  const names = slash ? segments.slice(0, -1) : segments;
  const found = await inside(top, join(top, ...names));
  let file: string | undefined;
  if (found?.info.isDirectory) {
    if (!slash) {
      return new Response(null, {
        status: 308,
        headers: {
          location: `${url.pathname}/${url.search}`,
          "x-content-type-options": "nosniff",
        },
      });
    }
    const index = await inside(top, join(found.path, "index.html"));
    if (index?.info.isFile) file = index.path;
  } else if (found?.info.isFile && !slash) {
    file = found.path;
  } else if (!found && !slash && names.length > 0) {
    const page = await inside(top, join(top, ...names) + ".html");
    if (page?.info.isFile) file = page.path;
  }
  if (!file) return undefined;
  let opened: Deno.FsFile;
  try {
    opened = await Deno.open(file, { read: true });
  } catch {
    return undefined;
  }
  const info = await opened.stat();
  const headers = {
    "content-type": contentTypeOf(file),
    "content-length": String(info.size),
    "x-content-type-options": "nosniff",
    ...(info.mtime ? { "last-modified": info.mtime.toUTCString() } : {}),
  };
  if (request.method === "HEAD") {
    opened.close();
    return new Response(null, { status: 200, headers });
  }
  return new Response(opened.readable, { status: 200, headers });
}

/**
 * Resolves a path and checks that its real path lies inside `top`.
 *
 * @returns the real path and its information, or `undefined`
 */
async function inside(
  top: string,
  path: string,
): Promise<{ path: string; info: Deno.FileInfo } | undefined> {
  try {
    const real = await Deno.realPath(path);
    if (real !== top && !real.startsWith(top.endsWith(sep) ? top : top + sep)) {
      return undefined;
    }
    return { path: real, info: await Deno.stat(real) };
  } catch {
    return undefined;
  }
}

/**
 * A handler serving a folder's static files; anything it does not serve
 * answers 404 `{ "error": "not_found" }`.
 *
 * @param root the built site's folder
 * @returns the handler
 * @example
 * ```ts
 * import { createStaticSite } from "@inpage/editor/cli";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const site = createStaticSite(root);
 * const response = await site(new Request("http://x/%2e%2e/etc/passwd"));
 * assert.equal(response.status, 404);
 * assert.deepEqual(await response.json(), { error: "not_found" });
 * await Deno.remove(root);
 * ```
 */
export function createStaticSite(
  root: string,
): (request: Request) => Promise<Response> {
  return async (request) =>
    await serveStaticFile(request, root) ?? notFoundResponse();
}

/**
 * 404 `{ "error": "not_found" }` with the headers of every JSON answer.
 *
 * @returns the response
 */
export function notFoundResponse(): Response {
  return new Response(JSON.stringify({ error: "not_found" }), {
    status: 404,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
