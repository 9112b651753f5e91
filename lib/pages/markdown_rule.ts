/**
 * The markdown rule: many templates pass page strings through a markdown
 * renderer, which turns `[click](javascript:alert(1))` into
 * `<a href="javascript:alert(1)">`. Each string that could hold markdown link
 * syntax is read by a real markdown tokenizer (markdown-it, the CommonMark
 * parser most site generators use or follow), and every target it finds must
 * pass the link rule (`link_rule.ts`):
 *
 * - inline links `[text](target)` and images `![alt](target)`;
 * - reference definitions `[label]: target`, used or not;
 * - autolinks `<scheme:…>`, which also hold a `<` and are refused by the
 *   markup rule first.
 *
 * Image targets get the link rule too, not the media rule: the media rule
 * names a file that the overlay manages (`{ "src": "hills.png" }`, a bare
 * name a template puts under `/images/`), while a markdown image is written
 * by the renderer as it stands, so what matters is the URL it loads: a site
 * path or an `https:`/`http:` URL, never `javascript:` or `data:`.
 *
 * The tokenizer runs with `validateLink` accepting everything, so that it
 * reports the targets markdown-it's own default check would drop (it refuses
 * `javascript:`, `vbscript:`, `file:` and most `data:` links and leaves the
 * text as it is) but another renderer would write; with linkify off, since a
 * bare URL is linked by no default renderer; and only on strings holding `](`
 * or `]:`, without which CommonMark has no inline link, image or reference
 * definition (the `]` must be followed at once by `(` or `:`).
 *
 * @module
 */

import markdownIt, { type Env, type MarkdownIt, type Token } from "markdown-it";
import { isSafeLink } from "./link_rule.ts";

let markdown: MarkdownIt | undefined;

function tokenizer(): MarkdownIt {
  if (markdown === undefined) {
    markdown = markdownIt({ html: false, linkify: false });
    markdown.validateLink = () => true;
  }
  return markdown;
}

/**
 * Whether a string could hold a markdown link, image or reference definition:
 * a `]` followed at once by `(` or `:`.
 *
 * @param text the string
 * @returns false when no markdown renderer can find a link target in it
 */
export function mayHoldMarkdownLink(text: string): boolean {
  return text.includes("](") || text.includes("]:");
}

/**
 * The first markdown link or image target of a string that the link rule
 * refuses.
 *
 * @param text the string, sanitised
 * @returns the target, as the renderer would write it, or `undefined`
 * @example
 * ```ts
 * import { unsafeMarkdownTarget } from "./markdown_rule.ts";
 *
 * console.assert(
 *   unsafeMarkdownTarget("[click](javascript:alert(1))") === "javascript:alert(1)",
 * );
 * console.assert(unsafeMarkdownTarget("[about](/en/about/)") === undefined);
 * ```
 */
export function unsafeMarkdownTarget(text: string): string | undefined {
  if (!mayHoldMarkdownLink(text)) return undefined;
  if (!text.includes("]:") && inlineTargetsArePlainAndSafe(text)) {
    return undefined;
  }
  const env: Env = {};
  const stack: Token[] = tokenizer().parse(text, env).reverse();
  for (let token = stack.pop(); token !== undefined; token = stack.pop()) {
    const target = token.type === "link_open"
      ? token.attrGet("href")
      : token.type === "image"
      ? token.attrGet("src")
      : null;
    if (target !== null && !isSafeLink(String(target))) return String(target);
    const children = token.children;
    if (children) {
      for (let index = children.length - 1; index >= 0; index--) {
        stack.push(children[index] as Token);
      }
    }
  }
  for (const reference of Object.values(env.references ?? {})) {
    if (!isSafeLink(reference.href)) return reference.href;
  }
  return undefined;
}

/** What a plain destination runs to: white space, `)`, or the end. */
const DESTINATION_END = /[\s)]/;
/**
 * A `(` in a destination: CommonMark balances parentheses, so the destination
 * may run past the first `)`; the tokenizer reads it.
 */
const NOT_PLAIN = /\(/;

/**
 * The fast path, for a string without reference definitions: whether after
 * every `](` the destination (after spaces, up to white space or `)`)
 * holds no `(` and passes the link rule. A markdown link or image target can
 * only start right after a `](` and spaces; CommonMark reads such a
 * destination as written but for backslash escapes and character
 * references, and the link rule refuses every `\\` and judges the string
 * with its references decoded (by the HTML rules, which decode all that
 * markdown decodes), so when every one passes, every target the tokenizer
 * would find does too. A line break, a `<` or anything the link rule refuses
 * sends the string to the tokenizer.
 */
function inlineTargetsArePlainAndSafe(text: string): boolean {
  for (let at = text.indexOf("]("); at >= 0; at = text.indexOf("](", at + 2)) {
    let start = at + 2;
    while (text.charCodeAt(start) === 0x20 || text.charCodeAt(start) === 0x09) {
      start++;
    }
    const rest = text.slice(start, start + 2048);
    const end = rest.search(DESTINATION_END);
    const destination = end < 0 ? rest : rest.slice(0, end);
    if (
      destination === "" || end < 0 || NOT_PLAIN.test(destination) ||
      !isSafeLink(destination)
    ) return false;
  }
  return true;
}
