// RATE_LIMIT on Cloudflare: a Durable Object holding the rate windows and
// sessions, and `durableObjectKv`, the adapter that gives the package the
// four KV methods it calls (get, set with expireIn, delete, and
// atomic().check().set().commit()). Workers KV cannot serve: it has no
// atomic check and takes one write per second per key, so budgets would
// not be exact.
//
// Every key lives in one object (idFromName("editor")): a Durable Object
// runs one call at a time, so a commit's checks and writes see no other
// call in between. Versionstamps are a counter, 20 hex digits as in Deno KV.
// Expired entries read as absent; an alarm removes them hourly.
//
// Pages projects cannot define a Durable Object class: deploy this file as
// a Worker of its own (`wrangler deploy rate_limit_object.js`, with the
// class in a migration) and bind it in the Pages project as
// RATE_LIMIT_OBJECT with that Worker's script name.

import { DurableObject } from "cloudflare:workers";

const VERSION = "\u0000version";
const HOUR = 3_600_000;

/** The Durable Object: KV entries `{ value, versionstamp, expiresAt }`. */
export class RateLimitObject extends DurableObject {
  async get(key) {
    const entry = await this.ctx.storage.get(storageKey(key));
    if (!entry || (entry.expiresAt !== null && entry.expiresAt <= Date.now())) {
      return { value: null, versionstamp: null };
    }
    return { value: entry.value, versionstamp: entry.versionstamp };
  }

  async delete(key) {
    await this.ctx.storage.delete(storageKey(key));
  }

  /** Checks versionstamps, then writes every set; all or nothing. */
  async commit(checks, sets) {
    for (const { key, versionstamp } of checks) {
      const { versionstamp: current } = await this.get(key);
      if (current !== versionstamp) return { ok: false };
    }
    const version = ((await this.ctx.storage.get(VERSION)) ?? 0) + 1;
    const versionstamp = version.toString(16).padStart(20, "0");
    const entries = {};
    let expiring = false;
    for (const { key, value, expireIn } of sets) {
      const expiresAt = expireIn === undefined ? null : Date.now() + expireIn;
      expiring ||= expiresAt !== null;
      entries[storageKey(key)] = { value, versionstamp, expiresAt };
    }
    entries[VERSION] = version;
    await this.ctx.storage.put(entries);
    if (expiring && (await this.ctx.storage.getAlarm()) === null) {
      await this.ctx.storage.setAlarm(Date.now() + HOUR);
    }
    return { ok: true, versionstamp };
  }

  /** Removes expired entries; comes back while any entry remains. */
  async alarm() {
    const now = Date.now();
    const expired = [];
    let left = 0;
    for (const [key, entry] of await this.ctx.storage.list()) {
      if (key === VERSION) continue;
      if (entry.expiresAt !== null && entry.expiresAt <= now) expired.push(key);
      else left++;
    }
    for (let i = 0; i < expired.length; i += 128) {
      await this.ctx.storage.delete(expired.slice(i, i + 128));
    }
    if (left > 0) await this.ctx.storage.setAlarm(now + HOUR);
  }
}

/** A KV key as one string: its parts tagged by type, so `1` is not `"1"`. */
function storageKey(key) {
  return JSON.stringify(key.map((part) => {
    if (part instanceof Uint8Array) return ["u8", [...part]];
    if (typeof part === "bigint") return ["n", part.toString()];
    return [typeof part, part];
  }));
}

/**
 * The package's RATE_LIMIT over a Durable Object namespace binding.
 *
 * @param namespace the binding of RateLimitObject (safe to keep across
 *   requests: the adapter makes a stub for each call)
 * @returns get, set, delete and atomic, as the package calls them
 */
export function durableObjectKv(namespace) {
  const id = namespace.idFromName("editor");
  // A stub per call: a stub belongs to the request that made it.
  const store = () => namespace.get(id);
  return {
    get: (key) => store().get(key),
    set: (key, value, options = {}) =>
      store().commit([], [{ key, value, expireIn: options.expireIn }]),
    delete: (key) => store().delete(key),
    atomic() {
      const checks = [];
      const sets = [];
      return {
        check(...more) {
          checks.push(...more);
          return this;
        },
        set(key, value, options = {}) {
          sets.push({ key, value, expireIn: options.expireIn });
          return this;
        },
        commit: () => store().commit(checks, sets),
      };
    },
  };
}
