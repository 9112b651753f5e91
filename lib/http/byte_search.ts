/**
 * Byte search for the form parser: a needle prepared once (Horspool's skip
 * table and Knuth–Morris–Pratt's failure function), then found in chunks in
 * time linear in the bytes, whatever they hold, and the partial match at the
 * end of a chunk that the next one may complete.
 *
 * @module
 */

/** A byte string to search for, with its search tables. */
export interface Needle {
  /** The bytes searched for. */
  bytes: Uint8Array;
  /**
   * Horspool's shift for each byte: how far the needle may move when that
   * byte sits under its last position and the match failed.
   */
  skip: Uint8Array;
  /** Knuth–Morris–Pratt's failure function: `fail[k]` for `k` bytes matched. */
  fail: Int32Array;
}

/** Prepares a needle's search tables. */
export function prepareNeedle(bytes: Uint8Array): Needle {
  const last = bytes.length - 1;
  const skip = new Uint8Array(256).fill(Math.min(255, bytes.length));
  for (let i = 0; i < last; i++) skip[bytes[i]!] = Math.min(255, last - i);
  const fail = new Int32Array(bytes.length + 1);
  fail[0] = -1;
  let k = -1;
  for (let i = 0; i < bytes.length; i++) {
    while (k >= 0 && bytes[k] !== bytes[i]) k = fail[k]!;
    fail[i + 1] = ++k;
  }
  return { bytes, skip, fail };
}

/**
 * The first index of `needle` in `haystack` from `from`, or -1. Candidates are
 * found with the native `indexOf` of the needle's first byte and pruned with
 * Horspool's shift, so that the JavaScript work is per candidate, not per
 * byte. Data crowded with candidates (which a sender can craft) would make
 * that slow, so past a budget of one candidate per 32 bytes the rest of the
 * chunk is searched in linear time instead.
 */
export function indexOfBytes(
  haystack: Uint8Array,
  needle: Needle,
  from: number,
): number {
  const { bytes, skip } = needle;
  const last = bytes.length - 1;
  const first = bytes[0]!;
  const lastByte = bytes[last]!;
  const end = haystack.length - bytes.length;
  let budget = 64 + ((haystack.length - from) >> 5);
  let i = from;
  while (i <= end) {
    i = haystack.indexOf(first, i);
    if (i < 0 || i > end) return -1;
    const under = haystack[i + last]!;
    if (under === lastByte && startsWith(haystack, i, bytes)) return i;
    i += skip[under]!;
    if (--budget < 0) return linearIndexOf(haystack, needle, i);
  }
  return -1;
}

/** The first index of `needle` in `haystack` from `from`, or -1 (KMP). */
function linearIndexOf(
  haystack: Uint8Array,
  needle: Needle,
  from: number,
): number {
  const { bytes, fail } = needle;
  let k = 0;
  for (let i = from; i < haystack.length; i++) {
    const byte = haystack[i];
    while (k >= 0 && bytes[k] !== byte) k = fail[k]!;
    if (++k === bytes.length) return i - k + 1;
  }
  return -1;
}

/**
 * Where a match of `needle` cut by the end of `haystack` may start: the first
 * index from which the rest of `haystack` is a proper prefix of `needle`, or
 * `haystack.length` when there is none.
 */
export function partialMatchStart(
  haystack: Uint8Array,
  needle: Uint8Array,
  from: number,
): number {
  const length = haystack.length;
  let i = Math.max(from, length - needle.length + 1);
  for (;;) {
    i = haystack.indexOf(needle[0]!, i);
    if (i < 0) return length;
    if (startsWith(needle, 0, haystack.subarray(i))) return i;
    i++;
  }
}

/** Whether `bytes` holds `prefix` at `at`. */
export function startsWith(
  bytes: Uint8Array,
  at: number,
  prefix: Uint8Array,
): boolean {
  if (at + prefix.length > bytes.length) return false;
  for (let i = 0; i < prefix.length; i++) {
    if (bytes[at + i] !== prefix[i]) return false;
  }
  return true;
}
