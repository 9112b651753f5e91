/**
 * Numbers written exactly as sent. `JSON.parse` reads a number into the
 * nearest double, which can differ from the number written: too many digits
 * (`12345678901234567890` becomes `12345678901234567000`), underflow
 * (`0.1e-400` becomes `0`) or overflow (`1e400` becomes `Infinity`). A page
 * holding such a number is refused rather than written with another value.
 *
 * A number is exact when the decimal value of its source text equals the
 * value of the shortest text that reads back as the same double
 * (`String(value)`), compared as digits and exponent, so that `1.0`, `1e0`
 * and `100e-2` are all exactly 1, and every zero (`-0`, `0e999`) is zero.
 *
 * @module
 */

import { jsonPointer, scanJson } from "./json_scan.ts";

/**
 * A number token of a valid JSON text can only lose its value when it has
 * many digits (16 or more, dots included: a double holds every decimal of 15
 * significant digits exactly, and a number without exponent needs 16
 * characters to underflow) or an exponent. Texts without either are exact.
 */
const MAY_BE_LOSSY = /\d[\d.]{15}|\d[eE]/;

/**
 * Whether a JSON text may hold a number that parsing changes; when false, it
 * holds none.
 *
 * @param text a valid JSON text
 * @returns false when every number in it is exact
 */
export function mayHoldLossyNumber(text: string): boolean {
  return MAY_BE_LOSSY.test(text);
}

const NUMBER = /-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?/y;

/**
 * Whether a JSON number token keeps its value through `Number`.
 *
 * @param token the number as written, e.g. `-12.5e3`
 * @returns true when the parsed double is exactly the written value
 */
export function isExactNumber(token: string): boolean {
  const value = Number(token);
  if (!Number.isFinite(value)) return false;
  const written = decimal(token);
  if (written === undefined) return false;
  if (written.digits === "") return value === 0;
  const parsed = decimal(String(Math.abs(value)));
  return parsed !== undefined && parsed.digits === written.digits &&
    parsed.exponent === written.exponent;
}

/**
 * A decimal as significant digits (no leading or trailing zero; `""` for
 * zero) and the power of ten of the last one.
 */
function decimal(
  text: string,
): { digits: string; exponent: number } | undefined {
  NUMBER.lastIndex = 0;
  const match = NUMBER.exec(text);
  if (!match || match[0].length !== text.length) return undefined;
  const fraction = match[2] ?? "";
  let digits = match[1] + fraction;
  let exponent = Number(match[3] ?? 0) - fraction.length;
  let start = 0;
  while (start < digits.length && digits.charCodeAt(start) === 0x30) start++;
  let end = digits.length;
  while (end > start && digits.charCodeAt(end - 1) === 0x30) end--;
  exponent += digits.length - end;
  digits = digits.slice(start, end);
  return { digits, exponent };
}

/**
 * Finds the first number of a valid JSON text whose value parsing changes.
 *
 * @param text a valid JSON text (`JSON.parse` accepted it)
 * @returns its JSON Pointer, built from the keys as submitted, or
 *   `undefined` when every number is exact
 */
export function lossyNumberPointer(text: string): string | undefined {
  return scanJson(text, {
    number: (token, at) => isExactNumber(token) ? undefined : jsonPointer(at),
  });
}
