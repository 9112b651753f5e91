/**
 * The rich-text rule: which HTML a page string may hold. Every string that
 * holds a `<` or a `&` is read by htmlparser2's tokenizer, and every character
 * reference in it by parse5's, which follows the WHATWG tokenization that
 * browsers follow; regular expressions never decide alone.
 *
 * Accepted markup is a small, well-formed subset that an HTML parser turns
 * into exactly the tree it reads as, so that what a sanitiser such as
 * DOMPurify would re-serialise is, tags and attributes, what was written:
 *
 * - Tags: `a b strong i em u s small sub sup` (phrasing), `br` (void), and
 *   `p ul ol li` (blocks). Any other tag, any comment, doctype, CDATA section
 *   or processing instruction is refused.
 * - Tags are written in their serialised form: lower-case name, each attribute
 *   as ` name="value"` (one space, double quotes), then `>`. No self-closing
 *   slash (`<br/>` is refused, `<br>` is accepted), no other spacing, no
 *   unquoted or single-quoted value, no `<` or `>` inside a value.
 * - Attributes: only `href` and `title`, only on `a`, each at most once.
 *   `href` passes the link rule on its entity-decoded value.
 * - Nesting: every start tag but `br` has its own end tag `</name>`, in order
 *   (no misnesting, nothing left open at the end, no stray end tag, no
 *   `</br>`). Phrasing elements and `p` hold only text, phrasing elements and
 *   `br`; `a` is never inside `a`; `ul` and `ol` hold only `li` and
 *   white space; `li` is only directly inside `ul` or `ol`; the top level and
 *   `li` hold text, phrasing elements, `br`, `p`, `ul` and `ol`. These are
 *   the shapes the HTML tree builder never rearranges (no implied end tag,
 *   no adoption agency, no foster parenting).
 * - Text: anything, entities included, but no tokenizer error is tolerated:
 *   a `<` that does not open a complete tag (`a < b`, `<3`, an unfinished
 *   `<b` at the end), a character reference without its `;`, an unknown
 *   named reference such as `&foo;`, a reference to NUL, a control character,
 *   a surrogate or beyond U+10FFFF, a NUL character. Plain `&` not starting a
 *   reference (`Tom & Jerry`) and `>` are fine. Only the tokenizer's notes on
 *   raw characters (a control character, noncharacter or lone surrogate in the
 *   input) are left to the page sanitiser, which removes or replaces them.
 *
 * Why two tokenizers read the same as one WHATWG tokenizer. htmlparser2 reads
 * the structure, with its entity decoding off, so that `&` is an ordinary
 * character to it. Every tag it reports is checked against its source: `<`,
 * a name from the allowlist followed by a space or `>`, then for each
 * attribute exactly one space, `href` or `title`, `="`, a value without `<`,
 * `>` (or `"`), `"`, and `>` right after the last one; an end tag is exactly
 * `</name>`. Once every tag passes, the string is accepted only if it holds
 * as many `<` as tags, so every `<` opens one of them and the text between
 * them holds none. On such a string the WHATWG tokenizer reads exactly those
 * tags, with those attribute names in that order and the same text runs:
 * from the data state, `<` and a letter open a tag name that runs to the
 * space or `>`, a space leads to an attribute name that runs to `=`, `="`
 * opens a double-quoted value that runs to the next `"`, and a space or `>`
 * follows; none of the allowed names is `script`, `style`, `title`,
 * `textarea`, `xmp`, `iframe`, `noembed`, `noframes` or `plaintext`, so both
 * tokenizers go back to plain text after each tag (the tokenizer runs alone,
 * without a tree builder, and the first tag outside the allowlist ends the
 * check). Character references consume only letters, digits, `#` and `;`, so
 * they cannot move a tag boundary: each one, in text or in a value, is then
 * decoded and judged by parse5 (`character_reference.ts`), exactly as in the
 * whole string. The only tokenizer errors such a string can raise are
 * theirs, a NUL character (refused up front) and a duplicate attribute
 * (refused here). The tests keep a parse5-only version of this rule as an
 * oracle and check that both always answer the same.
 *
 * A string with neither `<` nor `&` cannot produce a tag or a reference, so it
 * is accepted without running the tokenizer.
 *
 * @module
 */

import { QuoteType, Tokenizer, type TokenizerCallbacks } from "htmlparser2";
import { readReference } from "./character_reference.ts";
import {
  decodeHtmlAttribute,
  decodeHtmlText,
  isSafeLink,
} from "./link_rule.ts";

const OPENING = /</g;

/**
 * How the failure {@link markupFailure} gives for an `a` whose `href` breaks
 * the link rule starts (the value follows): the page rules report it as a
 * link, not as markup.
 */
export const UNSAFE_HREF = "Attribute href is not a safe link";

/** White space to the WHATWG tokenizer (a carriage return becomes a line feed). */
const WHITE_SPACE = /^[\t\n\f\r ]*$/;

/**
 * Whether a string is acceptable rich text (see the module doc).
 *
 * @param text the page string
 * @returns true when it holds only allowed, well-formed markup
 */
export function isSafeMarkup(text: string): boolean {
  return markupFailure(text) === undefined;
}

/**
 * Why a string is not acceptable rich text, for the server log.
 *
 * @param text the page string
 * @returns the first failure found, or `undefined` when the string is accepted
 */
export function markupFailure(text: string): string | undefined {
  if (!text.includes("<") && !text.includes("&")) return undefined;
  // The WHATWG tokenizer reports a NUL character in every state.
  if (text.includes("\0")) return "Markup holds a NUL character";
  return check.run(text);
}

/**
 * Whether a string is plain text: no tag and no character reference, so it
 * reads the same whether it is written as HTML text, as an attribute value or
 * escaped.
 *
 * @param text the candidate
 * @returns true when it holds no `<`, no `>` and no character reference
 */
export function isPlainText(text: string): boolean {
  if (text.includes("<") || text.includes(">")) return false;
  if (!text.includes("&")) return true;
  return decodeHtmlText(text) === text && decodeHtmlAttribute(text) === text;
}

/**
 * Follows the tokens of one string and records the first failure. One
 * instance and its tokenizer serve every call: a check never starts another.
 */
class MarkupCheck implements TokenizerCallbacks {
  readonly #tokenizer = new Tokenizer({ decodeEntities: false }, this);
  readonly #open: string[] = [];
  #text = "";
  #anchors = 0;
  /** Tags read whole and written in their serialised form. */
  #tags = 0;
  #failure: string | undefined;
  #ended = false;
  /** The first `&` at or after `#ampFrom`, the place last searched from. */
  #amp = -1;
  #ampFrom = 0;
  /** The start tag being read, and where its next part must start. */
  #tag = "";
  #cursor = 0;
  #attribute = "";
  #valueStart = 0;
  #href = -1;
  #hrefEnd = -1;
  #title = -1;
  #titleEnd = -1;

  run(text: string): string | undefined {
    this.#text = text;
    this.#open.length = 0;
    this.#anchors = 0;
    this.#tags = 0;
    this.#failure = undefined;
    this.#ended = false;
    this.#amp = -1;
    this.#ampFrom = 0;
    const tokenizer = this.#tokenizer;
    try {
      tokenizer.reset();
      tokenizer.write(text);
      if (this.#failure === undefined) tokenizer.end();
      if (this.#failure !== undefined) return this.#failure;
      if (!this.#ended) return "Markup ends inside a tag";
      return this.#tags === countOpenings(text)
        ? undefined
        : "Markup has a tag written oddly";
    } finally {
      this.#text = "";
      tokenizer.reset();
    }
  }

  #fail(reason: string): void {
    if (this.#failure === undefined) this.#failure = reason;
    this.#tokenizer.pause();
  }

  #oddly(name: string): void {
    this.#fail(`Tag <${name}> is not written in its serialised form`);
  }

  ontext(start: number, end: number): void {
    const parent = this.#open[this.#open.length - 1];
    if (parent === "ul" || parent === "ol") {
      const error = this.#referenceError(start, end, false);
      if (error !== undefined) {
        return this.#fail(`Markup error ${error} in text`);
      }
      const shown = this.#decode(start, end, false);
      if (!WHITE_SPACE.test(shown)) {
        return this.#fail(`Text directly inside <${parent}>`);
      }
      return;
    }
    const error = this.#referenceError(start, end, false);
    if (error !== undefined) this.#fail(`Markup error ${error} in text`);
  }

  /**
   * The first `&` at or after `from`, or the length of the text. Texts and
   * values are looked at in order, so the text is searched once.
   */
  #ampAtOrAfter(from: number): number {
    if (from > this.#amp || from < this.#ampFrom) {
      const amp = this.#text.indexOf("&", from);
      this.#amp = amp < 0 ? this.#text.length : amp;
      this.#ampFrom = from;
    }
    return this.#amp;
  }

  /** A text or value of the string with its references decoded. */
  #decode(start: number, end: number, inAttribute: boolean): string {
    const text = this.#text;
    let decoded = "";
    let from = start;
    for (let amp = this.#ampAtOrAfter(start); amp < end;) {
      const reading = readReference(text, amp, end, inAttribute, 0);
      decoded += text.slice(from, amp) + reading.text;
      from = amp + reading.length;
      amp = this.#ampAtOrAfter(from);
    }
    return decoded + text.slice(from, end);
  }

  /** The first parse error of a reference in a text or value, if any. */
  #referenceError(
    start: number,
    end: number,
    inAttribute: boolean,
  ): string | undefined {
    const text = this.#text;
    for (let amp = this.#ampAtOrAfter(start); amp < end;) {
      const reading = readReference(text, amp, end, inAttribute, 0);
      if (reading.error !== undefined) return reading.error;
      amp = this.#ampAtOrAfter(amp + reading.length);
    }
    return undefined;
  }

  onopentagname(start: number, end: number): void {
    const text = this.#text;
    const name = allowedName(text, start, end);
    if (name === undefined) {
      return this.#fail(
        `Tag <${
          shownName(text, start, end)
        }> is outside the allowlist (${ALLOWED_TAGS})`,
      );
    }
    const after = text.charCodeAt(end);
    if (
      text.charCodeAt(start - 1) !== 0x3c || (after !== 0x20 && after !== 0x3e)
    ) {
      return this.#oddly(name);
    }
    this.#tag = name;
    this.#cursor = end;
    this.#href =
      this.#hrefEnd =
      this.#title =
      this.#titleEnd =
        -1;
  }

  onattribname(start: number, end: number): void {
    const text = this.#text;
    const tag = this.#tag;
    const name = end - start === 4 && text.startsWith("href", start)
      ? "href"
      : end - start === 5 && text.startsWith("title", start)
      ? "title"
      : undefined;
    if (tag !== "a" || name === undefined) {
      return this.#fail(
        `Attribute ${
          shownName(text, start, end)
        } is not allowed on <${tag}> (only href and title, on <a>)`,
      );
    }
    if ((name === "href" ? this.#href : this.#title) >= 0) {
      return this.#fail("Markup error duplicate-attribute");
    }
    if (
      start !== this.#cursor + 1 || text.charCodeAt(this.#cursor) !== 0x20 ||
      text.charCodeAt(end) !== 0x3d || text.charCodeAt(end + 1) !== 0x22
    ) {
      return this.#oddly(tag);
    }
    this.#attribute = name;
    this.#valueStart = end + 2;
  }

  onattribdata(): void {}

  onattribentity(): void {}

  onattribend(quote: QuoteType, endIndex: number): void {
    if (this.#failure !== undefined) return;
    const text = this.#text;
    const start = this.#valueStart;
    const end = endIndex - 1;
    if (quote !== QuoteType.Double || hasAngle(text, start, end)) {
      return this.#oddly(this.#tag);
    }
    if (this.#attribute === "href") {
      this.#href = start;
      this.#hrefEnd = end;
    } else {
      this.#title = start;
      this.#titleEnd = end;
    }
    this.#cursor = endIndex;
  }

  onselfclosingtag(): void {
    this.#fail(`Tag <${this.#tag}> has a self-closing slash`);
  }

  onopentagend(endIndex: number): void {
    if (this.#failure !== undefined) return;
    const name = this.#tag;
    if (endIndex !== this.#cursor) return this.#oddly(name);
    // Values are looked at in the order they are written.
    if (this.#title >= 0 && (this.#href < 0 || this.#title < this.#href)) {
      const error = this.#referenceError(this.#title, this.#titleEnd, true);
      if (error !== undefined) return this.#fail(`Markup error ${error}`);
    }
    if (this.#href >= 0) {
      const failure = this.#hrefFailure(this.#href, this.#hrefEnd);
      if (failure !== undefined) return this.#fail(failure);
    }
    if (this.#title > this.#href && this.#href >= 0) {
      const error = this.#referenceError(this.#title, this.#titleEnd, true);
      if (error !== undefined) return this.#fail(`Markup error ${error}`);
    }
    const parent = this.#open[this.#open.length - 1];
    if (!mayHold(parent, name)) {
      return this.#fail(
        `Tag <${name}> is not allowed inside ${
          parent ? `<${parent}>` : "the top level"
        }`,
      );
    }
    if (name === "a" && this.#anchors > 0) {
      return this.#fail("Tag <a> inside <a>");
    }
    this.#tags++;
    if (name === "br") return;
    if (name === "a") this.#anchors++;
    this.#open.push(name);
  }

  onclosetag(start: number, end: number): void {
    const text = this.#text;
    const name = allowedName(text, start, end);
    const open = this.#open.pop();
    if (name === undefined || open !== name) {
      return this.#fail(
        name === undefined
          ? `End tag </${
            shownName(text, start, end)
          }> is outside the allowlist (${ALLOWED_TAGS})`
          : `End tag </${name}> does not close the open element`,
      );
    }
    if (
      text.charCodeAt(start - 1) !== 0x2f ||
      text.charCodeAt(start - 2) !== 0x3c || text.charCodeAt(end) !== 0x3e
    ) {
      return this.#oddly(name);
    }
    this.#tags++;
    if (name === "a") this.#anchors--;
  }

  /** Why the `href` value at `text.slice(start, end)` is refused, if it is. */
  #hrefFailure(start: number, end: number): string | undefined {
    const error = this.#referenceError(start, end, true);
    if (error !== undefined) return `Markup error ${error}`;
    const value = this.#decode(start, end, true);
    // The tokenizer would turn a carriage return into a line feed, which no
    // link may hold (a reference to one is an error).
    if (value.includes("\r") || !isSafeLink(value)) {
      return `${UNSAFE_HREF}: ${shownValue(value)}`;
    }
    return undefined;
  }

  oncomment(): void {
    this.#fail("Markup holds a comment, CDATA or processing instruction");
  }

  oncdata(): void {
    this.oncomment();
  }

  onprocessinginstruction(): void {
    this.oncomment();
  }

  ondeclaration(): void {
    this.#fail("Markup holds a doctype");
  }

  ontextentity(): void {}

  onend(): void {
    const open = this.#open.at(-1);
    if (open !== undefined) return this.#fail(`Tag <${open}> is not closed`);
    this.#ended = true;
  }
}

const check = new MarkupCheck();

/**
 * Whether an element may hold another: the top level and `li` hold anything
 * but `li`; `ul` and `ol` only `li`; phrasing elements and `p` only phrasing
 * elements and `br`.
 */
function mayHold(parent: string | undefined, name: string): boolean {
  switch (parent) {
    case undefined:
    case "li":
      return name !== "li";
    case "ul":
    case "ol":
      return name === "li";
    default:
      return name !== "li" && name !== "p" && name !== "ul" && name !== "ol";
  }
}

function hasAngle(text: string, start: number, end: number): boolean {
  const lt = text.indexOf("<", start);
  if (lt >= 0 && lt < end) return true;
  const gt = text.indexOf(">", start);
  return gt >= 0 && gt < end;
}

/**
 * The allowed tag name written at `text.slice(start, end)`, if it is one:
 * a name of {@linkcode MARKUP_TAGS}, read without making a string (a test
 * keeps the two the same).
 */
function allowedName(
  text: string,
  start: number,
  end: number,
): string | undefined {
  const first = text.charCodeAt(start);
  switch (end - start) {
    case 1:
      switch (first) {
        case 0x61:
          return "a";
        case 0x62:
          return "b";
        case 0x69:
          return "i";
        case 0x70:
          return "p";
        case 0x73:
          return "s";
        case 0x75:
          return "u";
      }
      return undefined;
    case 2: {
      const second = text.charCodeAt(start + 1);
      if (first === 0x65) return second === 0x6d ? "em" : undefined;
      if (first === 0x62) return second === 0x72 ? "br" : undefined;
      if (first === 0x75) return second === 0x6c ? "ul" : undefined;
      if (first === 0x6f) return second === 0x6c ? "ol" : undefined;
      if (first === 0x6c) return second === 0x69 ? "li" : undefined;
      return undefined;
    }
    case 3:
      if (text.startsWith("sub", start)) return "sub";
      if (text.startsWith("sup", start)) return "sup";
      return undefined;
    case 5:
      return text.startsWith("small", start) ? "small" : undefined;
    case 6:
      return text.startsWith("strong", start) ? "strong" : undefined;
  }
  return undefined;
}

/**
 * The tags a rich text string may hold: the allowlist this rule reads (with
 * {@linkcode MARKUP_ATTRIBUTES}), for the browser code that must keep to it
 * too (the overlay's rich text, before anything goes into the page).
 *
 * @example
 * ```ts
 * import { isSafeMarkup, MARKUP_TAGS } from "./markup_rule.ts";
 *
 * console.assert(MARKUP_TAGS.every((tag) =>
 *   isSafeMarkup(tag === "br" ? "<br>" : tag === "li" ? "<ul><li></li></ul>" : `<${tag}></${tag}>`)
 * ));
 * ```
 */
export const MARKUP_TAGS: readonly string[] = Object.freeze([
  "a",
  "b",
  "strong",
  "i",
  "em",
  "u",
  "s",
  "small",
  "sub",
  "sup",
  "br",
  "p",
  "ul",
  "ol",
  "li",
]);

/**
 * The attributes a tag of {@linkcode MARKUP_TAGS} may carry: `href` (the
 * link rule) and `title`, on `a` alone.
 *
 * @example
 * ```ts
 * import { MARKUP_ATTRIBUTES } from "./markup_rule.ts";
 *
 * console.assert(MARKUP_ATTRIBUTES.a?.join() === "href,title");
 * ```
 */
export const MARKUP_ATTRIBUTES: Readonly<Record<string, readonly string[]>> =
  Object.freeze({ a: Object.freeze(["href", "title"]) });

/** The allowed tags, as a failure names them. */
const ALLOWED_TAGS = `allowed: ${MARKUP_TAGS.join(" ")}`;

/**
 * A tag or attribute name as written, for a failure: at most 32 characters,
 * controls shown as `?` (the caller makes the whole line safe to print).
 */
function shownName(text: string, start: number, end: number): string {
  const name = text.slice(start, Math.min(end, start + 32));
  // deno-lint-ignore no-control-regex
  return name.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?") +
    (end - start > 32 ? "…" : "");
}

/**
 * A value as a failure shows it: quoted as JSON, at most 80 characters of it.
 *
 * @param value the value
 * @returns the value, quoted
 * @example
 * ```ts
 * import { shownValue } from "./markup_rule.ts";
 *
 * console.assert(shownValue("a\nb") === '"a\\nb"');
 * ```
 */
export function shownValue(value: string): string {
  return JSON.stringify(value.length > 80 ? value.slice(0, 80) + "…" : value);
}

/** How many `<` a string holds. */
function countOpenings(text: string): number {
  return text.match(OPENING)?.length ?? 0;
}
