/**
 * What the overlay checks before publishing, without a server: the link
 * rule on an address (in the link dialog, on paste, in rich text and in
 * link objects), tag-like text in a plain-text field, and a heading or
 * title emptied to nothing. The server's page rules stay the authority;
 * these checks only say earlier what it would refuse.
 *
 * @module
 */

import { escapeToken } from "../../lib/wire/pointer.ts";

/** Characters no link may hold. */
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Z}\s"<>`\\]/u;

/**
 * Why an address is refused by the link rule, or `undefined` when it
 * passes: a site path (`/about`, not `//host`), a `#fragment`, an
 * `https://` or `http://` address with a host, or a `mailto:` or `tel:`
 * address. A character reference (`&#106;`) is refused too: the overlay
 * writes addresses as typed, so one could only hide another scheme.
 *
 * @param href the address as typed
 * @returns a reason code (`link`), or `undefined`
 */
export function linkProblem(href: string): "link" | undefined {
  if (href === "" || FORBIDDEN.test(href) || /&[#A-Za-z]/.test(href)) {
    return "link";
  }
  if (href.startsWith("#")) return undefined;
  if (href.startsWith("/")) return /^\/[/\\]/.test(href) ? "link" : undefined;
  if (/^(?:mailto|tel):/i.test(href)) return undefined;
  const web = /^(https?):\/\/(?![/\\])/i.exec(href);
  if (!web) return "link";
  try {
    const url = new URL(href);
    return url.protocol === `${web[1]!.toLowerCase()}:` &&
        url.hostname !== "" && url.username === "" && url.password === ""
      ? undefined
      : "link";
  } catch {
    return "link";
  }
}

/**
 * Whether plain text holds something written like a tag (`<b>`, `</p>`,
 * `<!--`), which a plain-text field cannot hold.
 *
 * @param text the field's text
 * @returns true when it does
 */
export function looksLikeMarkup(text: string): boolean {
  return /<[A-Za-z/!?]/.test(text);
}

/**
 * The addresses of the links in rich-text markup the overlay wrote
 * (`href="…"`, entities decoded).
 *
 * @param html the markup
 * @returns each `href`, in order
 */
export function linksIn(html: string): string[] {
  const found: string[] = [];
  for (const match of html.matchAll(/<a\s[^>]*?href="([^"]*)"/gi)) {
    found.push(decodeAttribute(match[1] ?? ""));
  }
  return found;
}

function decodeAttribute(value: string): string {
  return value.replace(
    /&(amp|quot|lt|gt|#39|#x27);/g,
    (_, name: string) =>
      ({ amp: "&", quot: '"', lt: "<", gt: ">", "#39": "'", "#x27": "'" })[
        name
      ] ?? "",
  );
}

/**
 * Every `href` of a page object that the link rule refuses, as pointers:
 * link objects anywhere in the page (`{ "href": … }`, whatever the key's
 * case).
 *
 * @param page the page object
 * @returns the pointers of refused `href` values
 */
export function refusedHrefs(page: unknown): string[] {
  const found: string[] = [];
  const stack: Array<[unknown, string]> = [[page, ""]];
  while (stack.length > 0) {
    const [value, pointer] = stack.pop()!;
    if (typeof value !== "object" || value === null) continue;
    const entries = Array.isArray(value)
      ? value.map((item, index) => [String(index), item] as const)
      : Object.entries(value);
    for (const [key, child] of entries) {
      const at = `${pointer}/${escapeToken(key)}`;
      if (
        key.toLowerCase() === "href" &&
        (typeof child !== "string" || linkProblem(child))
      ) found.push(at);
      else stack.push([child, at]);
    }
  }
  return found.sort();
}
