/**
 * The site key's PHC string, read without hashing anything: the argon2id
 * cost parameters, their limits and `parseKeyHash`. Checking the variables
 * at start-up needs only this; the hashing itself (`site_key.ts`, with
 * hash-wasm) loads with the first key check.
 *
 * @example
 * ```ts
 * import { parseKeyHash } from "./key_hash_format.ts";
 * import assert from "node:assert/strict";
 *
 * const phc =
 *   "$argon2id$v=19$m=65536,t=3,p=1$c29tZXNhbHRzb21lc2FsdA$UgW0ciHLL6kPYWSYAvXuRbAUkTnHhvwGUfC0qgNNSqU";
 * assert.equal(parseKeyHash(phc)?.memory, 65536);
 * assert.equal(parseKeyHash("plaintext"), undefined);
 * ```
 *
 * @module
 */

import { decodeBase64 } from "../encoding/bytes.ts";

/** The argon2id cost parameters. */
export interface KeyHashParams {
  /** Memory in KiB. */
  memory: number;
  /** Passes over memory. */
  iterations: number;
  /** Lanes. */
  parallelism: number;
}

/** A PHC string read back: its parameters, salt and hash. */
export interface ParsedKeyHash extends KeyHashParams {
  /** The salt bytes. */
  salt: Uint8Array;
  /** The expected hash bytes. */
  hash: Uint8Array;
}

/** The defaults: m = 65536 KiB, t = 3, p = 1 (about 350 ms, see `bench/`). */
export const DEFAULT_KEY_PARAMS: Readonly<KeyHashParams> = Object.freeze({
  memory: 65_536,
  iterations: 3,
  parallelism: 1,
});

/** The largest parameters accepted when a hash is read or made. */
export const KEY_PARAM_LIMITS: Readonly<KeyHashParams> = Object.freeze({
  memory: 1_048_576,
  iterations: 20,
  parallelism: 16,
});

/** The bytes of a salt `hashKey` makes. */
export const KEY_SALT_BYTES = 16;
/** The bytes of a hash `hashKey` makes. */
export const KEY_HASH_BYTES = 32;
const PHC =
  /^\$argon2id\$v=19\$m=(\d{1,8}),t=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9+/]{11,88})\$([A-Za-z0-9+/]{22,88})$/;

/**
 * Checks cost parameters against the limits.
 *
 * @param params the parameters
 * @returns a sentence saying what is wrong, or `undefined` when they are fine
 */
export function keyParamsProblem(params: KeyHashParams): string | undefined {
  const { memory, iterations, parallelism } = params;
  for (const [name, value] of Object.entries(params)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      return `${name} must be a positive integer`;
    }
  }
  if (parallelism > KEY_PARAM_LIMITS.parallelism) {
    return `parallelism must be at most ${KEY_PARAM_LIMITS.parallelism}`;
  }
  if (iterations > KEY_PARAM_LIMITS.iterations) {
    return `iterations must be at most ${KEY_PARAM_LIMITS.iterations}`;
  }
  if (memory > KEY_PARAM_LIMITS.memory) {
    return `memory must be at most ${KEY_PARAM_LIMITS.memory} KiB`;
  }
  if (memory < 8 * parallelism) {
    return "memory must be at least 8 KiB per lane";
  }
  return undefined;
}

/**
 * Reads an argon2id PHC string (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`).
 *
 * @param phc the string from `EDITOR_KEY_HASH`
 * @returns its parts, or `undefined` when it is not a usable argon2id hash
 *   (another variant or version, parameters over the limits, bad base64)
 */
export function parseKeyHash(
  phc: string | undefined,
): ParsedKeyHash | undefined {
  const match = typeof phc === "string" ? PHC.exec(phc.trim()) : null;
  if (!match) return undefined;
  const [, m = "", t = "", p = "", salt64 = "", hash64 = ""] = match;
  const params = { memory: +m, iterations: +t, parallelism: +p };
  if (keyParamsProblem(params)) return undefined;
  const salt = fromB64(salt64);
  const hash = fromB64(hash64);
  if (!salt || !hash || salt.length < 8 || hash.length < 16) return undefined;
  return { ...params, salt, hash };
}

function fromB64(text: string): Uint8Array | undefined {
  if (text.length % 4 === 1) return undefined;
  return decodeBase64(text + "=".repeat((4 - (text.length % 4)) % 4));
}
