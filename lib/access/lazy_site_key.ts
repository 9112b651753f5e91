/**
 * The key functions `mod.ts` exports, each loading the key check
 * (`site_key.ts`, its hash-wasm and its worker) with its first call: a
 * process that checks no key before its first request does not load it at
 * start. Each behaves as the function of `site_key.ts` it calls.
 *
 * @example
 * ```ts
 * import { hashKey, verifyKey } from "./lazy_site_key.ts";
 * import assert from "node:assert/strict";
 *
 * const cheap = { memory: 64, iterations: 1, parallelism: 1 };
 * const phc = await hashKey("a site key", cheap);
 * assert.equal(await verifyKey("a site key", phc), true);
 * ```
 *
 * @module
 */

import type {
  Argon2Job,
  KeyCheckOptions,
  KeyHashParams,
  PrecompiledArgon2,
} from "./site_key.ts";

let siteKey: Promise<typeof import("./site_key.ts")> | undefined;

/** The key check's module, imported once (again after a failed import). */
function loadSiteKey(): Promise<typeof import("./site_key.ts")> {
  siteKey ??= import("./site_key.ts");
  siteKey.catch(() => siteKey = undefined);
  return siteKey;
}

/**
 * Hashes a key into an argon2id PHC string
 * (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`) with a fresh 16-byte salt: the
 * value of `EDITOR_KEY_HASH`.
 *
 * @param key the site key (normalised to NFC, hashed as UTF-8)
 * @param params the cost parameters; default m = 65536 KiB, t = 3, p = 1
 * @returns the PHC string
 * @throws {RangeError} when the parameters are over the limits
 * @example
 * ```ts
 * import { hashKey } from "@inpage/editor";
 * import assert from "node:assert/strict";
 *
 * const phc = await hashKey("a site key", {
 *   memory: 64,
 *   iterations: 1,
 *   parallelism: 1,
 * });
 * assert.match(phc, /^\$argon2id\$v=19\$m=64,t=1,p=1\$/);
 * ```
 */
export async function hashKey(
  key: string,
  params?: KeyHashParams,
): Promise<string> {
  return await (await loadSiteKey()).hashKey(key, params);
}

/**
 * Computes one argon2id hash in the calling thread, with hash-wasm. A
 * worker thread of the host calls it (see the Node and Bun recipes); with
 * precompiled modules, nothing is compiled at run time.
 *
 * @param job the key, salt and parameters
 * @param wasm hash-wasm's argon2 and blake2b modules, compiled ahead of time
 * @returns the raw hash
 * @example
 * ```ts
 * import { argon2Hash } from "@inpage/editor";
 * import assert from "node:assert/strict";
 *
 * const hash = await argon2Hash({
 *   password: "key",
 *   salt: new Uint8Array(16),
 *   memorySize: 64,
 *   iterations: 1,
 *   parallelism: 1,
 *   hashLength: 32,
 * });
 * assert.equal(hash.length, 32);
 * ```
 */
export async function argon2Hash(
  job: Argon2Job,
  wasm?: PrecompiledArgon2,
): Promise<Uint8Array> {
  return await (await loadSiteKey()).argon2Hash(job, wasm);
}

/**
 * Verifies a key against a PHC string, in constant time. A missing or
 * unreadable hash costs the same work as a default one and answers false.
 * At most two verifications run at once in a process; up to eight more wait,
 * and beyond that the check is refused at once.
 *
 * The hash runs in `options.run` when given; else in a Web Worker where the
 * host has them (Deno); else, or when that fails, on the calling thread,
 * and `options.warn` is told so once (not when precompiled WebAssembly is
 * given: a host without threads, such as workerd, computes in place).
 *
 * @param key the submitted key
 * @param phc the configured `EDITOR_KEY_HASH`
 * @param options where the hash runs
 * @returns whether the key matches
 * @throws {AccessError} `key_checks_busy` when two checks run and eight
 *   wait: a flood of logins is refused at once rather than queued without end
 * @example
 * ```ts
 * import { hashKey, verifyKey } from "@inpage/editor";
 * import assert from "node:assert/strict";
 *
 * const phc = await hashKey("a site key", {
 *   memory: 64,
 *   iterations: 1,
 *   parallelism: 1,
 * });
 * assert.equal(await verifyKey("a site key", phc), true);
 * assert.equal(await verifyKey("another key", phc), false);
 * ```
 */
export async function verifyKey(
  key: string,
  phc: string | undefined,
  options?: KeyCheckOptions,
): Promise<boolean> {
  return await (await loadSiteKey()).verifyKey(key, phc, options);
}
