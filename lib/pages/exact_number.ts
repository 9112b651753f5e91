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

/** A container being read by {@linkcode lossyNumberPointer}. */
interface Open {
  readonly object: boolean;
  readonly pointer: string;
  token: string;
  index: number;
  expectKey: boolean;
}

/**
 * Finds the first number of a valid JSON text whose value parsing changes.
 *
 * @param text a valid JSON text (`JSON.parse` accepted it)
 * @returns its JSON Pointer, built from the keys as submitted, or
 *   `undefined` when every number is exact
 */
export function lossyNumberPointer(text: string): string | undefined {
  const open: Open[] = [];
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    const top = open.at(-1);
    if (code === 0x7b || code === 0x5b) { // "{" or "["
      const object = code === 0x7b;
      open.push({
        object,
        pointer: top === undefined ? "" : `${top.pointer}/${escape(top.token)}`,
        token: "0",
        index: 0,
        expectKey: object,
      });
    } else if (code === 0x7d || code === 0x5d) { // "}" or "]"
      open.pop();
    } else if (code === 0x2c && top !== undefined) { // ","
      if (top.object) top.expectKey = true;
      else top.token = String(++top.index);
    } else if (code === 0x22) { // a string
      const end = stringEnd(text, index);
      if (top?.object && top.expectKey) {
        top.token = JSON.parse(text.slice(index, end + 1)) as string;
        top.expectKey = false;
      }
      index = end;
    } else if (code === 0x2d || (code >= 0x30 && code <= 0x39)) { // - 0-9
      NUMBER.lastIndex = index;
      const token = NUMBER.exec(text)?.[0] ?? "";
      if (!isExactNumber(token)) {
        return top === undefined ? "" : `${top.pointer}/${escape(top.token)}`;
      }
      index += token.length - 1;
    }
    index++;
  }
  return undefined;
}

function escape(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** The index of the quote that closes the string opened at `start`. */
function stringEnd(text: string, start: number): number {
  let close = text.indexOf('"', start + 1);
  while (close > 0) {
    let slashes = 0;
    while (text.charCodeAt(close - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return close;
    close = text.indexOf('"', close + 1);
  }
  return text.length;
}
