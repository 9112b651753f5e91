/**
 * Whether a string stored for a rich-text region looks like markdown: the
 * sign of a site that renders the field as markdown while its template
 * marks it `data-inpage-html`. The rich-text editor would write it back as
 * HTML, so `editor check --html` names it (and the overlay will not
 * rewrite it).
 *
 * @module
 */

/** HTML that rich text holds and markdown does not need. */
const HTML_BLOCKS = /<(?:p|ul|ol|li|br|h[1-6]|blockquote)[\s>/]/i;

const SIGNS: readonly [RegExp, string][] = [
  [/^#{1,6}[ \t]+\S/m, "a heading line (# …)"],
  [/^[ \t]{0,3}[-*+][ \t]+\S/m, "a list line (- …)"],
  [/^[ \t]{0,3}\d{1,9}[.)][ \t]+\S/m, "a numbered list line (1. …)"],
  [/^[ \t]{0,3}>[ \t]?\S/m, "a quote line (> …)"],
  [/^[ \t]{0,3}(?:```|~~~)/m, "a code fence (```)"],
  [/\S[ \t]*\n[ \t]*\n[ \t]*\S/, "a blank line between paragraphs"],
  [/\*\*\S(?:[^*\n]*\S)?\*\*|__\S(?:[^_\n]*\S)?__/, "bold written **…**"],
  [/\[[^\]\n]+\]\([^)\s]*\)/, "a link written [text](address)"],
  [/`[^`\n]+`/, "code written `…`"],
];

/**
 * What makes a string look like markdown rather than rich text, or
 * `undefined`: markdown block syntax (a heading, list or quote line, a code
 * fence, a blank line between paragraphs) or inline syntax (`**bold**`,
 * `[text](address)`, `` `code` ``) in a string without the HTML of rich
 * text (`<p>`, `<ul>`, `<li>`, `<br>`, …).
 *
 * @param text the stored string
 * @returns the sign found, in words, or `undefined`
 * @example
 * ```ts
 * import { looksLikeMarkdown } from "./looks_like.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(looksLikeMarkdown("## Setup\n\nRun it."), "a heading line (# …)");
 * assert.equal(looksLikeMarkdown("<p>Run <strong>it</strong>.</p>"), undefined);
 * assert.equal(looksLikeMarkdown("Plain words."), undefined);
 * ```
 */
export function looksLikeMarkdown(text: string): string | undefined {
  if (HTML_BLOCKS.test(text)) return undefined;
  for (const [sign, words] of SIGNS) if (sign.test(text)) return words;
  return undefined;
}
