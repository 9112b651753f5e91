/**
 * JSON Pointer (RFC 6901), the one implementation of the package: the
 * server's page rules and `editor check` name places with it, the browser
 * client reads and writes page objects with it, the regions helper writes
 * it into templates and the overlay reads it back. No host API, no
 * dependency: it runs in the browser as on the server.
 *
 * A pointer is `""` (the whole document) or a `/` before each reference
 * token, each token written with `~` as `~0` and `/` as `~1`.
 *
 * @example
 * ```ts
 * import { formatPointer, getPointer, parsePointer } from "./pointer.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(formatPointer(["a/b", 0]), "/a~1b/0");
 * assert.deepEqual(parsePointer("/a~1b/0"), ["a/b", "0"]);
 * assert.equal(getPointer({ "a/b": ["x"] }, "/a~1b/0"), "x");
 * ```
 *
 * @module
 */

/**
 * One reference token written for a pointer: `~` as `~0`, then `/` as `~1`.
 *
 * @example
 * ```ts
 * import { escapeToken } from "./pointer.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(escapeToken("a/b~"), "a~1b~0");
 * ```
 *
 * @param token the key as it stands in the document
 * @returns the token as a pointer writes it
 */
export function escapeToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/**
 * One written reference token read back: `~1` as `/`, then `~0` as `~`.
 *
 * @example
 * ```ts
 * import { unescapeToken } from "./pointer.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(unescapeToken("a~1b~0"), "a/b~");
 * // "~01" is a tilde then a one, not a slash.
 * assert.equal(unescapeToken("~01"), "~1");
 * ```
 *
 * @param token the token as written
 * @returns the key
 */
export function unescapeToken(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

/**
 * Builds a pointer from its reference tokens, outermost first. A number
 * token is an array index: a non-negative safe integer.
 *
 * @example
 * ```ts
 * import { formatPointer } from "./pointer.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(formatPointer(["sections", 0, "heading"]), "/sections/0/heading");
 * assert.equal(formatPointer([]), "");
 * ```
 *
 * @param tokens the keys and array indexes
 * @returns the pointer, `""` for no token
 * @throws {TypeError} when a number token is not an array index
 */
export function formatPointer(tokens: readonly (string | number)[]): string {
  let out = "";
  for (const token of tokens) {
    if (typeof token === "number") {
      if (!Number.isSafeInteger(token) || token < 0) {
        throw new TypeError(`Not an array index: ${token}`);
      }
      out += "/" + token;
    } else {
      out += "/" + escapeToken(token);
    }
  }
  return out;
}

/** After a `~`, RFC 6901 allows only `0` (for `~`) and `1` (for `/`). */
const BAD_ESCAPE = /~(?![01])/;

/**
 * Why a written pointer is not valid under RFC 6901, or `undefined` when it
 * is: it must be a string, `""` or starting with `/`, with every `~`
 * followed by `0` or `1`.
 *
 * @example
 * ```ts
 * import { pointerProblem } from "./pointer.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(pointerProblem("/a~0b"), undefined);
 * assert.match(pointerProblem("/a~2")!, /~0/);
 * ```
 *
 * @param written the pointer
 * @returns a sentence naming the problem, or `undefined`
 */
export function pointerProblem(written: unknown): string | undefined {
  if (typeof written !== "string") {
    return "A JSON Pointer is a string or an array of tokens";
  }
  if (written !== "" && !written.startsWith("/")) {
    return `A JSON Pointer is "" or starts with "/": ${
      JSON.stringify(written)
    }`;
  }
  if (BAD_ESCAPE.test(written)) {
    return `A "~" in a JSON Pointer is written "~0" or "~1": ${
      JSON.stringify(written)
    }`;
  }
  return undefined;
}

/**
 * The reference tokens of a written pointer, unescaped. A `~` followed by
 * anything but `0` or `1` is kept as written (check with
 * {@linkcode pointerProblem} to refuse it).
 *
 * @example
 * ```ts
 * import { parsePointer } from "./pointer.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parsePointer("/a~1b/m~0n/0"), ["a/b", "m~n", "0"]);
 * assert.deepEqual(parsePointer(""), []);
 * assert.throws(() => parsePointer("title"), SyntaxError);
 * ```
 *
 * @param written the pointer, `""` or starting with `/`
 * @returns its tokens
 * @throws {SyntaxError} when it neither is `""` nor starts with `/`
 */
export function parsePointer(written: string): string[] {
  if (written === "") return [];
  if (!written.startsWith("/")) {
    throw new SyntaxError(`Not a JSON Pointer: ${written}`);
  }
  return written.slice(1).split("/").map(unescapeToken);
}

/** An array index as RFC 6901 writes it: no sign, no leading zero. */
const INDEX = /^(?:0|[1-9]\d*)$/;

function child(value: unknown, token: string): unknown {
  if (Array.isArray(value)) {
    return INDEX.test(token) ? value[Number(token)] : undefined;
  }
  if (
    typeof value === "object" && value !== null && Object.hasOwn(value, token)
  ) {
    return (value as Record<string, unknown>)[token];
  }
  return undefined;
}

/**
 * The value at a pointer in a document (a page object).
 *
 * @example
 * ```ts
 * import { getPointer } from "./pointer.ts";
 * import assert from "node:assert/strict";
 *
 * const page = { sections: [{ heading: "Hello" }] };
 * assert.equal(getPointer(page, "/sections/0/heading"), "Hello");
 * assert.equal(getPointer(page, "/sections/01/heading"), undefined);
 * ```
 *
 * @param document the document
 * @param pointer the pointer, such as `/sections/0/heading`
 * @returns the value, or `undefined` when nothing is there
 * @throws {SyntaxError} when the pointer neither is `""` nor starts with `/`
 */
export function getPointer(document: unknown, pointer: string): unknown {
  let value = document;
  for (const token of parsePointer(pointer)) {
    value = child(value, token);
    if (value === undefined) return undefined;
  }
  return value;
}

/**
 * A copy of a document with one value replaced (or added) at a pointer; the
 * containers on the way are copied, the rest is shared. In an array, `-`
 * names the place after the last element.
 *
 * @example
 * ```ts
 * import { getPointer, setPointer } from "./pointer.ts";
 * import assert from "node:assert/strict";
 *
 * const page = { title: "Old", sections: [{ heading: "Hi" }] };
 * const next = setPointer(page, "/sections/0/heading", "Hello");
 * assert.equal(getPointer(next, "/sections/0/heading"), "Hello");
 * assert.equal(page.sections[0]?.heading, "Hi");
 * ```
 *
 * @param document the document
 * @param pointer where to write, such as `/image/src`
 * @param value the new value
 * @returns the new document
 * @throws {RangeError} when the pointer's parent does not exist
 * @throws {SyntaxError} when the pointer neither is `""` nor starts with `/`
 */
export function setPointer<T>(document: T, pointer: string, value: unknown): T {
  const tokens = parsePointer(pointer);
  const write = (node: unknown, index: number): unknown => {
    if (index === tokens.length) return value;
    const token = tokens[index] as string;
    if (Array.isArray(node)) {
      const position = token === "-" ? node.length : Number(token);
      if ((token !== "-" && !INDEX.test(token)) || position > node.length) {
        throw new RangeError(`No array element at ${pointer}`);
      }
      const copy = node.slice();
      copy[position] = write(node[position], index + 1);
      return copy;
    }
    if (typeof node === "object" && node !== null) {
      const record = node as Record<string, unknown>;
      return {
        ...record,
        [token]: write(
          Object.hasOwn(record, token) ? record[token] : undefined,
          index + 1,
        ),
      };
    }
    throw new RangeError(`No object at ${pointer}`);
  };
  return write(document, 0) as T;
}
