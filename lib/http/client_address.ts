/**
 * Who is asking, for rate windows and logs: the peer address, or the address
 * a trusted proxy put in its header, IPv6 grouped by /64.
 *
 * The proxy's header is read from the right: a proxy appends the address it
 * saw to `X-Forwarded-For`, after whatever the client sent, so only the last
 * entry is its own (the first is whatever the client wrote, which it could
 * forge to escape its rate budget or to spend someone else's). Headers holding one
 * address, such as `CF-Connecting-IP`, read the same either way.
 *
 * @module
 */

import { hmacSha256Hex, sha256Hex } from "../digest.ts";
import { CLIENT_TAGS_KEPT } from "../limits.ts";
import type { ClientInfo, Env } from "./env.ts";
import { logNotice } from "./log.ts";

/** The bucket used when no address is known. */
export const SHARED_CLIENT = "shared";

const IPV4 =
  /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/**
 * The client's rate bucket: an IPv4 address, an IPv6 /64 prefix, or
 * `"shared"` when neither the proxy header (its last address) nor the peer
 * gives a valid one.
 *
 * @param request the incoming request
 * @param env the host's variables (`EDITOR_CLIENT_IP_HEADER`)
 * @param info the connection info
 * @returns a normalised address or prefix
 */
export function clientAddress(
  request: Request,
  env: Env,
  info: ClientInfo | undefined,
): string {
  const header = env.EDITOR_CLIENT_IP_HEADER;
  if (header) {
    let value: string | null = null;
    try {
      value = request.headers.get(header);
    } catch {
      // Not a valid header name: the host's setting is unusable, fall back.
    }
    const last = value?.split(",").at(-1)?.trim();
    const grouped = last ? groupAddress(last) : undefined;
    if (grouped) return grouped;
  }
  const remote = info?.remoteAddr;
  const peer = remote && "hostname" in remote ? remote.hostname : undefined;
  const grouped = peer && groupAddress(peer);
  if (grouped) return grouped;
  if (!sharedWarned) {
    sharedWarned = true;
    logNotice(
      env,
      `warning: a request arrived without a client address (info.remoteAddr) and without the proxy header (${
        header
          ? `${header.slice(0, 64)}, set by EDITOR_CLIENT_IP_HEADER`
          : "EDITOR_CLIENT_IP_HEADER is not set"
      }): every such client shares one rate bucket, so one of them can spend the login budget of all`,
    );
  }
  return SHARED_CLIENT;
}

let sharedWarned = false;

/**
 * A client address in its bucket form: IPv4 as is, IPv4-mapped IPv6 as
 * IPv4, other IPv6 as its first 64 bits (`2001:db8:0:1::/64`).
 *
 * @param address an address as written in a header or by the host
 * @returns the bucket, or `undefined` when it is not an IP address
 */
export function groupAddress(address: string): string | undefined {
  let text = address.trim();
  if (text.startsWith("[")) {
    const end = text.indexOf("]");
    if (end < 0) return undefined;
    text = text.slice(1, end);
  }
  if (IPV4.test(text)) return text;
  const groups = ipv6Groups(text);
  if (!groups) return undefined;
  const mapped = groups.slice(0, 5).every((g) => g === 0) &&
    groups[5] === 0xffff;
  if (mapped) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");
  }
  return groups.slice(0, 4).map((g) => g.toString(16)).join(":") + "::/64";
}

function ipv6Groups(text: string): number[] | undefined {
  const zone = text.indexOf("%");
  const bare = zone < 0 ? text : text.slice(0, zone);
  if (!/^[0-9A-Fa-f:.]+$/.test(bare)) return undefined;
  const halves = bare.split("::");
  if (halves.length > 2) return undefined;
  const parse = (part: string): number[] | undefined => {
    if (part === "") return [];
    const out: number[] = [];
    const pieces = part.split(":");
    for (const [index, piece] of pieces.entries()) {
      if (index === pieces.length - 1 && IPV4.test(piece)) {
        const [a = 0, b = 0, c = 0, d = 0] = piece.split(".").map(Number);
        out.push((a << 8) | b, (c << 8) | d);
      } else if (/^[0-9A-Fa-f]{1,4}$/.test(piece)) {
        out.push(parseInt(piece, 16));
      } else {
        return undefined;
      }
    }
    return out;
  };
  const head = parse(halves[0] ?? "");
  const tail = halves.length === 2 ? parse(halves[1] ?? "") : [];
  if (!head || !tail) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return undefined;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

/**
 * A short, stable tag for a client, used in rate keys and logs so that
 * addresses are neither stored nor written in clear: an HMAC of its bucket
 * keyed with the deployment's key hash, so that a tag in a log cannot be
 * reversed by hashing every IPv4 address.
 *
 * @param request the incoming request
 * @param env the host's variables (`EDITOR_CLIENT_IP_HEADER`, the key hash)
 * @param info the connection info
 * @returns 16 hex digits
 */
export function clientTag(
  request: Request,
  env: Env,
  info: ClientInfo | undefined,
): string {
  const address = clientAddress(request, env, info);
  const secret = `inpage-editor client ${
    env.EDITOR_KEY_HASH ?? namedKeysSecret(env.EDITOR_KEYS)
  }`;
  // Every request needs its client's tag, and a flood comes from a few
  // addresses: the tags last computed are kept, so that a flood costs no
  // HMAC per request.
  const remembered = `${address}\n${secret}`;
  let tag = tags.get(remembered);
  if (tag === undefined) {
    tag = hmacSha256Hex(secret, address).slice(0, 16);
    if (tags.size >= CLIENT_TAGS_KEPT) tags.delete(tags.keys().next().value!);
    tags.set(remembered, tag);
  }
  return tag;
}

let lastKeys: string | undefined;
let lastKeysSecret = "";

/**
 * Without `EDITOR_KEY_HASH`, the tags are keyed with a digest of
 * `EDITOR_KEYS` (which holds the named editors' hashes), so that they stay
 * keyed with a secret of the deployment.
 */
function namedKeysSecret(keys: string | undefined): string {
  if (!keys) return "";
  if (keys !== lastKeys) {
    lastKeys = keys;
    lastKeysSecret = sha256Hex(`inpage-editor keys ${keys}`);
  }
  return lastKeysSecret;
}

/** The tags last computed, by address and key. */
const tags = new Map<string, string>();

/**
 * How many client tags the process keeps now: at most `CLIENT_TAGS_KEPT`.
 *
 * @example
 * ```ts
 * import { clientTagsKept } from "./client_address.ts";
 * import { CLIENT_TAGS_KEPT } from "../limits.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(clientTagsKept() <= CLIENT_TAGS_KEPT);
 * ```
 *
 * @returns how many
 */
export function clientTagsKept(): number {
  return tags.size;
}
