/**
 * `lib/pages/`, the pages concern: which page paths exist and what a page
 * may hold. It knows nothing of HTTP: a refusal is a `PageRuleError`.
 *
 * The page-file rules: what `/api/save` checks in a page and what it writes.
 *
 * The content is parsed with `JSON.parse`, then walked once, depth first and
 * in document order, and sanitised in place: a string that sanitising
 * changes is replaced, an object whose keys it changes is replaced by a
 * null-prototype copy under the new names, and nothing else is copied, so
 * that the page is written from what `JSON.parse` made. The walk checks the
 * depth of a container before it looks inside, so it never goes deeper than
 * the cap: a page nested 50,000 levels deep (which `JSON.parse` reads without
 * recursion) is refused at level 33 and never overflows the call stack (the
 * walk goes one call deeper per level, at most 32, and never enters a
 * container deeper than the cap). Every problem is collected, in document
 * order, up to 50: a refusal is a {@linkcode PageRuleError} whose `problems`
 * each hold a JSON Pointer (RFC 6901) built from the keys as submitted (`""`
 * for the whole page), a stable `code` and a `detail` naming what is wrong,
 * and whose `at` and `code` are the first problem's. The walk ends at a text
 * that is not JSON or whose top level is not an object, and at the value past
 * the value cap.
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
 * - A string under any other key, or in a list, is never itself a URL whose
 *   scheme runs script or carries a document (`isScriptUrl`), and every
 *   markdown link, image and reference target in it passes the link rule
 *   (`markdown_rule.ts`): templates write such values into `href` or through
 *   a markdown renderer.
 * - Keys are read as HTML attribute names (`attribute_rule.ts`): `style` and
 *   event handlers (`on…`) are refused in any letter case, and a string under
 *   any other URL-bearing name (`HREF`, `srcset`, `formaction`, `xlink:href`,
 *   …) passes the link rule.
 * - Media: in every object with a `src` property, `src` is an image name
 *   (`media_rule.ts`), `width` and `height` when present are integers from 1
 *   to 10,000, and `alt` when present is plain text (no markup at all, not
 *   even a character reference).
 * - Numbers are finite: `1e999` parses to `Infinity`, which would be written
 *   as `null`, so it is refused.
 * - When the site refuses template syntax (`templateSyntax: "refuse"`), no
 *   string and no key holds `{{`, `{%` or `{#` (`template_rule.ts`).
 *
 * The byte cap on content belongs to the route, which checks it first.
 *
 * @module
 */

import {
  attributeText,
  FORBIDDEN,
  forbiddenKeyWhy,
  HREF_KEY,
  ID_KEY,
  keyRole,
  MEDIA_FIELD_KEY,
  PLAIN,
  SRC_KEY,
  URL_VALUED,
} from "./attribute_rule.ts";
import { isExactNumber, mayHoldLossyNumber } from "./exact_number.ts";
import {
  type JsonPlace,
  jsonPointer as pointer,
  scanJson,
  stringEnd,
} from "./json_scan.ts";
import {
  type PageProblem,
  type PageRuleCode,
  PageRuleError,
} from "./page_rule_error.ts";
import { isSafeLink, isScriptUrl } from "./link_rule.ts";
import { mayHoldMarkdownLink, unsafeMarkdownTarget } from "./markdown_rule.ts";
import {
  isPlainText,
  markupFailure,
  shownValue,
  UNSAFE_HREF,
} from "./markup_rule.ts";
import { imageNameProblem } from "./media_rule.ts";
import {
  refusesTemplateSyntax,
  type TemplateSyntax,
  templateSyntaxIn,
} from "./template_rule.ts";
import {
  IMAGE_SIDE_MAX,
  IMAGE_SIDE_MIN,
  PAGE_DEPTH_MAX,
  PAGE_KEY_MAX,
  PAGE_PROBLEMS_MAX,
  PAGE_VALUES_MAX,
} from "../limits.ts";
import { codePoints } from "../encoding/text.ts";
import { parsePointer } from "../wire/pointer.ts";

export { PageRuleError } from "./page_rule_error.ts";
export type {
  PageProblem,
  PageRuleCode,
  PageRuleReason,
} from "./page_rule_error.ts";

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
/** A `]`, which a markdown link or reference definition needs. */
const HOLDS_BRACKET = 8;
/** A `{`, which template syntax needs (`{{`, `{%`, `{#`). */
const HOLDS_BRACE = 16;
/** What makes a string worth the checks of text under any key. */
const MAY_HOLD_URL = HOLDS_COLON | MAY_HOLD_MARKUP | HOLDS_BRACKET;
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
      : code === 0x5d
      ? HOLDS_BRACKET
      : code === 0x7b
      ? HOLDS_BRACE
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
export function sanitiseText(text: string): string {
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
 * count of its `:`, a look for markdown links (it holds `]`), a look for
 * template syntax (it holds `{`). One flag for each, or 0 when it is written
 * as parsed and no rule reads it.
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
  if (text.includes("]")) flags |= HOLDS_BRACKET;
  if (text.includes("{")) flags |= HOLDS_BRACE;
  return flags;
}

/**
 * Checks and sanitises a page file.
 *
 * Every problem is collected, in document order, up to `most` of them
 * (`PAGE_PROBLEMS_MAX` of `lib/limits.ts` by default), except after those that end
 * the walk: a text that is not JSON or whose top level is not an object (the
 * only problem), and a page over the value cap (nothing after the value past
 * the cap is looked at). A container nested too deep is one problem, and
 * nothing inside it is looked at. With `most` at 1, the walk stops at the
 * first problem it meets (the benchmark compares both).
 *
 * @param content the whole page file, as text
 * @param most how many problems to collect before stopping
 * @param options the site's own rules: `templateSyntax: "refuse"` refuses
 *   `{{`, `{%` and `{#` in every string and key (`template_rule.ts`)
 * @returns the text to write: the sanitised page as indented JSON and a final
 *   line feed
 * @throws {PageRuleError} with `at` and `code` of the first problem and
 *   `problems`, every problem found in document order
 */
export function pageRules(
  content: string,
  most: number = PAGE_PROBLEMS_MAX,
  options: PageRuleOptions = {},
): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch (error) {
    throw new PageRuleError(
      "",
      "json",
      `not valid JSON: ${(error as Error).message}`,
    );
  }
  if (!isRecord(parsed)) {
    throw new PageRuleError(
      "",
      "shape",
      `the top level is ${
        Array.isArray(parsed) ? "an array" : `a ${typeOf(parsed)}`
      }, not an object`,
    );
  }
  const walk = new PageWalk(
    most,
    refusesTemplateSyntax(options.templateSyntax),
  );
  let page: Record<string, unknown> = parsed;
  try {
    page = walk.object(parsed, undefined, 1);
  } catch (thrown) {
    if (thrown !== STOP) throw thrown;
  }
  const found = walk.problems;
  // Stopping at the first problem: the walk's is the one.
  if (found.length > 0 && most === 1) throw refusal(content, [found], most);
  const duplicates =
    found.length > 0 || walk.keys !== membersWritten(content, walk.colons)
      ? duplicateKeys(content, most)
      : [];
  const numbers = mayHoldLossyNumber(content)
    ? lossyNumbers(content, most)
    : [];
  if (found.length + duplicates.length + numbers.length > 0) {
    throw refusal(content, [found, duplicates, numbers], most);
  }
  return JSON.stringify(page, null, 2) + "\n";
}

/** The rules a site adds to the page rules. */
export interface PageRuleOptions {
  /** `"refuse"`: template syntax is refused in every string and key. */
  readonly templateSyntax?: TemplateSyntax | undefined;
}

/** Thrown inside the walk to end it; never leaves {@linkcode pageRules}. */
const STOP: unique symbol = Symbol("stop");

/**
 * The refusal of a page: its problems in document order, `most` at most.
 * Each list is in document order already (the walk's, the keys written
 * twice, the numbers that change); they are merged by place: a container
 * before what it holds, but a key written twice after what its first
 * occurrence holds, since that is written before it.
 */
function refusal(
  content: string,
  lists: PageProblem[][],
  most: number,
): PageRuleError {
  const sources = lists.filter((list) => list.length > 0);
  let problems = sources[0] ?? [];
  if (sources.length > 1) {
    const page: unknown = JSON.parse(content);
    const twice = new Set(
      lists[1]?.map(({ at }) => at),
    );
    const heads = sources.map(() => 0);
    const seen = new Set<string>();
    problems = [];
    while (problems.length < most) {
      let pick = -1;
      let best: PageProblem | undefined;
      sources.forEach((source, index) => {
        const head = source[heads[index] as number];
        if (head === undefined) return;
        if (best === undefined || comesBefore(page, twice, head, best)) {
          pick = index;
          best = head;
        }
      });
      if (best === undefined) break;
      heads[pick] = (heads[pick] as number) + 1;
      // A place has each code once (a number too large is found twice).
      const name = `${best.code} ${best.at}`;
      if (seen.has(name)) continue;
      seen.add(name);
      problems.push(best);
    }
  }
  problems = problems.slice(0, most);
  const first = problems[0] as PageProblem;
  const more = problems.length > 1
    ? ` (and ${problems.length - 1} more problem${
      problems.length > 2 ? "s" : ""
    })`
    : "";
  return new PageRuleError(first.at, first.code, first.detail + more, problems);
}

/**
 * Whether a problem comes strictly before another in the page, `twice`
 * being the places of keys written twice.
 */
function comesBefore(
  page: unknown,
  twice: ReadonlySet<string>,
  a: PageProblem,
  b: PageProblem,
): boolean {
  const left = tokens(a.at);
  const right = tokens(b.at);
  const common = commonLength(left, right);
  if (common === Math.min(left.length, right.length)) {
    // At one place, a key written twice is written before its value.
    if (left.length === right.length) {
      return a.code === "duplicate_key" && b.code !== "duplicate_key";
    }
    // One place holds the other: the container first, but a key written
    // twice (and the value the walk saw there, its last) after what its
    // first occurrence holds.
    const outer = left.length < right.length ? a : b;
    const outerFirst = !twice.has(outer.at);
    return outer === a ? outerFirst : !outerFirst;
  }
  return documentOrder(page, left, right) < 0;
}

function commonLength(a: string[], b: string[]): number {
  let index = 0;
  while (index < a.length && index < b.length && a[index] === b[index]) index++;
  return index;
}

/** The reference tokens of a JSON Pointer. */
const tokens = parsePointer;

/**
 * Which of two places comes first in a page: a container before what it
 * holds, items by index, members in the order `JSON.parse` keeps them (the
 * order written, but for keys that are array indexes, which come first).
 */
function documentOrder(page: unknown, a: string[], b: string[]): number {
  let node: unknown = page;
  for (let index = 0;; index++) {
    if (index >= a.length || index >= b.length) return a.length - b.length;
    const left = a[index] as string;
    const right = b[index] as string;
    if (left !== right) {
      if (Array.isArray(node)) return Number(left) - Number(right);
      if (typeof node !== "object" || node === null) return 0;
      const keys = Object.keys(node);
      const at = (key: string) => {
        const found = keys.indexOf(key);
        return found < 0 ? keys.length : found;
      };
      return at(left) - at(right);
    }
    node =
      typeof node === "object" && node !== null && Object.hasOwn(node, left)
        ? (node as Record<string, unknown>)[left]
        : undefined;
  }
}

function typeOf(value: unknown): string {
  return value === null ? "null" : typeof value;
}

/** The words a link refusal ends with. */
const LINK_ALLOWED =
  "a link is a site path (/…, not //), a #fragment, or an https:, http:, mailto: or tel: URL";

/**
 * The walk over one parsed page: its counters, its ids, the names of the keys
 * it accepted, the problems it found. Each container is checked (depth,
 * count, keys, media) when the walk reaches it, then its children in order,
 * nested containers first (depth first, document order), so problems are
 * found in the page's order; recursion goes one call deeper per level, at
 * most 32 (a container deeper than that is not entered).
 */
class PageWalk {
  readonly #ids = new Map<string, string>();
  /** Keys already accepted in this page, and their sanitised names. */
  readonly #names = new Map<string, string>();
  /** The role of each sanitised name met (`attribute_rule.ts`). */
  readonly #roles = new Map<string, number>();
  readonly #most: number;
  /** Whether template syntax is refused. */
  readonly #templates: boolean;
  #values = 1;
  /** The problems found, in the walk's order. */
  readonly problems: PageProblem[] = [];
  /** Keys seen, to compare with the members written in the text. */
  keys = 0;
  /** The `:` in the keys and strings seen. */
  colons = 0;

  constructor(most: number, templates: boolean) {
    this.#most = most;
    this.#templates = templates;
  }

  /** While an object's keys are checked: problems wait for their member. */
  #holding = false;

  /** Records a problem; ends the walk once `most` are found. */
  #report(at: string, code: PageRuleCode, detail: string): void {
    this.problems.push({ at, code, detail });
    if (!this.#holding && this.problems.length >= this.#most) throw STOP;
  }

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
      this.#report(
        pointer(place),
        "depth",
        `nested deeper than ${PAGE_DEPTH_MAX} levels`,
      );
      return value;
    }
    const keys = Object.keys(value);
    const size = keys.length;
    this.keys += size;
    this.#count(size, place, keys);
    // The problems of keys and media are listed with their member's value.
    const mark = this.problems.length;
    this.#holding = true;
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
      this.#checkRenamed(keys, names, place);
      // Names are never `__proto__`: each assignment creates an own property.
      target = Object.create(null);
      for (let index = 0; index < size; index++) {
        target[names[index] as string] = value[keys[index] as string];
      }
    }
    if (media) this.#checkMedia(value, keys, names, roles, place);
    this.#holding = false;
    const held = this.problems.length > mark
      ? this.problems.splice(mark)
      : undefined;
    // In the order of Object.keys, read at once rather than key by key.
    const values = Object.values(value);
    for (let index = 0; index < size; index++) {
      const child = values[index];
      const name = names[index] as string;
      if (held !== undefined) this.#release(held, pointer(place, keys[index]));
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

  /** Lists the held problems of one member, in the order they were found. */
  #release(held: PageProblem[], at: string): void {
    for (const problem of held) {
      if (problem.at !== at) continue;
      this.problems.push(problem);
      if (this.problems.length >= this.#most) throw STOP;
    }
  }

  /** Checks an array's items; returns it, sanitised in place. */
  #array(value: unknown[], place: Place, depth: number): unknown[] {
    if (depth > PAGE_DEPTH_MAX) {
      this.#report(
        pointer(place),
        "depth",
        `nested deeper than ${PAGE_DEPTH_MAX} levels`,
      );
      return value;
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
        if (clean === undefined) return value;
        if (this.#templates && (flags & HOLDS_BRACE) !== 0) {
          this.#checkTemplate(clean, place, key, "string");
        }
        if (role === ID_KEY) this.#checkId(clean, place, key);
        else if (role === HREF_KEY || (role === URL_VALUED && !inImage)) {
          this.#checkHref(clean, place, key);
        } else if (
          (flags & MAY_HOLD_URL) !== 0 &&
          (!inImage || (role !== URL_VALUED && role !== SRC_KEY))
        ) {
          this.#checkText(clean, place, key);
        }
        return clean;
      }
      case "number":
        if (!Number.isFinite(value)) {
          this.#report(
            pointer(place, key),
            "number",
            "a number too large to write",
          );
          return value;
        }
        break;
      case "boolean":
        break;
      case "object": {
        if (value === null) break;
        if (role === ID_KEY || role === HREF_KEY) {
          this.#report(
            pointer(place, key),
            role === ID_KEY ? "id" : "link",
            `${role === ID_KEY ? "an id" : "an href"} must be a string, not ${
              Array.isArray(value) ? "a list" : "an object"
            }`,
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
        const before = this.problems.length;
        const items = this.#array(value, inner, depth + 1);
        // A list under a URL-bearing name is written as its items joined;
        // its problem comes before those of its items.
        if (role === URL_VALUED && !inImage) {
          const text = attributeText(items);
          if (text && !isSafeLink(text)) {
            this.problems.splice(before, 0, {
              at: pointer(place, key),
              code: "link",
              detail: `list ${
                shownValue(text)
              }, written as its items joined by commas, is not allowed: ${LINK_ALLOWED}`,
            });
            if (this.problems.length >= this.#most) throw STOP;
          }
        }
        return items;
      }
      default:
        this.#report(pointer(place, key), "shape", "a value JSON has not");
        return value;
    }
    if (role === ID_KEY) this.#checkId(value, place, key);
    else if (role === HREF_KEY) this.#checkHref(value, place, key);
    return value;
  }

  /**
   * The checks of a string under any key that is not a link: it is not
   * itself a `javascript:` URL, and no markdown link or image in it has a
   * target the link rule refuses.
   */
  #checkText(text: string, place: Place | undefined, key: string | number) {
    if (isScriptUrl(text)) {
      this.#report(
        pointer(place, key),
        "link",
        `${
          shownValue(text)
        } is a URL whose scheme runs script or carries a document, under any key`,
      );
      return;
    }
    if (!mayHoldMarkdownLink(text)) return;
    const target = unsafeMarkdownTarget(text);
    if (target !== undefined) {
      this.#report(
        pointer(place, key),
        "link",
        `markdown link target ${
          shownValue(target)
        } is not allowed: ${LINK_ALLOWED}`,
      );
    }
  }

  /**
   * The template-syntax rule (`template_rule.ts`), on a string or a key
   * the site's templates could run.
   *
   * @returns whether it passed
   */
  #checkTemplate(
    text: string,
    place: Place | undefined,
    key: string | number,
    what: "string" | "key",
  ): boolean {
    const syntax = templateSyntaxIn(text);
    if (syntax === undefined) return true;
    this.#report(
      pointer(place, key),
      "template",
      `${what} ${
        shownValue(text)
      } holds template syntax (${syntax}): the site renders strings as templates, where it would run`,
    );
    return false;
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

  /**
   * Counts the children of a container; the first one past the cap is a
   * problem that ends the walk.
   */
  #count(
    size: number,
    place: Place | undefined,
    keys: readonly string[] | undefined,
  ): void {
    const before = this.#values;
    this.#values += size;
    if (this.#values > PAGE_VALUES_MAX) {
      const index = PAGE_VALUES_MAX - before;
      this.problems.push({
        at: pointer(place, keys === undefined ? index : keys[index] ?? ""),
        code: "size",
        detail: `more than ${PAGE_VALUES_MAX} values`,
      });
      throw STOP;
    }
  }

  /**
   * Sanitises a string that may need it and checks its markup.
   *
   * @returns the string as written, or `undefined` when its markup is refused
   */
  #cleanString(
    value: string,
    flags: number,
    place: Place | undefined,
    key: string | number,
  ): string | undefined {
    if ((flags & HOLDS_COLON) !== 0) this.#countColons(value);
    if ((flags & (MAY_CHANGE | MAY_HOLD_MARKUP)) === 0) return value;
    const clean = (flags & MAY_CHANGE) === 0 ? value : sanitiseChanged(value);
    const failure = markupFailure(clean);
    if (failure !== undefined) {
      const link = failure.startsWith(UNSAFE_HREF);
      this.#report(
        pointer(place, key),
        link ? "link" : "markup",
        link ? `${failure}: ${LINK_ALLOWED}` : failure,
      );
      return undefined;
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
    let problem: string | undefined;
    if (length < 1) problem = "a key is empty (after sanitising)";
    else if (length > PAGE_KEY_MAX) {
      problem = `key ${
        shownValue(name)
      } is longer than ${PAGE_KEY_MAX} characters`;
    } else if (RESERVED_KEYS.has(name)) {
      problem = `key ${shownValue(name)} is reserved`;
    } else if (this.#roleOf(name) === FORBIDDEN) {
      problem = `key ${shownValue(name)} ${forbiddenKeyWhy(name)}`;
    } else if ((flags & (MAY_CHANGE | MAY_HOLD_MARKUP)) !== 0) {
      // Only a key that holds `<` or `&` or that sanitising changed (which
      // markupFailure checks again) may hold markup.
      const failure = markupFailure(name);
      if (failure !== undefined) {
        problem = `key ${shownValue(name)} holds markup: ${failure}`;
      }
    }
    if (problem !== undefined) {
      this.#report(pointer(place, key), "key", problem);
      return name;
    }
    if (
      this.#templates && (flags & HOLDS_BRACE) !== 0 &&
      !this.#checkTemplate(name, place, key, "key")
    ) return name;
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
    const at = pointer(place, key);
    if (typeof id !== "string") {
      this.#report(at, "id", `an id must be a string, not ${typeOf(id)}`);
      return;
    }
    if (!ID.test(id)) {
      this.#report(
        at,
        "id",
        `id ${
          shownValue(id)
        } does not match ${ID.source}: a letter or digit, then letters, digits, _ or -, 64 at most`,
      );
      return;
    }
    const first = this.#ids.get(id);
    if (first !== undefined) {
      this.#report(
        at,
        "duplicate_id",
        `id ${shownValue(id)} is used twice (first at ${first})`,
      );
      return;
    }
    this.#ids.set(id, at);
  }

  #checkHref(
    href: unknown,
    place: Place | undefined,
    key: string | number,
  ): void {
    if (typeof href === "string" && isSafeLink(href)) return;
    this.#report(
      pointer(place, key),
      "link",
      typeof href === "string"
        ? `link ${shownValue(href)} is not allowed: ${LINK_ALLOWED}`
        : `a link must be a string, not ${typeOf(href)}`,
    );
  }

  /** Two keys of one object must not become equal after sanitising. */
  #checkRenamed(
    keys: readonly string[],
    names: readonly string[],
    place: Place | undefined,
  ): void {
    const seen = new Map<string, string>();
    names.forEach((name, index) => {
      const key = keys[index] ?? "";
      const before = seen.get(name);
      if (before !== undefined) {
        this.#report(
          pointer(place, key),
          "duplicate_key",
          `key ${shownValue(key)} is equal to ${
            shownValue(before)
          } after sanitising (${shownValue(name)})`,
        );
      } else seen.set(name, key);
    });
  }

  /**
   * The media rule, on an object with a `src` (whatever its case); names are
   * the sanitised keys, roles their roles. In an image every URL-bearing name
   * is an image name too, so that the object spread into `<img>` loads
   * nothing from another origin (`srcset`, `lowsrc`…).
   */
  #checkMedia(
    value: Record<string, unknown>,
    keys: readonly string[],
    names: readonly string[],
    roles: Uint8Array,
    place: Place | undefined,
  ): void {
    for (let index = 0; index < names.length; index++) {
      const role = roles[index];
      if (
        role !== SRC_KEY && role !== MEDIA_FIELD_KEY && role !== URL_VALUED
      ) {
        continue;
      }
      const key = keys[index] ?? "";
      const field = value[key];
      const at = pointer(place, key);
      if (role === URL_VALUED) {
        const text = attributeText(field);
        if (text) {
          const problem = imageNameProblem(sanitiseText(text));
          if (problem !== undefined) {
            this.#report(
              at,
              "media",
              `in an image, ${shownValue(key)} names an image: ${problem}`,
            );
          }
        }
        continue;
      }
      const name = (names[index] as string).toLowerCase();
      switch (name) {
        case "src": {
          const problem = typeof field === "string"
            ? imageNameProblem(sanitiseText(field))
            : `an image src must be a string, not ${typeOf(field)}`;
          if (problem !== undefined) {
            this.#report(at, "media", `image name not allowed: ${problem}`);
          }
          break;
        }
        case "width":
        case "height":
          if (
            typeof field !== "number" || !Number.isInteger(field) ||
            field < IMAGE_SIDE_MIN || field > IMAGE_SIDE_MAX
          ) {
            this.#report(
              at,
              Number.isInteger(field) ? "media" : "shape",
              `${name} ${
                typeof field === "number"
                  ? String(field)
                  : shownValue(JSON.stringify(field) ?? "")
              } must be a whole number from ${IMAGE_SIDE_MIN} to ${
                IMAGE_SIDE_MAX.toLocaleString("en")
              }`,
            );
          }
          break;
        case "alt":
          if (!isTextPassing(field, isPlainText)) {
            this.#report(
              at,
              "media",
              typeof field === "string"
                ? `alt ${
                  shownValue(field)
                } must be plain text: no tag, no < or >, no character reference`
                : `alt must be a string, not ${typeOf(field)}`,
            );
          }
          break;
      }
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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
 * The keys written twice in the same object of a valid JSON text, in order.
 *
 * @returns a problem at each second one, `most` at most
 */
function duplicateKeys(text: string, most: number): PageProblem[] {
  const found: PageProblem[] = [];
  scanJson(text, {
    key: (key, before, object) => {
      if (!before.has(key)) return undefined;
      found.push({
        at: pointer(object, key),
        code: "duplicate_key",
        detail: `key ${
          shownValue(key)
        } is written twice in the same object (JSON.parse keeps the last)`,
      });
      return found.length >= most ? "" : undefined;
    },
  });
  return found;
}

/**
 * The numbers of a valid JSON text whose value parsing changes, in order.
 *
 * @returns a problem at each, `most` at most
 */
function lossyNumbers(text: string, most: number): PageProblem[] {
  const found: PageProblem[] = [];
  scanJson(text, {
    number: (token, at) => {
      if (isExactNumber(token)) return undefined;
      found.push({
        at: pointer(at),
        code: "number",
        detail: `number ${
          token.length > 40 ? token.slice(0, 40) + "…" : token
        } would be written as ${
          String(Number(token))
        }: too many digits, too small or too large`,
      });
      return found.length >= most ? "" : undefined;
    },
  });
  return found;
}
