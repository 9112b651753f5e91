/**
 * The cross-site guard: a request a browser marks as cross-site, or whose
 * `Origin` names another host than the one it was sent to, carries no
 * session and cannot log in.
 *
 * @module
 */

import { isLoopbackHost } from "../loopback.ts";

/**
 * Whether a request comes from another site.
 *
 * @param request the incoming request
 * @returns true when `Sec-Fetch-Site` is `cross-site`, when `Origin` differs
 *   from `Host` (an opaque or unreadable `Origin` counts as different), or
 *   when `Origin` is plain http on a host that is not loopback
 */
export function isCrossSite(request: Request): boolean {
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite?.trim().toLowerCase() === "cross-site") return true;
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  let from: URL;
  try {
    from = new URL(origin);
  } catch {
    return true;
  }
  if (from.protocol !== "http:" && from.protocol !== "https:") return true;
  // The cookies are Secure: an editing page is on https, or on plain http
  // only at a loopback address. A plain http Origin elsewhere is a network
  // attacker's page, whatever its host.
  if (from.protocol === "http:" && !isLoopbackHost(from.hostname)) return true;
  const host = request.headers.get("host") ?? safeHost(request.url);
  if (!host) return true;
  let to: URL;
  try {
    to = new URL(`${from.protocol}//${host}`);
  } catch {
    return true;
  }
  return to.hostname !== from.hostname || to.port !== from.port;
}

function safeHost(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}
