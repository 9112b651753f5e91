/**
 * How a KV store that keeps strings (Redis) holds Deno KV's keys and values.
 *
 * - A key becomes one string: its parts in order, each self-delimiting and
 *   tagged by type (`s"text"`, `n1;`, `b12;`, `t`/`f`, `u0a1b;`), so `1` and
 *   `"1"` differ, and the string of a key begins with the string of every
 *   key that is its prefix.
 * - A value becomes JSON; a `Uint8Array`, a `bigint` or a `Date` inside it is
 *   written as a one-key object under a NUL-prefixed name and read back as
 *   what it was. Other values that JSON cannot hold (functions, symbols,
 *   `undefined`, a `Map`…) are refused with a `TypeError`, and so is a plain
 *   object that has a key starting with NUL.
 *
 * @module
 */

import type { KvKey } from "../http/env.ts";

/**
 * A KV key as one string.
 *
 * @param key the key's parts
 * @returns the string, unique to the key
 * @throws {TypeError} for a part of another type
 * @example
 * ```ts
 * import { encodeKey } from "./kv_codec.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(encodeKey(["editor", "session", 1]), 's"editor"s"session"n1;');
 * assert.notEqual(encodeKey([1]), encodeKey(["1"]));
 * ```
 */
export function encodeKey(key: KvKey): string {
  let text = "";
  for (const part of key) {
    if (typeof part === "string") text += `s${JSON.stringify(part)}`;
    else if (typeof part === "number") text += `n${String(part)};`;
    else if (typeof part === "bigint") text += `b${part.toString()};`;
    else if (typeof part === "boolean") text += part ? "t" : "f";
    else if (part instanceof Uint8Array) {
      text += `u${
        Array.from(part, (byte) => byte.toString(16).padStart(2, "0")).join("")
      };`;
    } else {throw new TypeError(
        "a KV key part must be a string, number, bigint, boolean or Uint8Array",
      );}
  }
  return text;
}

const TAG = "\u0000";

/**
 * A value as JSON, with the types Deno KV keeps beyond JSON tagged.
 *
 * @param value the value
 * @returns the JSON text
 * @throws {TypeError} for a value JSON cannot hold
 * @example
 * ```ts
 * import { decodeValue, encodeValue } from "./kv_codec.ts";
 * import assert from "node:assert/strict";
 *
 * const value = { at: [1, 2], bytes: new Uint8Array([7]), big: 2n ** 70n };
 * assert.deepEqual(decodeValue(encodeValue(value)), value);
 * ```
 */
export function encodeValue(value: unknown): string {
  const text = JSON.stringify(
    value,
    function (this: Record<string, unknown>, name: string, converted) {
      const original = this[name];
      if (original instanceof Uint8Array) {
        let binary = "";
        for (const byte of original) binary += String.fromCharCode(byte);
        return { [`${TAG}u8`]: btoa(binary) };
      }
      if (typeof original === "bigint") {
        return { [`${TAG}bigint`]: original.toString() };
      }
      if (original instanceof Date) {
        return { [`${TAG}date`]: original.getTime() };
      }
      if (
        original === undefined || typeof original === "function" ||
        typeof original === "symbol" || original instanceof Map ||
        original instanceof Set || original instanceof RegExp
      ) {
        throw new TypeError(`a KV value cannot hold ${describe(original)}`);
      }
      if (typeof original === "object" && original !== null) {
        for (const key of Object.keys(original)) {
          if (key.startsWith(TAG)) {
            throw new TypeError("a KV value's keys cannot start with NUL");
          }
        }
      }
      return converted;
    },
  );
  return text;
}

function describe(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "function" || typeof value === "symbol") {
    return `a ${typeof value}`;
  }
  return `a ${(value as object).constructor.name}`;
}

/**
 * A value from its JSON text, with the tagged types restored.
 *
 * @param text what {@linkcode encodeValue} wrote
 * @returns the value
 * @example
 * ```ts
 * import { decodeValue } from "./kv_codec.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(decodeValue('{"expiresAt":1}'), { expiresAt: 1 });
 * ```
 */
export function decodeValue(text: string): unknown {
  return JSON.parse(text, (_name, value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return value;
    }
    const keys = Object.keys(value);
    if (keys.length !== 1 || !keys[0]!.startsWith(TAG)) return value;
    const tagged = value[keys[0]!];
    switch (keys[0]) {
      case `${TAG}u8`:
        return Uint8Array.from(atob(tagged), (char) => char.charCodeAt(0));
      case `${TAG}bigint`:
        return BigInt(tagged);
      case `${TAG}date`:
        return new Date(tagged);
      default:
        return value;
    }
  });
}
