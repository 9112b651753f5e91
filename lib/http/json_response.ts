/**
 * The one way a response is built: JSON, never cached, never sniffed.
 *
 * @module
 */

/**
 * A JSON response with the headers every answer carries.
 *
 * @param status HTTP status
 * @param body serialised with `JSON.stringify`
 * @param headers extra headers; `set-cookie` may be an array
 * @returns the response
 */
export function jsonResponse(
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string | readonly string[]>> = {},
): Response {
  const out = new Headers({
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  });
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === "string") out.set(name, value);
    else for (const item of value) out.append(name, item);
  }
  return new Response(JSON.stringify(body), { status, headers: out });
}
