/**
 * Which `Host` names `editor serve` answers: its own (the loopback names and
 * `--hostname`, with its port), and the names given with `--allowed-host`
 * (any port, as Vite's `server.allowedHosts`). Any other gets 421: a
 * DNS-rebinding page always comes with a name of its own.
 *
 * @module
 */

/** The names a request may give in `Host` besides `--hostname`. */
const LOOPBACK_NAMES: ReadonlySet<string> = new Set([
  "localhost",
  "127.0.0.1",
  "[::1]",
]);

const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
/** A DNS name, `.` first for it and its subdomains; an IPv4 or [IPv6] address. */
const ALLOWED_HOST = new RegExp(
  `^(?:\\.?${LABEL}(?:\\.${LABEL})*|\\[[0-9a-f:.]+\\])$`,
);

/**
 * Checks one `--allowed-host` value: a host name such as `laptop.local` or
 * `abc.trycloudflare.com` (lower-cased), `.example.com` for that name and
 * every name under it, or an IP address (`192.168.1.20`, `[fd00::1]`). No
 * port, no wildcard, no scheme.
 *
 * @param value the value given
 * @returns the name, lower-cased
 * @throws {TypeError} with one line saying what is wrong
 * @example
 * ```ts
 * import { checkAllowedHost } from "./served_host.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(checkAllowedHost("Laptop.local"), "laptop.local");
 * assert.throws(() => checkAllowedHost("laptop.local:8787"), TypeError);
 * ```
 */
export function checkAllowedHost(value: string): string {
  const name = value.trim().toLowerCase();
  if (name.length > 253 || !ALLOWED_HOST.test(name)) {
    throw new TypeError(
      `--allowed-host ${
        JSON.stringify(value.slice(0, 80))
      } is not a host name: give a name such as laptop.local, .example.com for a domain and its subdomains, or an IP address, without a port`,
    );
  }
  return name;
}

/** Whether a `Host`'s name is one of the allowed ones. */
function allowedName(name: string, allowed: readonly string[]): boolean {
  return allowed.some((host) =>
    host.startsWith(".")
      ? name === host.slice(1) || name.endsWith(host)
      : name === host
  );
}

/**
 * Whether a `Host` names the server: `localhost`, `127.0.0.1`, `[::1]` or
 * the `--hostname` given, with the port it listens on (no port only on 80),
 * or a name given with `--allowed-host`, with any port (a tunnel or a
 * proxy in front names its own). On a wildcard address (`0.0.0.0`, `::`)
 * any IP literal is accepted too: a DNS-rebinding page always comes with a
 * name of its own.
 *
 * @param host the `Host` header (or a URL's `host`); `null` when absent
 * @param hostname the address listened on
 * @param port the port listened on
 * @param allowed the names of `--allowed-host`, checked
 * @returns whether to answer
 * @example
 * ```ts
 * import { servedHost } from "./served_host.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(servedHost("localhost:8787", "127.0.0.1", 8787, []));
 * assert.ok(!servedHost("evil.example:8787", "127.0.0.1", 8787, []));
 * assert.ok(servedHost("abc.example.com", "127.0.0.1", 8787, [".example.com"]));
 * ```
 */
export function servedHost(
  host: string | null,
  hostname: string,
  port: number,
  allowed: readonly string[],
): boolean {
  if (host === null) return true; // HTTP/1.0 without Host: the URL was checked
  const match = /^(\[[0-9a-f:.]+\]|[^:\[\]@/]+)(?::([0-9]{1,5}))?$/.exec(
    host.toLowerCase(),
  );
  if (!match) return false;
  const name = match[1] as string;
  if (allowedName(name.replace(/\.$/, ""), allowed)) return true;
  if ((match[2] === undefined ? 80 : Number(match[2])) !== port) return false;
  const given = hostname.toLowerCase();
  if (
    LOOPBACK_NAMES.has(name) ||
    name === (given.includes(":") ? `[${given}]` : given)
  ) {
    return true;
  }
  const wildcard = given === "0.0.0.0" || given === "::" || given === "[::]";
  return wildcard &&
    (/^\d{1,3}(\.\d{1,3}){3}$/.test(name) || name.startsWith("["));
}
