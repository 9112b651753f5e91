/**
 * The whitelist of link targets, applied to every property named `href` in
 * a page and to the `href` attribute of `a` in rich text.
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
 * tokenizer as a double-quoted attribute value (the way a browser would if
 * the value were ever written into an `href` unescaped) and as text (which
 * also decodes the legacy references written without `;` before a letter,
 * such as `&shy`): `&#106;avascript:`, `/&#47;host` and `&#x2F;&#x2F;host`
 * are all refused.
 *
 * No form may hold a control, format or whitespace character
 * (`\u2028javascript:`, `&#x09;java&#x0A;script:` and a leading space are
 * refused), nor one of `"`, `<`, `>`, `` ` `` or `\`, which have no place in
 * a written URL.
 *
 * @module
 */

import { type TokenHandler, Tokenizer, TokenizerMode } from "parse5";

/** Characters no form of a link may hold. */
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Z}\s"<>`\\]/u;
const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

/**
 * Whether a string is an acceptable link target (see the module doc).
 *
 * @param href the candidate, as written in the page
 * @returns true when the raw string and its entity-decoded forms all pass
 */
export function isSafeLink(href: string): boolean {
  if (!isSafeLinkForm(href)) return false;
  if (!href.includes("&")) return true;
  return isSafeLinkForm(decodeHtmlAttribute(href)) &&
    isSafeLinkForm(decodeHtmlText(href));
}

function isSafeLinkForm(href: string): boolean {
  if (href.length === 0 || FORBIDDEN.test(href)) return false;
  const first = href.charCodeAt(0);
  if (first === 0x23) return true; // "#"
  if (first === 0x2f) return isSitePath(href); // "/"
  const scheme = SCHEME.exec(href)?.[1]?.toLowerCase();
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
  if (href.slice(slashes, slashes + 2) !== "//") return false;
  const host = href.charCodeAt(slashes + 2);
  if (host === 0x2f || host === 0x5c) return false; // a third slash
  try {
    const url = new URL(href);
    return url.protocol === `${scheme}:` && url.hostname !== "" &&
      url.username === "" && url.password === "";
  } catch {
    return false;
  }
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
