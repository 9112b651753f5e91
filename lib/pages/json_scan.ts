/**
 * One reading of a valid JSON text from start to end that keeps the place of
 * every member: the containers open around it, each at its key as submitted
 * or its index. For the checks that must name where they found something by
 * the keys as written (a key written twice, a number that parsing changes),
 * which `JSON.parse` cannot tell.
 *
 * @module
 */

import { escapeToken } from "../wire/pointer.ts";

/** A container on the path from the top level, for error pointers. */
export interface JsonPlace {
  /** The container it stands in, `undefined` for the top level's members. */
  readonly parent: JsonPlace | undefined;
  /** Its key as submitted, or its index. */
  readonly token: string;
}

/**
 * The JSON Pointer of a place, or of one of its children: its tokens, `~`
 * written `~0` and `/` written `~1`, each after a `/`.
 *
 * @param place the place, `undefined` for the whole document
 * @param child a key or index under it
 * @returns the pointer, `""` for the whole document
 */
export function jsonPointer(
  place: JsonPlace | undefined,
  child?: string | number,
): string {
  const tokens: string[] = child === undefined
    ? []
    : [escapeToken(String(child))];
  for (let at = place; at !== undefined; at = at.parent) {
    tokens.push(escapeToken(at.token));
  }
  return tokens.length === 0 ? "" : "/" + tokens.reverse().join("/");
}

/** What {@linkcode scanJson} shows each key and number to. */
export interface JsonVisitor {
  /**
   * A key of an object, decoded.
   *
   * @param key the key
   * @param before the keys of the same object read before it
   * @param object the object's place (`undefined` for the top level)
   * @returns a pointer to end the scan with, or `undefined` to go on
   */
  key?: (
    key: string,
    before: ReadonlySet<string>,
    object: JsonPlace | undefined,
  ) => string | undefined;
  /**
   * A number, as written.
   *
   * @param token the number's text, e.g. `-12.5e3`
   * @param at the number's own place (`undefined` at the top level)
   * @returns a pointer to end the scan with, or `undefined` to go on
   */
  number?: (token: string, at: JsonPlace | undefined) => string | undefined;
}

/** A container being read by {@linkcode scanJson}. */
interface Open {
  readonly object: boolean;
  readonly place: JsonPlace | undefined;
  readonly keys: Set<string>;
  token: string;
  index: number;
  expectKey: boolean;
}

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Reads a valid JSON text, showing each key and each number to the visitor,
 * until the visitor gives a pointer back.
 *
 * @param text a valid JSON text (`JSON.parse` accepted it)
 * @param visitor what to do with keys and numbers
 * @returns the first pointer the visitor gave, or `undefined`
 */
export function scanJson(
  text: string,
  visitor: JsonVisitor,
): string | undefined {
  const open: Open[] = [];
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    const top = open.at(-1);
    if (code === 0x7b || code === 0x5b) { // "{" or "["
      const object = code === 0x7b;
      open.push({
        object,
        place: top === undefined
          ? undefined
          : { parent: top.place, token: top.token },
        keys: new Set(),
        token: "0",
        index: 0,
        expectKey: object,
      });
    } else if (code === 0x7d || code === 0x5d) { // "}" or "]"
      open.pop();
    } else if (code === 0x2c && top !== undefined) { // ","
      if (top.object) top.expectKey = true;
      else top.token = String(++top.index);
    } else if (code === 0x22) { // a string
      const end = stringEnd(text, index);
      if (top?.object && top.expectKey) {
        const key = JSON.parse(text.slice(index, end + 1)) as string;
        const found = visitor.key?.(key, top.keys, top.place);
        if (found !== undefined) return found;
        if (visitor.key) top.keys.add(key);
        top.token = key;
        top.expectKey = false;
      }
      index = end;
    } else if (
      visitor.number && (code === 0x2d || (code >= 0x30 && code <= 0x39)) // - 0-9
    ) {
      NUMBER.lastIndex = index;
      const token = NUMBER.exec(text)?.[0] ?? "";
      const found = visitor.number(
        token,
        top === undefined ? undefined : { parent: top.place, token: top.token },
      );
      if (found !== undefined) return found;
      index += token.length - 1;
    }
    index++;
  }
  return undefined;
}

/**
 * The index of the quote that closes the string opened at `start`.
 *
 * @param text a JSON text
 * @param start the index of the opening quote
 * @returns the index of the closing quote, or the text's length
 */
export function stringEnd(text: string, start: number): number {
  let close = text.indexOf('"', start + 1);
  while (close > 0) {
    let slashes = 0;
    while (text.charCodeAt(close - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return close;
    close = text.indexOf('"', close + 1);
  }
  return text.length;
}
