/**
 * The page-file rules: what `/api/save` checks in a page and what it writes.
 *
 * The content is parsed with `JSON.parse`, then walked once, with an explicit
 * stack (never by recursion, so a page nested 50,000 levels deep is refused
 * at level 33 and never overflows the call stack), into a sanitised copy made
 * of arrays and null-prototype objects. Every failure is an `invalid_content`
 * error (422) whose `at` is a JSON Pointer (RFC 6901) built from the keys as
 * submitted, naming the first failing place found (`""` for the whole page).
 *
 * - Strings, keys included, are sanitised (see {@linkcode sanitiseText}) and
 *   then go through the markup rule (`markup_rule.ts`).
 * - The top level is an object; containers nest at most 32 deep (the top
 *   level is depth 1); a page holds at most 20,000 values, containers
 *   included.
 * - Keys are 1 to 64 characters after sanitising, never `__proto__`,
 *   `constructor` or `prototype`, and never equal to another key of the same
 *   object, whether as written (which `JSON.parse` would silently merge) or
 *   after sanitising.
 * - Every property named `id` is a string `^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`,
 *   unique in the page.
 * - Every property named `href` passes the link rule (`link_rule.ts`).
 * - Media: in every object with a `src` property, `src` is an image name
 *   (`media_rule.ts`), `width` and `height` when present are integers from 1
 *   to 10,000, and `alt` when present is plain text (no markup at all, not
 *   even a character reference).
 * - Numbers are finite: `1e999` parses to `Infinity`, which would be written
 *   as `null`, so it is refused.
 *
 * The byte cap on content belongs to the route, which checks it first.
 *
 * @module
 */

import { invalidContent } from "./http_error.ts";
import { isSafeLink } from "./link_rule.ts";
import { isPlainText, markupFailure } from "./markup_rule.ts";
import { isImageName } from "./media_rule.ts";

/** Deepest accepted nesting of containers; the top-level object is depth 1. */
export const PAGE_DEPTH_MAX = 32;
/** Most values a page may hold, containers included. */
export const PAGE_VALUES_MAX = 20_000;
/** Longest accepted key, in characters, after sanitising. */
export const PAGE_KEY_MAX = 64;
/** Smallest and largest accepted image side, in pixels. */
const SIDE_MIN = 1;
const SIDE_MAX = 10_000;

const ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const RESERVED_KEYS: ReadonlySet<string> = new Set([
  "__proto__",
  "constructor",
  "prototype",
]);
/** Anything the sanitiser may have to change, but Unicode normalisation. */
// deno-lint-ignore no-control-regex
const NEEDS_CLEANING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\ud800-\udfff]/;
// deno-lint-ignore no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** Every code point below U+0300 is stable under NFC. */
const MAY_COMPOSE = /[\u0300-\uffff]/;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Container = Json[] | { [key: string]: Json };

/** A container on the path from the top level, for error pointers. */
interface Place {
  readonly parent: Place | undefined;
  /** Its key as submitted, or its index. */
  readonly token: string;
}

/** A value waiting to be checked, and where its sanitised copy goes. */
interface Pending {
  readonly value: unknown;
  /** The container that holds the value; undefined for the top level. */
  readonly parent: Place | undefined;
  /** The key as submitted, or the index in an array. */
  readonly key: string | number;
  /** The sanitised property name; undefined for an array item. */
  readonly name: string | undefined;
  /** The depth of the container that holds the value. */
  readonly depth: number;
  readonly target: Container;
}

/**
 * Sanitises one string: lone surrogates become U+FFFD, `\r\n` and `\r`
 * become `\n`, C0 controls but tab and line feed are dropped, DEL and C1
 * controls are dropped, then the text is put in Unicode NFC.
 *
 * @param text the string as parsed
 * @returns the string as written
 */
export function sanitiseText(text: string): string {
  let clean = text;
  if (NEEDS_CLEANING.test(clean)) {
    clean = clean.toWellFormed().replace(/\r\n?/g, "\n").replace(CONTROLS, "");
  }
  return MAY_COMPOSE.test(clean) ? clean.normalize("NFC") : clean;
}

/**
 * Checks and sanitises a page file.
 *
 * @param content the whole page file, as text
 * @returns the text to write: the sanitised page as indented JSON and a final
 *   line feed
 * @throws {HttpError} 422 `invalid_content`, with `at`, on the first failure
 */
export function pageRules(content: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    throw invalidContent("", "Page is not valid JSON");
  }
  if (!isRecord(parsed)) {
    throw invalidContent("", "Page top level is not an object");
  }
  const walk = new PageWalk();
  const page = walk.object(parsed, undefined, 1);
  walk.run();
  if (walk.keys !== countMembers(content)) {
    const at = duplicateKeyPointer(content);
    throw invalidContent(at ?? "", "Page has a key written twice");
  }
  return JSON.stringify(page, null, 2) + "\n";
}

/** The walk over one parsed page: its stack, its counters, its ids. */
class PageWalk {
  readonly #stack: Pending[] = [];
  readonly #ids = new Set<string>();
  #values = 1;
  /** Keys seen, to compare with the members written in the text. */
  keys = 0;

  /** Checks and copies the values waiting, depth first, in document order. */
  run(): void {
    const stack = this.#stack;
    for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
      const copy = this.#value(next);
      if (next.name === undefined) {
        (next.target as Json[])[next.key as number] = copy;
      } else {
        // Targets are null-prototype objects and a name is never `__proto__`:
        // the assignment can only create an own data property.
        (next.target as Record<string, Json>)[next.name] = copy;
      }
    }
  }

  #value(item: Pending): Json {
    const { value, name } = item;
    let copy: Json;
    switch (typeof value) {
      case "string":
        copy = cleanString(value, item.parent, item.key);
        break;
      case "number":
        if (!Number.isFinite(value)) {
          throw invalidContent(
            pointer(item.parent, item.key),
            "Page holds a number too large",
          );
        }
        copy = value;
        break;
      case "boolean":
        copy = value;
        break;
      default:
        if (value === null) {
          copy = null;
        } else if (typeof value !== "object") {
          throw invalidContent(
            pointer(item.parent, item.key),
            "Page holds a value JSON has not",
          );
        } else if (name === "id" || name === "href") {
          throw invalidContent(
            pointer(item.parent, item.key),
            `Page has an ${name} that is not a string`,
          );
        } else {
          const place = { parent: item.parent, token: String(item.key) };
          return Array.isArray(value)
            ? this.#array(value, place, item.depth + 1)
            : this.object(
              value as Record<string, unknown>,
              place,
              item.depth + 1,
            );
        }
    }
    if (name === "id") this.#checkId(copy, item);
    else if (name === "href") checkHref(copy, item);
    return copy;
  }

  /** Checks an object's keys and media, and queues its values. */
  object(
    value: Record<string, unknown>,
    place: Place | undefined,
    depth: number,
  ): Record<string, Json> {
    if (depth > PAGE_DEPTH_MAX) {
      throw invalidContent(pointer(place), "Page is nested too deep");
    }
    const keys = Object.keys(value);
    const size = keys.length;
    this.keys += size;
    this.#count(size, place, keys);
    const names: string[] = new Array(size);
    let renamed = false;
    for (let index = 0; index < size; index++) {
      const key = keys[index] as string;
      const name = cleanKey(key, place);
      names[index] = name;
      if (name !== key) renamed = true;
    }
    if (renamed) checkRenamed(keys, names, place);
    if (names.includes("src")) checkMedia(value, keys, names, place);
    const copy: Record<string, Json> = Object.create(null);
    for (let index = size - 1; index >= 0; index--) {
      const key = keys[index] as string;
      this.#stack.push({
        value: value[key],
        parent: place,
        key,
        name: names[index],
        depth,
        target: copy,
      });
    }
    return copy;
  }

  /** Queues an array's items. */
  #array(value: unknown[], place: Place, depth: number): Json[] {
    if (depth > PAGE_DEPTH_MAX) {
      throw invalidContent(pointer(place), "Page is nested too deep");
    }
    const size = value.length;
    this.#count(size, place, undefined);
    const copy: Json[] = [];
    for (let index = size - 1; index >= 0; index--) {
      this.#stack.push({
        value: value[index],
        parent: place,
        key: index,
        name: undefined,
        depth,
        target: copy,
      });
    }
    return copy;
  }

  /** Counts the children of a container; the first one past the cap fails. */
  #count(
    size: number,
    place: Place | undefined,
    keys: readonly string[] | undefined,
  ): void {
    const before = this.#values;
    this.#values += size;
    if (this.#values > PAGE_VALUES_MAX) {
      const index = PAGE_VALUES_MAX - before;
      throw invalidContent(
        pointer(place, keys === undefined ? index : keys[index] ?? ""),
        `Page holds more than ${PAGE_VALUES_MAX} values`,
      );
    }
  }

  #checkId(id: Json, item: Pending): void {
    if (typeof id !== "string" || !ID.test(id)) {
      throw invalidContent(
        pointer(item.parent, item.key),
        "Page has an id that is not valid",
      );
    }
    if (this.#ids.has(id)) {
      throw invalidContent(
        pointer(item.parent, item.key),
        "Page has an id used twice",
      );
    }
    this.#ids.add(id);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The JSON Pointer of a place, or of one of its children: its tokens, `~`
 * written `~0` and `/` written `~1`, each after a `/`.
 */
function pointer(place: Place | undefined, child?: string | number): string {
  const tokens: string[] = child === undefined ? [] : [escape(String(child))];
  for (let at = place; at !== undefined; at = at.parent) {
    tokens.push(escape(at.token));
  }
  return tokens.length === 0 ? "" : "/" + tokens.reverse().join("/");
}

function escape(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

function cleanString(
  value: string,
  parent: Place | undefined,
  key: string | number,
): string {
  const clean = sanitiseText(value);
  const failure = markupFailure(clean);
  if (failure !== undefined) {
    throw invalidContent(
      pointer(parent, key),
      `Page holds hostile markup: ${failure}`,
    );
  }
  return clean;
}

function cleanKey(key: string, parent: Place | undefined): string {
  const name = sanitiseText(key);
  const length = name.length <= PAGE_KEY_MAX ? name.length : [...name].length;
  if (length < 1 || length > PAGE_KEY_MAX) {
    throw invalidContent(
      pointer(parent, key),
      "Page has a key empty or too long",
    );
  }
  if (RESERVED_KEYS.has(name)) {
    throw invalidContent(pointer(parent, key), "Page has a reserved key");
  }
  if (markupFailure(name) !== undefined) {
    throw invalidContent(pointer(parent, key), "Page has a key holding markup");
  }
  return name;
}

/** Two keys of one object must not become equal after sanitising. */
function checkRenamed(
  keys: readonly string[],
  names: readonly string[],
  place: Place | undefined,
): void {
  const seen = new Set<string>();
  names.forEach((name, index) => {
    if (seen.has(name)) {
      throw invalidContent(
        pointer(place, keys[index] ?? ""),
        "Page has two keys equal after sanitising",
      );
    }
    seen.add(name);
  });
}

function checkHref(href: Json, item: Pending): void {
  if (typeof href !== "string" || !isSafeLink(href)) {
    throw invalidContent(
      pointer(item.parent, item.key),
      "Page has a link that is not allowed",
    );
  }
}

/** The media rule, on an object with a `src`; names are the sanitised keys. */
function checkMedia(
  value: Record<string, unknown>,
  keys: readonly string[],
  names: readonly string[],
  place: Place | undefined,
): void {
  names.forEach((name, index) => {
    const key = keys[index] ?? "";
    const field = value[key];
    const at = (): string => pointer(place, key);
    switch (name) {
      case "src":
        if (typeof field !== "string" || !isImageName(sanitiseText(field))) {
          throw invalidContent(at(), "Page has an image name not allowed");
        }
        break;
      case "width":
      case "height":
        if (
          typeof field !== "number" || !Number.isInteger(field) ||
          field < SIDE_MIN || field > SIDE_MAX
        ) {
          throw invalidContent(at(), `Page has an image ${name} out of range`);
        }
        break;
      case "alt":
        if (typeof field !== "string" || !isPlainText(sanitiseText(field))) {
          throw invalidContent(at(), "Page has an image alt that is not plain");
        }
        break;
    }
  });
}

/**
 * Counts the object members written in a JSON text (its `:` outside
 * strings). The text is valid JSON: `JSON.parse` accepted it.
 */
function countMembers(text: string): number {
  let members = 0;
  let index = 0;
  for (;;) {
    const quote = text.indexOf('"', index);
    const end = quote < 0 ? text.length : quote;
    for (; index < end; index++) {
      if (text.charCodeAt(index) === 0x3a) members++;
    }
    if (quote < 0) return members;
    index = stringEnd(text, quote) + 1;
  }
}

/** The index of the quote that closes the string opened at `start`. */
function stringEnd(text: string, start: number): number {
  let close = text.indexOf('"', start + 1);
  while (close > 0) {
    let slashes = 0;
    while (text.charCodeAt(close - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return close;
    close = text.indexOf('"', close + 1);
  }
  return text.length;
}

/** A container being read by {@linkcode duplicateKeyPointer}. */
interface Open {
  readonly object: boolean;
  readonly keys: Set<string>;
  readonly place: Place | undefined;
  token: string;
  index: number;
  expectKey: boolean;
}

/**
 * Finds the first key written twice in the same object of a valid JSON text.
 *
 * @returns its pointer (to the second one), or undefined when there is none
 */
function duplicateKeyPointer(text: string): string | undefined {
  const open: Open[] = [];
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    const top = open.at(-1);
    if (code === 0x7b || code === 0x5b) { // "{" or "["
      const object = code === 0x7b;
      open.push({
        object,
        keys: new Set(),
        place: top === undefined
          ? undefined
          : { parent: top.place, token: top.token },
        token: "0",
        index: 0,
        expectKey: object,
      });
    } else if (code === 0x7d || code === 0x5d) { // "}" or "]"
      open.pop();
    } else if (code === 0x2c && top !== undefined) { // ","
      if (top.object) top.expectKey = true;
      else top.token = String(++top.index);
    } else if (code === 0x22) {
      const end = stringEnd(text, index);
      if (top?.object && top.expectKey) {
        const key = JSON.parse(text.slice(index, end + 1)) as string;
        if (top.keys.has(key)) return pointer(top.place, key);
        top.keys.add(key);
        top.token = key;
        top.expectKey = false;
      }
      index = end;
    }
    index++;
  }
  return undefined;
}
