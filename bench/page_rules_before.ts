/**
 * The page rules as they were before every problem was collected (commit
 * `10d1b2e`, `lib/pages/page_rules.ts`), kept only for the benchmark to
 * compare with in the same run: it stops at the first problem and has
 * neither the check of link values under any key nor the markdown rule. It
 * uses today's helpers (markup, link, media, attribute rules), which answer
 * a page that passes as they did.
 *
 * @module
 */

import {
  attributeText,
  FORBIDDEN,
  HREF_KEY,
  ID_KEY,
  keyRole,
  MEDIA_FIELD_KEY,
  PLAIN,
  SRC_KEY,
  URL_VALUED,
} from "../lib/pages/attribute_rule.ts";
import {
  lossyNumberPointer,
  mayHoldLossyNumber,
} from "../lib/pages/exact_number.ts";
import {
  type JsonPlace,
  jsonPointer as pointer,
  scanJson,
  stringEnd,
} from "../lib/pages/json_scan.ts";
import { PageRuleError } from "../lib/pages/page_rule_error.ts";
import { isSafeLink } from "../lib/pages/link_rule.ts";
import {
  isPlainText,
  markupFailure,
  UNSAFE_HREF,
} from "../lib/pages/markup_rule.ts";
import { isImageName } from "../lib/pages/media_rule.ts";
import {
  IMAGE_SIDE_MAX,
  IMAGE_SIDE_MIN,
  PAGE_DEPTH_MAX,
  PAGE_KEY_MAX,
  PAGE_VALUES_MAX,
} from "../lib/limits.ts";
import { codePoints } from "../lib/encoding/text.ts";

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
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** Every code point below U+0300 is stable under NFC. */
const MAY_COMPOSE = /[\u0300-\uffff]/;

/** What a key or string needs, found by {@linkcode lookAt}. */
const MAY_CHANGE = 1;
const MAY_HOLD_MARKUP = 2;
const HOLDS_COLON = 4;
/** Strings up to this length are looked at one character at a time. */
const SHORT_TEXT = 32;
/** The flags of the code points below U+00A0 (from U+00A0 to U+02FF: none). */
const LOW_FLAGS = Uint8Array.from(
  { length: 0xa0 },
  (_, code) =>
    (code < 0x20 && code !== 0x09 && code !== 0x0a) || code >= 0x7f
      ? MAY_CHANGE
      : code === 0x3c || code === 0x26
      ? MAY_HOLD_MARKUP
      : code === 0x3a
      ? HOLDS_COLON
      : 0,
);

/** A container on the path from the top level, for error pointers. */
type Place = JsonPlace;

/**
 * Sanitises one string: lone surrogates become U+FFFD, `\r\n` and `\r`
 * become `\n`, C0 controls but tab and line feed are dropped, DEL and C1
 * controls are dropped, then the text is put in Unicode NFC.
 *
 * @param text the string as parsed
 * @returns the string as written
 */
function sanitiseText(text: string): string {
  return (lookAt(text) & MAY_CHANGE) === 0 ? text : sanitiseChanged(text);
}

/** The sanitiser, on a string it may change. */
function sanitiseChanged(text: string): string {
  let clean = text;
  if (NEEDS_CLEANING.test(clean)) {
    clean = clean.toWellFormed().replace(/\r\n?/g, "\n").replace(CONTROLS, "");
  }
  return MAY_COMPOSE.test(clean) ? clean.normalize("NFC") : clean;
}

/**
 * What a key or string needs: sanitising (it holds a C0 control but tab and
 * line feed, DEL, a C1 control, or a code point from U+0300, which may be a
 * surrogate or change under NFC), a markup check (it holds `<` or `&`), a
 * count of its `:`. One flag for each, or 0 when it is written as parsed.
 */
function lookAt(text: string): number {
  if (text.length <= SHORT_TEXT) {
    let flags = 0;
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      flags |= code < 0xa0
        ? LOW_FLAGS[code] as number
        : code < 0x300
        ? 0
        : MAY_CHANGE;
    }
    return flags;
  }
  let flags = CONTROL.test(text) || MAY_COMPOSE.test(text) ? MAY_CHANGE : 0;
  if (text.includes("<") || text.includes("&")) flags |= MAY_HOLD_MARKUP;
  if (text.includes(":")) flags |= HOLDS_COLON;
  return flags;
}

/**
 * Checks and sanitises a page file.
 *
 * @param content the whole page file, as text
 * @returns the text to write: the sanitised page as indented JSON and a final
 *   line feed
 * @throws {PageRuleError} with `at` and `reason`, on the first failure
 */
export function pageRulesBefore(content: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    throw new PageRuleError("", "json", "Page is not valid JSON");
  }
  if (!isRecord(parsed)) {
    throw new PageRuleError("", "shape", "Page top level is not an object");
  }
  const walk = new PageWalk();
  const page = walk.object(parsed, undefined, 1);
  if (walk.keys !== membersWritten(content, walk.colons)) {
    const at = duplicateKeyPointer(content);
    throw new PageRuleError(
      at ?? "",
      "duplicate_key",
      "Page has a key written twice",
    );
  }
  if (mayHoldLossyNumber(content)) {
    const at = lossyNumberPointer(content);
    if (at !== undefined) {
      throw new PageRuleError(
        at,
        "number",
        "Page has a number whose value parsing changes",
      );
    }
  }
  return JSON.stringify(page, null, 2) + "\n";
}

/**
 * The walk over one parsed page: its counters, its ids, the names of the keys
 * it accepted. Each container is checked (depth, count, keys, media) when the
 * walk reaches it, then its children in order, nested containers first
 * (depth first, document order), so the first failure found is the first in
 * the page; recursion goes one call deeper per level, at most 32.
 */
class PageWalk {
  readonly #ids = new Set<string>();
  /** Keys already accepted in this page, and their sanitised names. */
  readonly #names = new Map<string, string>();
  /** The role of each sanitised name met (`attribute_rule.ts`). */
  readonly #roles = new Map<string, number>();
  #values = 1;
  /** Keys seen, to compare with the members written in the text. */
  keys = 0;
  /** The `:` in the keys and strings seen. */
  colons = 0;

  /**
   * Checks an object's keys and media, then its values.
   *
   * @returns the object, sanitised in place, or its copy under sanitised
   *   names
   */
  object(
    value: Record<string, unknown>,
    place: Place | undefined,
    depth: number,
  ): Record<string, unknown> {
    if (depth > PAGE_DEPTH_MAX) {
      throw new PageRuleError(
        pointer(place),
        "depth",
        "Page is nested too deep",
      );
    }
    const keys = Object.keys(value);
    const size = keys.length;
    this.keys += size;
    this.#count(size, place, keys);
    let names: string[] = keys;
    const roles = new Uint8Array(size);
    let media = false;
    for (let index = 0; index < size; index++) {
      const key = keys[index] as string;
      const name = this.#cleanKey(key, place);
      if (name !== key) {
        if (names === keys) names = keys.slice();
        names[index] = name;
      }
      const role = this.#roleOf(name);
      roles[index] = role;
      if (role === SRC_KEY) media = true;
    }
    let target = value;
    if (names !== keys) {
      checkRenamed(keys, names, place);
      // Names are never `__proto__`: each assignment creates an own property.
      target = Object.create(null);
      for (let index = 0; index < size; index++) {
        target[names[index] as string] = value[keys[index] as string];
      }
    }
    if (media) checkMedia(value, keys, names, roles, place);
    // In the order of Object.keys, read at once rather than key by key.
    const values = Object.values(value);
    for (let index = 0; index < size; index++) {
      const child = values[index];
      const name = names[index] as string;
      const clean = this.#child(
        child,
        keys[index] as string,
        roles[index] as number,
        place,
        depth,
        media,
      );
      if (clean !== child) target[name] = clean;
    }
    return target;
  }

  /** Checks an array's items; returns it, sanitised in place. */
  #array(value: unknown[], place: Place, depth: number): unknown[] {
    if (depth > PAGE_DEPTH_MAX) {
      throw new PageRuleError(
        pointer(place),
        "depth",
        "Page is nested too deep",
      );
    }
    const size = value.length;
    this.#count(size, place, undefined);
    for (let index = 0; index < size; index++) {
      const child = value[index];
      const clean = this.#child(child, index, PLAIN, place, depth, false);
      if (clean !== child) value[index] = clean;
    }
    return value;
  }

  /**
   * Checks one child of a container of the given depth.
   *
   * @param key its key as submitted, or its index
   * @param role the role of its key (`attribute_rule.ts`); `PLAIN` for an
   *   item
   * @param inImage whether its object is an image, where URL-bearing names
   *   are checked by the media rule instead of the link rule
   * @returns the child as it is written
   */
  #child(
    value: unknown,
    key: string | number,
    role: number,
    place: Place | undefined,
    depth: number,
    inImage: boolean,
  ): unknown {
    switch (typeof value) {
      case "string": {
        const flags = lookAt(value);
        const clean = flags === 0
          ? value
          : this.#cleanString(value, flags, place, key);
        if (role === ID_KEY) this.#checkId(clean, place, key);
        else if (role === HREF_KEY || (role === URL_VALUED && !inImage)) {
          checkHref(clean, place, key);
        }
        return clean;
      }
      case "number":
        if (!Number.isFinite(value)) {
          throw new PageRuleError(
            pointer(place, key),
            "number",
            "Page holds a number too large",
          );
        }
        break;
      case "boolean":
        break;
      case "object": {
        if (value === null) break;
        if (role === ID_KEY || role === HREF_KEY) {
          throw new PageRuleError(
            pointer(place, key),
            role === ID_KEY ? "id" : "link",
            `Page has an ${
              role === ID_KEY ? "id" : "href"
            } that is not a string`,
          );
        }
        const inner = { parent: place, token: String(key) };
        if (!Array.isArray(value)) {
          return this.object(
            value as Record<string, unknown>,
            inner,
            depth + 1,
          );
        }
        const items = this.#array(value, inner, depth + 1);
        // A list under a URL-bearing name is written as its items joined.
        if (role === URL_VALUED && !inImage) {
          const text = attributeText(items);
          if (text) checkHref(text, place, key);
        }
        return items;
      }
      default:
        throw new PageRuleError(
          pointer(place, key),
          "shape",
          "Page holds a value JSON has not",
        );
    }
    if (role === ID_KEY) this.#checkId(value, place, key);
    else if (role === HREF_KEY) checkHref(value, place, key);
    return value;
  }

  /** The role of a sanitised key name (`attribute_rule.ts`), remembered. */
  #roleOf(name: string): number {
    let role = this.#roles.get(name);
    if (role === undefined) {
      role = keyRole(name);
      this.#roles.set(name, role);
    }
    return role;
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
      throw new PageRuleError(
        pointer(place, keys === undefined ? index : keys[index] ?? ""),
        "size",
        `Page holds more than ${PAGE_VALUES_MAX} values`,
      );
    }
  }

  /** Sanitises a string that may need it and checks its markup. */
  #cleanString(
    value: string,
    flags: number,
    place: Place | undefined,
    key: string | number,
  ): string {
    if ((flags & HOLDS_COLON) !== 0) this.#countColons(value);
    if (flags === HOLDS_COLON) return value;
    const clean = (flags & MAY_CHANGE) === 0 ? value : sanitiseChanged(value);
    const failure = markupFailure(clean);
    if (failure !== undefined) {
      throw new PageRuleError(
        pointer(place, key),
        failure === UNSAFE_HREF ? "link" : "markup",
        `Page holds hostile markup: ${failure}`,
      );
    }
    return clean;
  }

  #cleanKey(key: string, place: Place | undefined): string {
    const known = this.#names.get(key);
    if (known !== undefined) return known;
    const flags = lookAt(key);
    if ((flags & HOLDS_COLON) !== 0) this.#countColons(key);
    const name = (flags & MAY_CHANGE) === 0 ? key : sanitiseChanged(key);
    // Within the cap in UTF-16 units is within it in code points: no count.
    const length = name.length <= PAGE_KEY_MAX
      ? name.length
      : codePoints(name, PAGE_KEY_MAX);
    if (length < 1 || length > PAGE_KEY_MAX) {
      throw new PageRuleError(
        pointer(place, key),
        "key",
        "Page has a key empty or too long",
      );
    }
    if (RESERVED_KEYS.has(name)) {
      throw new PageRuleError(
        pointer(place, key),
        "key",
        "Page has a reserved key",
      );
    }
    if (this.#roleOf(name) === FORBIDDEN) {
      throw new PageRuleError(
        pointer(place, key),
        "key",
        "Page has a key that HTML reads as an event handler, style, srcdoc or an attribute with its value",
      );
    }
    // Only a key that holds `<` or `&` or that sanitising changed (which
    // markupFailure checks again) may hold markup.
    if (
      (flags & (MAY_CHANGE | MAY_HOLD_MARKUP)) !== 0 &&
      markupFailure(name) !== undefined
    ) {
      throw new PageRuleError(
        pointer(place, key),
        "key",
        "Page has a key holding markup",
      );
    }
    // A key with a `:` is looked at each time, so that every `:` is counted.
    if ((flags & HOLDS_COLON) === 0) this.#names.set(key, name);
    return name;
  }

  #countColons(text: string): void {
    for (let at = text.indexOf(":"); at >= 0; at = text.indexOf(":", at + 1)) {
      this.colons++;
    }
  }

  #checkId(id: unknown, place: Place | undefined, key: string | number): void {
    if (typeof id !== "string" || !ID.test(id)) {
      throw new PageRuleError(
        pointer(place, key),
        "id",
        "Page has an id that is not valid",
      );
    }
    if (this.#ids.has(id)) {
      throw new PageRuleError(
        pointer(place, key),
        "duplicate_id",
        "Page has an id used twice",
      );
    }
    this.#ids.add(id);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function checkHref(
  href: unknown,
  place: Place | undefined,
  key: string | number,
): void {
  if (typeof href !== "string" || !isSafeLink(href)) {
    throw new PageRuleError(
      pointer(place, key),
      "link",
      "Page has a link that is not allowed",
    );
  }
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
      throw new PageRuleError(
        pointer(place, keys[index] ?? ""),
        "duplicate_key",
        "Page has two keys equal after sanitising",
      );
    }
    seen.add(name);
  });
}

/**
 * The media rule, on an object with a `src` (whatever its case); names are
 * the sanitised keys, roles their roles. In an image every URL-bearing name
 * is an image name too, so that the object spread into `<img>` loads nothing
 * from another origin (`srcset`, `lowsrc`…).
 */
function checkMedia(
  value: Record<string, unknown>,
  keys: readonly string[],
  names: readonly string[],
  roles: Uint8Array,
  place: Place | undefined,
): void {
  for (let index = 0; index < names.length; index++) {
    const role = roles[index];
    if (role !== SRC_KEY && role !== MEDIA_FIELD_KEY && role !== URL_VALUED) {
      continue;
    }
    const key = keys[index] ?? "";
    const field = value[key];
    if (role === URL_VALUED) {
      const text = attributeText(field);
      if (text && !isTextPassing(text, isImageName)) {
        throw new PageRuleError(
          pointer(place, key),
          "media",
          "Page has an image address that is not an image name",
        );
      }
      continue;
    }
    const name = (names[index] as string).toLowerCase();
    let problem: string | undefined;
    switch (name) {
      case "src":
        if (!isTextPassing(field, isImageName)) problem = "name not allowed";
        break;
      case "width":
      case "height":
        if (
          typeof field !== "number" || !Number.isInteger(field) ||
          field < IMAGE_SIDE_MIN || field > IMAGE_SIDE_MAX
        ) {
          problem = `${name} out of range`;
        }
        break;
      case "alt":
        if (!isTextPassing(field, isPlainText)) {
          problem = "alt that is not plain";
        }
        break;
    }
    if (problem !== undefined) {
      const side = name === "width" || name === "height";
      throw new PageRuleError(
        pointer(place, key),
        side && !Number.isInteger(field) ? "shape" : "media",
        `Page has an image ${problem}`,
      );
    }
  }
}

/** Whether a value is a string that, sanitised, passes a test. */
function isTextPassing(value: unknown, test: (text: string) => boolean) {
  return typeof value === "string" && test(sanitiseText(value));
}

/**
 * The object members written in a JSON text that `JSON.parse` accepted, or a
 * number other than the keys walked when a key is written twice in an
 * object. `walkedColons` is the number of `:` in the keys and strings the
 * walk went through (all of them, once each).
 *
 * Every `:` of the text is a member's or is inside a string. Unless one is
 * written as an escape (`\u003a` or `\u003A`: then the members are counted
 * by reading the text), a string holds as many `:` written as parsed. With
 * no key written twice, every string written is parsed and walked, so the
 * `:` of the text less those walked are the members, as many as the keys
 * walked. With a key written twice, `JSON.parse` keeps one member of the
 * pair: the other and all it holds are never walked, so fewer keys are walked
 * than members written, while this count is at least the members written.
 */
function membersWritten(text: string, walkedColons: number): number {
  for (
    let at = text.indexOf("\\u003");
    at >= 0;
    at = text.indexOf("\\u003", at + 1)
  ) {
    if ((text.charCodeAt(at + 5) | 0x20) === 0x61) return countMembers(text);
  }
  return (text.match(/:/g)?.length ?? 0) - walkedColons;
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

/**
 * Finds the first key written twice in the same object of a valid JSON text.
 *
 * @returns its pointer (to the second one), or undefined when there is none
 */
function duplicateKeyPointer(text: string): string | undefined {
  return scanJson(text, {
    key: (key, before, object) =>
      before.has(key) ? pointer(object, key) : undefined,
  });
}
