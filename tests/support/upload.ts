/**
 * Building upload requests as a browser sends them.
 *
 * @module
 */

import { ORIGIN } from "./helpers.ts";

/** How an upload request is built. */
export interface UploadOptions {
  /** The `name` field; left out when undefined. */
  name?: string | undefined;
  /** The cookie header. */
  cookie?: string;
  /** Whether to declare `content-length` (browsers do); default true. */
  declared?: boolean;
  /** More headers. */
  headers?: Record<string, string>;
  /** Asks for a staged upload (`?staged=1`). */
  staged?: boolean;
}

/**
 * A multipart upload of some bytes as `file` (announced as a JPEG whatever
 * they are: the route must not care).
 *
 * @param bytes the file
 * @param options name, cookie, declared length
 * @returns the request
 */
export async function uploadRequest(
  bytes: Uint8Array<ArrayBuffer>,
  options: UploadOptions = {},
): Promise<Request> {
  const form = new FormData();
  form.append("file", new Blob([bytes], { type: "image/jpeg" }), "photo.jpg");
  if (options.name !== undefined) form.append("name", options.name);
  const encoded = new Response(form);
  const type = encoded.headers.get("content-type") ?? "";
  const body = new Uint8Array(await encoded.arrayBuffer());
  const headers: Record<string, string> = {
    "content-type": type,
    ...(options.cookie ? { cookie: options.cookie } : {}),
    ...options.headers,
  };
  if (options.declared !== false) {
    headers["content-length"] = String(body.byteLength);
  }
  const target = options.staged ? "/api/upload?staged=1" : "/api/upload";
  return new Request(`${ORIGIN}${target}`, {
    method: "POST",
    headers,
    body: options.declared === false ? new Blob([body]).stream() : body,
  });
}
