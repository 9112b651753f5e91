/**
 * Text helpers shared by every concern: counting characters, flattening a
 * message onto one line, and the characters no one-line value may hold.
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
 * A message on one line: runs of control characters (line breaks included,
 * U+0085, U+2028 and U+2029 too) become one space, and the ends are trimmed.
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
  return message.replace(CONTROL_OR_BREAK_RUNS, " ").trim();
}

/**
 * The characters no one-line value may hold (a name, an email, a log
 * line): the C0 controls, DEL, the C1 controls (U+0085 NEXT LINE among
 * them), and the line and paragraph separators U+2028 and U+2029, which
 * many readers take for line breaks.
 *
 * @example
 * ```ts
 * import { CONTROL_OR_BREAK } from "./text.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(CONTROL_OR_BREAK.test("Alice\u001b[31m"));
 * assert.ok(CONTROL_OR_BREAK.test("a\u2028b"));
 * assert.ok(!CONTROL_OR_BREAK.test("Zoë Ångström"));
 * ```
 */
// deno-lint-ignore no-control-regex
export const CONTROL_OR_BREAK = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

const CONTROL_OR_BREAK_RUNS = new RegExp(`${CONTROL_OR_BREAK.source}+`, "g");

/** What `JSON.stringify` leaves raw that a line reader may break on. */
const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029]/g;

/**
 * A value as JSON on one line for every reader: `JSON.stringify`, with DEL,
 * the C1 controls (U+0085 among them), U+2028 and U+2029 written as `\u`
 * escapes too (JSON leaves them raw, and many log readers split lines on
 * them). The text is the same JSON value.
 *
 * @param value what to write
 * @returns the JSON text, holding no character of {@linkcode CONTROL_OR_BREAK}
 * @example
 * ```ts
 * import { jsonLine } from "./text.ts";
 * import assert from "node:assert/strict";
 *
 * const line = jsonLine({ detail: "a\u2028b\u0085c" });
 * assert.equal(line, '{"detail":"a\\u2028b\\u0085c"}');
 * assert.deepEqual(JSON.parse(line), { detail: "a\u2028b\u0085c" });
 * ```
 */
export function jsonLine(value: unknown): string {
  return (JSON.stringify(value) ?? "null").replace(
    RAW_IN_JSON,
    (character) =>
      `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
