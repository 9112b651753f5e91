/**
 * Serves a built site's files (Astro's `dist/`) for the Deno Deploy entry:
 * `GET` and `HEAD` only, `index.html` for folders, a redirect from `/en` to
 * `/en/`, a content type by extension, `nosniff`, and a 404 for dotfiles,
 * `..`, encoded slashes or backslashes and any file whose real path leaves the
 * site folder.
 *
 * @module
 */

import { extname, join } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".gif": "image/gif",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
};

function notFound(): Response {
  return new Response(JSON.stringify({ error: "not_found" }), {
    status: 404,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "x-content-type-options": "nosniff",
    },
  });
}

/** The path's segments, decoded, or undefined when any is not acceptable. */
function segments(pathname: string): string[] | undefined {
  const out: string[] = [];
  for (const raw of pathname.split("/").slice(1)) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    if (
      segment.startsWith(".") || /[/\\\0]/.test(segment) ||
      segment.length > 255
    ) {
      return undefined;
    }
    out.push(segment);
  }
  return out;
}

/**
 * Answers a request from the files of a built site.
 *
 * @param request the request
 * @param root the built site's folder
 * @returns the file, a redirect to the folder's URL, 405 or 404
 */
export async function serveStatic(
  request: Request,
  root: string,
): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    return new Response(JSON.stringify({ error: "method_not_allowed" }), {
      status: 405,
      headers: {
        allow: "GET, HEAD",
        "content-type": "application/json; charset=utf-8",
      },
    });
  }
  const url = new URL(request.url);
  const parts = segments(url.pathname);
  if (!parts) return notFound();
  const base = await Deno.realPath(root);
  let path = join(base, ...parts);
  let info = await Deno.stat(path).catch(() => undefined);
  if (info?.isDirectory) {
    if (!url.pathname.endsWith("/")) {
      return new Response(null, {
        status: 308,
        headers: { location: url.pathname + "/" + url.search },
      });
    }
    path = join(path, "index.html");
    info = await Deno.stat(path).catch(() => undefined);
  }
  if (!info?.isFile) return notFound();
  const real = await Deno.realPath(path).catch(() => undefined);
  if (!real || !real.startsWith(base + "/")) return notFound();
  const headers = {
    "content-type": TYPES[extname(real).toLowerCase()] ??
      "application/octet-stream",
    "content-length": String(info.size),
    "x-content-type-options": "nosniff",
    "cache-control": real.endsWith(".html")
      ? "no-cache"
      : "public, max-age=3600",
  };
  if (request.method === "HEAD") return new Response(null, { headers });
  const file = await Deno.open(real);
  return new Response(file.readable, { headers });
}
