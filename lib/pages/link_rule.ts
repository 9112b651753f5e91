/**
 * The whitelist of link targets, applied to every property named `href` in
 * a page, to the `href` attribute of `a` in rich text and to every markdown
 * link target (`markdown_rule.ts`). Strings under any other key get the
 * narrower {@linkcode isScriptUrl}: they may not be a URL that runs script.
 *
 * A link is accepted only when it is one of:
 *
 * - a site path: `/` then anything but a second `/` or a `\` (browsers read a
 *   backslash as a slash, so `/\host` is as scheme-relative as `//host`),
 *   so that it always resolves to the site's own origin;
 * - a fragment: `#` then anything;
 * - an `https:` or `http:` URL written `scheme://host` (exactly two
 *   slashes), which `new URL` parses, with a host and no user name or
 *   password;
 * - a `mailto:` or `tel:` URL.
 *
 * Schemes are matched whatever their case. The rule holds for the string as
 * given and for its HTML-entity-decoded forms, decoded by parse5's WHATWG
 * tokenizer (one reference at a time, `character_reference.ts`) as a
 * double-quoted attribute value (the way a browser would if the value were
 * ever written into an `href` unescaped) and as text (which also decodes the
 * legacy references written without `;` before a letter, such as `&shy`):
 * `&#106;avascript:`, `/&#47;host` and `&#x2F;&#x2F;host` are all refused.
 *
 * No form may hold a control, format or whitespace character
 * (`\u2028javascript:`, `&#x09;java&#x0A;script:` and a leading space are
 * refused), nor one of `"`, `<`, `>`, `` ` `` or `\`, which have no place in
 * a written URL.
 *
 * @module
 */

import { type TokenHandler, Tokenizer, TokenizerMode } from "parse5";
import { decodeReferences } from "./character_reference.ts";

/** Characters no form of a link may hold. */
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Z}\s"<>`\\]/u;
/**
 * Characters the tokenizer changes or reads specially besides references: a
 * NUL, a carriage return, and the quote that ends the value or the `<` that
 * may start an end tag. A string without them has only its references
 * decoded, one at a time (`character_reference.ts`); others go through the
 * whole tokenizer.
 */
const UNUSUAL_IN_ATTRIBUTE = /[\0\r"]/;
const UNUSUAL_IN_TEXT = /[\0\r<]/;

/**
 * Whether a string is an acceptable link target (see the module doc).
 *
 * @param href the candidate, as written in the page
 * @returns true when the raw string and its entity-decoded forms all pass
 */
export function isSafeLink(href: string): boolean {
  if (!isSafeLinkForm(href)) return false;
  if (!href.includes("&")) return true;
  // A form equal to one already checked needs no second look.
  const attribute = decodeHtmlAttribute(href);
  if (attribute !== href && !isSafeLinkForm(attribute)) return false;
  const text = decodeHtmlText(href);
  return text === href || text === attribute || isSafeLinkForm(text);
}

function isSafeLinkForm(href: string): boolean {
  if (href.length === 0 || FORBIDDEN.test(href)) return false;
  const first = href.charCodeAt(0);
  if (first === 0x23) return true; // "#"
  if (first === 0x2f) return isSitePath(href); // "/"
  const scheme = knownScheme(href);
  switch (scheme) {
    case "mailto":
    case "tel":
      return true;
    case "http":
    case "https":
      return isWebUrl(href, scheme);
    default:
      return false;
  }
}

/**
 * The scheme of a link when it is one of `http`, `https`, `mailto` and `tel`,
 * whatever its case: the link starts with it and a `:` (no other scheme,
 * which runs from the first character to the first `:`, can then be read).
 */
function knownScheme(
  href: string,
): "http" | "https" | "mailto" | "tel" | undefined {
  // For a letter, `| 0x20` is its lower case and nothing else maps to it.
  switch (href.charCodeAt(0) | 0x20) {
    case 0x68: // "h"
      if (!startsWithLetters(href, "http")) return undefined;
      if (href.charCodeAt(4) === 0x3a) return "http";
      return (href.charCodeAt(4) | 0x20) === 0x73 && href.charCodeAt(5) === 0x3a
        ? "https"
        : undefined;
    case 0x6d: // "m"
      return startsWithLetters(href, "mailto") && href.charCodeAt(6) === 0x3a
        ? "mailto"
        : undefined;
    case 0x74: // "t"
      return startsWithLetters(href, "tel") && href.charCodeAt(3) === 0x3a
        ? "tel"
        : undefined;
  }
  return undefined;
}

/** Whether `text` starts with the lower-case `letters`, whatever its case. */
function startsWithLetters(text: string, letters: string): boolean {
  for (let index = 0; index < letters.length; index++) {
    if ((text.charCodeAt(index) | 0x20) !== letters.charCodeAt(index)) {
      return false;
    }
  }
  return true;
}

/**
 * A path-absolute reference keeps the site's origin unless its second
 * character is `/` or `\` (the URL parser's "relative slash" state); the tab,
 * line feed and carriage return the parser would skip are already refused.
 */
function isSitePath(href: string): boolean {
  const second = href.charCodeAt(1);
  return second !== 0x2f && second !== 0x5c;
}

function isWebUrl(href: string, scheme: string): boolean {
  const slashes = scheme.length + 1;
  if (
    href.charCodeAt(slashes) !== 0x2f || href.charCodeAt(slashes + 1) !== 0x2f
  ) return false;
  const host = href.charCodeAt(slashes + 2);
  if (host === 0x2f || host === 0x5c) return false; // a third slash
  if (isPlainHost(href, slashes + 2)) return true;
  try {
    const url = new URL(href);
    return url.protocol === `${scheme}:` && url.hostname !== "" &&
      url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

/**
 * Whether the authority starting at `start` (up to the first `/`, `?` or `#`)
 * is a plain host name: dot-separated labels of lower-case letters, digits
 * and hyphens, the last one starting with a letter, and no `xn--` in it. The
 * URL parser keeps such a host as it is (nothing to percent-decode, IDNA maps
 * these characters to themselves and decodes only `xn--` labels, the last
 * label is no IPv4 number, no port, no user name), so `new URL` accepts the
 * link with that host and no credentials, whatever its path, query and
 * fragment (which are never an error); any other host is left to `new URL`.
 */
function isPlainHost(href: string, start: number): boolean {
  let label = start;
  let index = start;
  for (; index < href.length; index++) {
    const code = href.charCodeAt(index);
    if (code === 0x2f || code === 0x3f || code === 0x23) break; // / ? #
    if (code === 0x2e) { // "."
      if (index === label) return false;
      label = index + 1;
    } else if (code === 0x78 && href.startsWith("xn--", index)) {
      return false;
    } else if (
      !(code >= 0x61 && code <= 0x7a) && !(code >= 0x30 && code <= 0x39) &&
      code !== 0x2d
    ) {
      return false;
    }
  }
  const first = href.charCodeAt(label);
  return index > label && first >= 0x61 && first <= 0x7a;
}

/**
 * Decodes the character references of a string the way a browser decodes a
 * double-quoted attribute value (a legacy reference without `;` followed by
 * `=` or an alphanumeric is kept as written).
 *
 * @param value the raw attribute value
 * @returns the value the browser would see
 */
export function decodeHtmlAttribute(value: string): string {
  if (!value.includes("&")) return value;
  if (!UNUSUAL_IN_ATTRIBUTE.test(value)) {
    // Read as `<a x="value">`: the closing `">` follows the value.
    return decodeReferences(value, 0, value.length, true, 2);
  }
  let decoded: string | undefined;
  const tokenizer = new Tokenizer(
    {},
    collector({
      onStartTag(token) {
        decoded = token.attrs[0]?.value ?? "";
      },
    }),
  );
  tokenizer.write(`<a x="${value.replaceAll('"', "&quot;")}">`, true);
  return decoded ?? "";
}

/**
 * Decodes the character references of a string the way a browser decodes
 * text (as in a `textarea`, so that `<` stays literal).
 *
 * @param text the raw text
 * @returns the text the browser would show
 */
export function decodeHtmlText(text: string): string {
  if (!text.includes("&")) return text;
  if (!UNUSUAL_IN_TEXT.test(text)) {
    return decodeReferences(text, 0, text.length, false, 0);
  }
  let decoded = "";
  const append = (token: { chars: string }): void => {
    decoded += token.chars;
  };
  const tokenizer = new Tokenizer(
    {},
    collector({
      onCharacter: append,
      onWhitespaceCharacter: append,
      onNullCharacter: append,
    }),
  );
  tokenizer.state = TokenizerMode.RCDATA;
  tokenizer.write(text, true);
  return decoded;
}

function collector(handlers: Partial<TokenHandler>): TokenHandler {
  const ignore = (): void => {};
  return {
    onComment: ignore,
    onDoctype: ignore,
    onStartTag: ignore,
    onEndTag: ignore,
    onEof: ignore,
    onCharacter: ignore,
    onNullCharacter: ignore,
    onWhitespaceCharacter: ignore,
    ...handlers,
  };
}

/**
 * Schemes that a string under any key may never start with: those that run
 * script when a template writes the string into an `href`, `src` or
 * `action` (`javascript:`, and the `vbscript:` and `livescript:` of old
 * browsers). `data:` is refused when followed by a media type or a comma
 * (`data:text/html,…`, `data:,…`), the shape of a document.
 */
const SCRIPT_SCHEMES = /^(?:javascript|vbscript|livescript):/;
const DATA_URL = /^data:(?:[a-z]+\/|,|;)/;
/** What the URL parser strips or skips, and more: any control, format or space. */
const IGNORED_CHAR = /^[\p{Cc}\p{Cf}\p{Z}\s]$/u;
/** The first letters a string that is a refused URL may start with. */
const SCRIPT_FIRST = /^[\p{Cc}\p{Cf}\p{Z}\s]*[jJvVlLdD&]/u;

/**
 * Whether a string, under whatever key, is itself a URL whose scheme can run
 * script or carry a document: after the link rule's handling (its
 * entity-decoded forms, controls, format characters and white space removed
 * wherever they are, letters in any case) it starts with `javascript:`,
 * `vbscript:` or `livescript:`, or with `data:` and a media type or a comma.
 * Ordinary text with a colon (`Note: hello`, `10:30`, `re: x`) is not one.
 *
 * @param text the string, sanitised
 * @returns true when it is such a URL
 * @example
 * ```ts
 * import { isScriptUrl } from "./link_rule.ts";
 *
 * console.assert(isScriptUrl(" JaVaScRiPt:alert(1)"));
 * console.assert(isScriptUrl("&#106;avascript:alert(1)"));
 * console.assert(!isScriptUrl("Note: hello"));
 * ```
 */
export function isScriptUrl(text: string): boolean {
  if (!SCRIPT_FIRST.test(text)) return false;
  if (isScriptForm(text)) return true;
  if (!text.includes("&")) return false;
  return isScriptForm(decodeHtmlAttribute(text)) ||
    isScriptForm(decodeHtmlText(text));
}

function isScriptForm(text: string): boolean {
  // Only the start decides: the longest scheme and a media type fit in 64
  // characters once the ignored ones are skipped, wherever they are.
  let start = "";
  for (const char of text) {
    if (IGNORED_CHAR.test(char)) continue;
    start += char.toLowerCase();
    if (start.length >= 64) break;
  }
  return SCRIPT_SCHEMES.test(start) || DATA_URL.test(start);
}
