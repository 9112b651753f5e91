/**
 * Character references (`&amp;`, `&#106;`, `&copy`…) read by parse5's WHATWG
 * tokenizer one at a time, so that the rich-text and link rules decode and
 * judge them exactly as a browser would, without running the whole string
 * through parse5.
 *
 * A reference is read from its `&` to the end of its *window*: an optional
 * `#`, the longest run of ASCII letters and digits after it, and the `;` that
 * follows, if any. The tokenizer's character reference, numeric and
 * ambiguous-ampersand states consume nothing else: every name in the table,
 * every number and every hexadecimal `x` is made of those characters, and the
 * first other character ends the reference and is read again in the state
 * the tokenizer returns to, which is the same for every reference of a text
 * (data) or of a double-quoted attribute value. What the window decodes to,
 * and whether it is a parse error, therefore depends on nothing but:
 *
 * - the window itself;
 * - whether it is read in text or in an attribute value (a legacy reference
 *   without `;` followed by `=` or a letter or digit is kept as written in an
 *   attribute, and an unknown `&name;` is an error only in text);
 * - the character after the window: `=`, another one, or the end of the
 *   input;
 * - how many characters follow the `&` in the input, up to 32, which chooses
 *   between the code paths of the `entities` decoder that parse5 uses (all of
 *   them meant to answer the same; the count is kept so that even a
 *   difference between them would be reproduced).
 *
 * Each window is read by parse5 in a short input that reproduces those four,
 * and the reading is remembered in a bounded cache shared by all requests: it
 * holds readings of references, never verdicts on strings.
 *
 * @module
 */

import { type TokenHandler, Tokenizer } from "parse5";

/** How parse5 reads one character reference. */
export interface ReferenceReading {
  /** The window: the `&` and what the tokenizer may read of it. */
  readonly window: string;
  /** The length of the window. */
  readonly length: number;
  /** What the window decodes to (itself when it is no reference). */
  readonly text: string;
  /** The parse error the window raises, or undefined. */
  readonly error: string | undefined;
}

const CACHE_MAX = 4096;
/** Longer windows (no reference is longer) are read every time. */
const CACHE_WINDOW_MAX = 48;
/**
 * Readings by window, one map for each context: text or attribute, room
 * after the `&`, and what follows the window.
 */
const caches: Map<string, ReferenceReading>[] = Array.from(
  { length: 18 },
  () => new Map(),
);
let cached = 0;
/** The last reading in each context. */
const lastReadings: (ReferenceReading | undefined)[] = [];
const FOLLOWS = ["", "=", " "] as const;

/** The decoder's fast paths start at 17 and 32 characters after the `&`. */
const SHORT_INPUT = 17;
const LONG_INPUT = 32;

/**
 * Reads the character reference whose `&` is at `at`, as parse5 does in a
 * text or in a double-quoted attribute value.
 *
 * @param source the string holding the reference
 * @param at the index of its `&`
 * @param end the index where the text or the attribute value ends in `source`
 *   (the window never runs past it)
 * @param inAttribute whether the reference is inside an attribute value
 * @param after how many characters the input read by the browser holds after
 *   `source` (0 when `source` is the whole input)
 * @returns the window's length, what it decodes to and its parse error
 */
export function readReference(
  source: string,
  at: number,
  end: number,
  inAttribute: boolean,
  after: number,
): ReferenceReading {
  let stop = at + 1;
  if (stop < end && source.charCodeAt(stop) === 0x23) stop++; // "#"
  while (stop < end && isAsciiAlphanumeric(source.charCodeAt(stop))) stop++;
  let follow = 0; // nothing that matters after a `;`, or the end of input
  if (stop < end && source.charCodeAt(stop) === 0x3b) stop++; // ";"
  else if (stop < end) follow = source.charCodeAt(stop) === 0x3d ? 1 : 2;
  else if (!inAttribute && (end < source.length || after > 0)) follow = 2;
  // In an attribute value, the closing quote that readWindow writes stands
  // for the end of the value.
  const remaining = source.length + after - at - 1;
  const room = remaining < SHORT_INPUT ? 0 : remaining < LONG_INPUT ? 1 : 2;
  const context = (inAttribute ? 9 : 0) + room * 3 + follow;
  // The last window read in this context is often read again.
  const last = lastReadings[context];
  if (
    last !== undefined && last.length === stop - at &&
    source.startsWith(last.window, at)
  ) {
    return last;
  }
  const cache = caches[context] as Map<string, ReferenceReading>;
  const window = source.slice(at, stop);
  let reading = cache.get(window);
  if (reading === undefined) {
    reading = readWindow(window, inAttribute, FOLLOWS[follow] ?? "", room);
    if (window.length > CACHE_WINDOW_MAX) return reading;
    if (cached >= CACHE_MAX) {
      for (const map of caches) map.clear();
      cached = 0;
    }
    // A copy of the window, not a slice that would keep the page alive.
    const copy = String.fromCharCode(
      ...Array.from(window, (char) => char.charCodeAt(0)),
    );
    reading = { ...reading, window: copy };
    cache.set(copy, reading);
    cached++;
  }
  lastReadings[context] = reading;
  return reading;
}

/**
 * Decodes the character references of `source.slice(start, end)` as parse5
 * does in a text or a double-quoted attribute value. The characters between
 * references are kept as written: the caller makes sure no other character
 * would be changed (no NUL, no carriage return).
 *
 * @param source the string holding the text or value
 * @param start where the text or value starts
 * @param end where it ends
 * @param inAttribute whether it is an attribute value
 * @param after how many characters the input holds after `source`
 * @returns the decoded text
 */
export function decodeReferences(
  source: string,
  start: number,
  end: number,
  inAttribute: boolean,
  after: number,
): string {
  let text = "";
  let from = start;
  let amp = source.indexOf("&", start);
  while (amp >= 0 && amp < end) {
    const reading = readReference(source, amp, end, inAttribute, after);
    const next = amp + reading.length;
    if (reading.text !== reading.window) {
      text += source.slice(from, amp) + reading.text;
      from = next;
    }
    amp = source.indexOf("&", next);
  }
  if (from === start) {
    return start === 0 && end === source.length
      ? source
      : source.slice(start, end);
  }
  return text + source.slice(from, end);
}

function isAsciiAlphanumeric(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a);
}

/**
 * Runs parse5's tokenizer on a window in an input built to reproduce the
 * character after it and the room after its `&`, padded with spaces (which
 * end any reference and are read as themselves).
 */
function readWindow(
  window: string,
  inAttribute: boolean,
  follow: string,
  room: number,
): ReferenceReading {
  // The input after the `&`: the rest of the window, what follows, padding,
  // and in an attribute the closing `">`.
  const least = window.length - 1 + follow.length + (inAttribute ? 2 : 0);
  const wanted = room === 0
    ? least
    : Math.max(least, room === 1 ? SHORT_INPUT : LONG_INPUT);
  const extra = follow + " ".repeat(wanted - least);
  const errors: string[] = [];
  let text = "";
  const append = (token: { chars: string }): void => {
    text += token.chars;
  };
  const ignore = (): void => {};
  const handler: TokenHandler = {
    onComment: ignore,
    onDoctype: ignore,
    onEndTag: ignore,
    onEof: ignore,
    onStartTag(token) {
      text = token.attrs[0]?.value ?? "";
    },
    onCharacter: append,
    onWhitespaceCharacter: append,
    onNullCharacter: append,
    onParseError(error) {
      errors.push(error.code);
    },
  };
  const tokenizer = new Tokenizer({}, handler);
  tokenizer.write(
    inAttribute ? `<a x="${window}${extra}">` : `${window}${extra}`,
    true,
  );
  return {
    window,
    length: window.length,
    text: text.slice(0, text.length - extra.length),
    error: errors[0],
  };
}
