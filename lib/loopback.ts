/**
 * Which hosts are this machine: plain http is accepted only there.
 *
 * @module
 */

/**
 * Whether a URL's hostname is a loopback address: `localhost` and its
 * subdomains, `127.0.0.0/8`, `[::1]`.
 *
 * @param hostname a `URL`'s `hostname`
 * @returns true for a loopback host
 * @example
 * ```ts
 * import { isLoopbackHost } from "./loopback.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isLoopbackHost("127.0.0.1"));
 * assert.ok(!isLoopbackHost("example.com"));
 * ```
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname.endsWith(".localhost") ||
    hostname === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
