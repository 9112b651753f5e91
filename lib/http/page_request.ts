/**
 * The shape of the page routes' input: the `path` query parameter of
 * `/api/content` and the JSON envelope of `/api/save`.
 *
 * @module
 */

import { badRequest, tooLarge } from "./http_error.ts";
import { isJsonRequest, parseJsonBytes } from "./json_body.ts";
import { isPagePath } from "../pages/page_path.ts";
import { loadWire } from "../wire/load.ts";
import { CONTENT_MAX } from "../limits.ts";

/** A publish request, checked. */
export interface SaveRequest {
  /** The page path, whitelisted. */
  path: string;
  /** The whole page file as text, at most 100,000 bytes. */
  content: string;
  /** The version read, or `""` for a new file. */
  version: string;
  /** The requested commit message, not yet cleaned. */
  message: string | undefined;
}

/**
 * The `path` query parameter of a content request.
 *
 * @param request the incoming request
 * @param locales the site's locales
 * @returns the whitelisted path
 * @throws {HttpError} 400 when missing, repeated or outside the whitelist
 */
export function pathParameter(
  request: Request,
  locales: readonly string[],
): string {
  const paths = new URL(request.url).searchParams.getAll("path");
  const [path] = paths;
  if (paths.length !== 1 || path === undefined) {
    throw badRequest(`expected one path parameter, got ${paths.length}`);
  }
  if (!isPagePath(path, locales)) {
    throw badRequest("path outside the whitelist");
  }
  return path;
}

/**
 * Reads the fields of a publish envelope already received within its cap:
 * the content's own cap first (a size check), then the shape.
 *
 * @param request the incoming request, for its media type
 * @param bytes the body
 * @param locales the site's locales
 * @returns the checked fields
 * @throws {HttpError} 413 when the content is over 100,000 bytes, 400 for
 *   an unreadable body, a missing field, a path outside the whitelist or a
 *   version over 200 characters
 */
export async function saveRequest(
  request: Request,
  bytes: Uint8Array,
  locales: readonly string[],
): Promise<SaveRequest> {
  if (!isJsonRequest(request)) throw badRequest("body is not application/json");
  const body = parseJsonBytes(bytes);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw badRequest("body is not a JSON object");
  }
  const { content: declared } = body as Record<string, unknown>;
  if (typeof declared === "string" && utf8Length(declared) > CONTENT_MAX) {
    throw tooLarge(`content over ${CONTENT_MAX} bytes`);
  }
  // The wire shape the browser client is typed from: string fields, the
  // version at most 200 characters, an optional string message.
  const { saveBody } = await loadWire();
  const shape = saveBody.safeParse(body);
  if (!shape.success) {
    const [issue] = shape.error.issues;
    throw badRequest(
      `body is not a publish request: ${issue?.path.join(".") || "body"}: ${
        issue?.message ?? "invalid"
      }`,
    );
  }
  const { path, content, version, message } = shape.data;
  if (!isPagePath(path, locales)) {
    throw badRequest("path outside the whitelist");
  }
  return { path, content, version, message };
}

/**
 * The UTF-8 length of a string, without encoding it.
 *
 * @param text the string
 * @returns its length in bytes (lone surrogates count as U+FFFD, 3 bytes)
 */
export function utf8Length(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) length += 1;
    else if (code < 0x800) length += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length += 4;
        i++;
      } else length += 3;
    } else length += 3;
  }
  return length;
}
