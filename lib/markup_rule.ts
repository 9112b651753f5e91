/**
 * The rich-text rule: which HTML a page string may hold. Every string is read
 * by parse5's tokenizer, which follows the WHATWG tokenization that browsers
 * follow; regular expressions never decide alone.
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
 * The tokenizer runs alone, without parse5's tree builder, which would switch
 * it to raw text after `script`, `style`, `textarea`, `title` and the like or
 * to foreign content inside `svg` and `math`: none of those is allowed, and
 * the first tag outside the allowlist ends the check, so for every accepted
 * string the tokenizer has read exactly what a browser reads.
 *
 * A string with neither `<` nor `&` cannot produce a tag or a reference, so it
 * is accepted without running the tokenizer.
 *
 * @module
 */

import { Token, type TokenHandler, Tokenizer } from "parse5";
import {
  decodeHtmlAttribute,
  decodeHtmlText,
  isSafeLink,
} from "./link_rule.ts";

type TagToken = Token.TagToken;
const TokenType = Token.TokenType;
type ParseError = Parameters<NonNullable<TokenHandler["onParseError"]>>[0];

const PHRASING: ReadonlySet<string> = new Set([
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
]);
const FLOW: ReadonlySet<string> = new Set([
  ...PHRASING,
  "br",
  "p",
  "ul",
  "ol",
]);
const INLINE: ReadonlySet<string> = new Set([...PHRASING, "br"]);
const LI: ReadonlySet<string> = new Set(["li"]);

/** Tokenizer notes about raw characters, which the sanitiser deals with. */
const CHARACTER_NOTES: ReadonlySet<string> = new Set([
  "control-character-in-input-stream",
  "noncharacter-in-input-stream",
  "surrogate-in-input-stream",
]);

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
  const check = new MarkupCheck();
  const tokenizer = new Tokenizer({}, check);
  check.tokenizer = tokenizer;
  tokenizer.write(text, true);
  if (check.failure !== undefined) return check.failure;
  if (!check.ended) return "Markup ends inside a tag";
  return shapeFailure(text, check.tags);
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

/** Follows the tokens of one string and records the first failure. */
class MarkupCheck implements TokenHandler {
  readonly #open: string[] = [];
  /** The tags read, in order, for the check of their written form. */
  readonly tags: TagToken[] = [];
  #anchors = 0;
  tokenizer: Tokenizer | undefined;
  failure: string | undefined;
  ended = false;

  #fail(reason: string): void {
    if (this.failure === undefined) this.failure = reason;
    this.tokenizer?.pause();
  }

  onParseError(error: ParseError): void {
    if (!CHARACTER_NOTES.has(error.code)) {
      this.#fail(`Markup error ${error.code} at ${error.startOffset}`);
    }
  }

  onComment(): void {
    this.#fail("Markup holds a comment, CDATA or processing instruction");
  }

  onDoctype(): void {
    this.#fail("Markup holds a doctype");
  }

  onNullCharacter(): void {
    this.#fail("Markup holds a NUL character");
  }

  onWhitespaceCharacter(): void {}

  onCharacter(): void {
    const parent = this.#open.at(-1);
    if (parent === "ul" || parent === "ol") {
      this.#fail(`Text directly inside <${parent}>`);
    }
  }

  onStartTag(token: TagToken): void {
    const name = token.tagName;
    if (!FLOW.has(name) && name !== "li") {
      return this.#fail("A tag outside the allowlist");
    }
    const parent = this.#open.at(-1);
    if (!allowedChildren(parent).has(name)) {
      return this.#fail(
        `Tag <${name}> is not allowed inside ${
          parent ? `<${parent}>` : "the top level"
        }`,
      );
    }
    if (name === "a" && this.#anchors > 0) {
      return this.#fail("Tag <a> inside <a>");
    }
    if (token.selfClosing) {
      return this.#fail(`Tag <${name}> has a self-closing slash`);
    }
    for (const attr of token.attrs) {
      if (name !== "a" || (attr.name !== "href" && attr.name !== "title")) {
        return this.#fail(`An attribute outside the allowlist on <${name}>`);
      }
      if (attr.name === "href" && !isSafeLink(attr.value)) {
        return this.#fail("Attribute href is not a safe link");
      }
    }
    this.tags.push(token);
    if (name === "br") return;
    if (name === "a") this.#anchors++;
    this.#open.push(name);
  }

  onEndTag(token: TagToken): void {
    const name = token.tagName;
    const open = this.#open.pop();
    if (open !== name) {
      return this.#fail(
        FLOW.has(name) || name === "li"
          ? `End tag </${name}> does not close the open element`
          : "An end tag outside the allowlist",
      );
    }
    this.tags.push(token);
    if (name === "a") this.#anchors--;
  }

  onEof(): void {
    const open = this.#open.at(-1);
    if (open !== undefined) return this.#fail(`Tag <${open}> is not closed`);
    this.ended = true;
  }
}

function allowedChildren(parent: string | undefined): ReadonlySet<string> {
  if (parent === undefined || parent === "li") return FLOW;
  if (parent === "ul" || parent === "ol") return LI;
  return INLINE;
}

/**
 * Why the tags of a string are not written in their serialised form:
 * `<name attr="value"…>` exactly, with no `<` or `>` inside a value, and
 * `</name>`.
 *
 * The tokenizer found no error, so every `<` of the string opens one of the
 * tags read, unless it sits inside an attribute value: the `n`-th tag is
 * written from the `n`-th `<` to the next `>`, a `>` inside a value cuts the
 * tag short of its closing quote, and a `<` inside a value is refused.
 */
function shapeFailure(
  text: string,
  tags: readonly TagToken[],
): string | undefined {
  let from = 0;
  for (const tag of tags) {
    const start = text.indexOf("<", from);
    const end = text.indexOf(">", start);
    if (start < 0 || end < 0) return "Markup has a tag written oddly";
    const raw = text.slice(start, end + 1);
    const fits = tag.type === TokenType.END_TAG
      ? raw === `</${tag.tagName}>`
      : isCanonicalStartTag(raw, tag);
    if (!fits) {
      return `Tag <${tag.tagName}> is not written in its serialised form`;
    }
    from = end + 1;
  }
  if (text.includes("<", from)) return "Markup has a tag written oddly";
  return undefined;
}

/** Whether the source of a start tag is `<name attr="value"…>` exactly. */
function isCanonicalStartTag(raw: string, token: TagToken): boolean {
  // The source runs to the first `>`, so a value holding one cannot close;
  // a value holding a `<` is refused here.
  if (raw.includes("<", 1) || !raw.startsWith(token.tagName, 1)) return false;
  let position = 1 + token.tagName.length;
  for (const attr of token.attrs) {
    const head = ` ${attr.name}="`;
    if (!raw.startsWith(head, position)) return false;
    const close = raw.indexOf('"', position + head.length);
    if (close < 0) return false;
    position = close + 1;
  }
  return position === raw.length - 1;
}
