/**
 * Text helpers shared by every concern: counting characters and flattening
 * a message onto one line.
 *
 * @module
 */

/**
 * How many characters (Unicode code points) a text has, counting no further
 * than `stopAfter + 1`, so a long text costs no more than the cap.
 *
 * @param text the text
 * @param stopAfter the cap the count is compared to; default no cap
 * @returns the count, or `stopAfter + 1` when the text is longer than the cap
 * @example
 * ```ts
 * import { codePoints } from "./text.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(codePoints("café 🙂"), 6);
 * assert.equal(codePoints("abcdef", 3), 4);
 * ```
 */
export function codePoints(
  text: string,
  stopAfter: number = Infinity,
): number {
  if (text.length <= stopAfter) {
    let count = 0;
    for (const _ of text) count++;
    return count;
  }
  let count = 0;
  for (const _ of text) if (++count > stopAfter) break;
  return count;
}

/**
 * A message on one line: runs of control characters (line breaks included)
 * become one space, and the ends are trimmed.
 *
 * @param message the message
 * @returns the message on one line
 * @example
 * ```ts
 * import { oneLine } from "./text.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(oneLine("fatal:\nbad ref\r\n"), "fatal: bad ref");
 * ```
 */
export function oneLine(message: string): string {
  // deno-lint-ignore no-control-regex
  return message.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
}
