/**
 * JSON request bodies: the media type check and the strict UTF-8 parse.
 *
 * @module
 */

/**
 * Whether the request declares `application/json` (parameters allowed).
 *
 * @param request the incoming request
 * @returns true for `application/json` and `application/json; charset=utf-8`
 */
export function isJsonRequest(request: Request): boolean {
  const type = request.headers.get("content-type");
  if (!type) return false;
  const [essence = "", ...parameters] = type.split(";");
  if (essence.trim().toLowerCase() !== "application/json") return false;
  return parameters.every((parameter) => {
    const [name = "", value = ""] = parameter.split("=");
    return name.trim().toLowerCase() !== "charset" ||
      value.trim().replace(/^"|"$/g, "").toLowerCase() === "utf-8";
  });
}

/**
 * Parses bytes as strict UTF-8 JSON.
 *
 * @param bytes the body
 * @returns the value, or `undefined` when the bytes are not UTF-8 JSON
 */
export function parseJsonBytes(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
}
