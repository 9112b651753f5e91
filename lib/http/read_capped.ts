/**
 * Request bodies read as capped streams: never buffered past their cap.
 *
 * `readCapped` throws its own error classes rather than HTTP answers, because
 * the answer depends on the route: `/api/auth` answers 401 to both a body too
 * large and an unreadable one, the other routes answer 413 and 400. The
 * caller maps them:
 *
 * ```ts ignore
 * try {
 *   bytes = await readCapped(request.body, 128_000);
 * } catch (error) {
 *   if (error instanceof BodyTooLargeError) throw tooLarge(error.message);
 *   if (error instanceof BodyUnreadableError) throw badRequest(error.message);
 *   if (error instanceof BodyIdleError) throw requestTimeout(error.message);
 *   throw error;
 * }
 * ```
 *
 * @module
 */

import { concatBytes } from "../encoding/bytes.ts";
import { BodyIdleError } from "./body_errors.ts";

export { BodyIdleError };
/** Thrown by `readCapped` the moment more bytes than the cap have arrived. */
export class BodyTooLargeError extends Error {
  /** The cap that was exceeded, in bytes. */
  readonly max: number;

  /**
   * Creates the error.
   *
   * @param max the cap, in bytes
   * @param received how many bytes had arrived when reading stopped
   */
  constructor(max: number, received: number) {
    super(`Body over ${max} bytes (stopped after ${received})`);
    this.name = "BodyTooLargeError";
    this.max = max;
  }
}

/**
 * Thrown by `readCapped` when the body cannot be read: the stream failed
 * midway, was already read or locked, or yielded something other than bytes.
 */
export class BodyUnreadableError extends Error {
  /**
   * Creates the error.
   *
   * @param detail what went wrong, for the server log
   * @param options the underlying error as `cause`, when there is one
   */
  constructor(detail: string, options?: ErrorOptions) {
    super(detail, options);
    this.name = "BodyUnreadableError";
  }
}

/**
 * Waits for one read of a body, at most `idleMs`: past it, the read is
 * abandoned with a {@linkcode BodyIdleError} (the caller cancels the
 * stream). Timers are the only host feature used, so any host runs it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BodyIdleError, readWithin } from "./read_capped.ts";
 *
 * assert.equal(await readWithin(Promise.resolve(7), 50), 7);
 * await assert.rejects(readWithin(new Promise(() => {}), 10), BodyIdleError);
 * ```
 *
 * @param pending the read under way
 * @param idleMs how long to wait, in milliseconds; `undefined` waits as long
 *   as it takes
 * @returns what the read gave
 * @throws {BodyIdleError} when the read has not settled after `idleMs`
 */
export function readWithin<T>(
  pending: Promise<T>,
  idleMs: number | undefined,
): Promise<T> {
  if (idleMs === undefined) return pending;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const idle = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BodyIdleError(idleMs)), idleMs);
  });
  return Promise.race([pending, idle]).finally(() => clearTimeout(timer));
}

/** How `readCapped` reads. */
export interface ReadOptions {
  /**
   * How long the body may stop arriving, in milliseconds, before it is cut
   * off with a {@linkcode BodyIdleError}; absent, it may wait forever (a
   * pipe read by the CLI).
   */
  idleMs?: number | undefined;
}

/**
 * Reads a whole body, refusing it the moment more than `max` bytes have
 * arrived: the stream is then cancelled and nothing past the cap is kept.
 * With `idleMs`, a body that stops arriving for that long is cancelled too.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readCapped } from "./read_capped.ts";
 *
 * const request = new Request("http://localhost/", {
 *   method: "POST",
 *   body: "hello",
 * });
 * const bytes = await readCapped(request.body, 2_000);
 * assert.equal(new TextDecoder().decode(bytes), "hello");
 * ```
 *
 * @param body the request's body stream; `null` reads as no bytes
 * @param max the most bytes accepted, a non-negative safe integer
 * @param options how long the body may stop arriving
 * @returns the body's bytes, in a buffer of exactly their length
 * @throws {BodyTooLargeError} when more than `max` bytes arrive
 * @throws {BodyUnreadableError} when the stream fails, was already read or
 *   yields something other than a `Uint8Array`
 * @throws {BodyIdleError} when nothing arrives for `options.idleMs`
 * @throws {RangeError} when `max` is not a non-negative safe integer
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  max: number,
  options: ReadOptions = {},
): Promise<Uint8Array<ArrayBuffer>> {
  if (!Number.isSafeInteger(max) || max < 0) {
    throw new RangeError("The cap must be a non-negative safe integer");
  }
  if (body === null) return new Uint8Array(0);
  let reader: ReadableStreamDefaultReader<Uint8Array>;
  try {
    reader = body.getReader();
  } catch (error) {
    throw new BodyUnreadableError("Body already read or locked", {
      cause: error,
    });
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let result: ReadableStreamReadResult<Uint8Array>;
    try {
      result = await readWithin(reader.read(), options.idleMs);
    } catch (error) {
      if (error instanceof BodyIdleError) {
        stop(reader, error);
        throw error;
      }
      throw new BodyUnreadableError("Body stream failed", { cause: error });
    }
    if (result.done) break;
    const chunk: unknown = result.value;
    if (!(chunk instanceof Uint8Array)) {
      const error = new BodyUnreadableError(
        "Body stream yielded a non-byte chunk",
      );
      stop(reader, error);
      throw error;
    }
    total += chunk.byteLength;
    if (total > max) {
      const error = new BodyTooLargeError(max, total);
      stop(reader, error);
      throw error;
    }
    chunks.push(chunk);
  }
  return concatBytes(...chunks);
}

/**
 * The `content-length` a request declares, parsed strictly: ASCII digits only
 * (after the `Headers` API has trimmed surrounding whitespace). A list such as
 * `5, 5`, a sign, a fraction or any other character gives `undefined`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { declaredLength } from "./read_capped.ts";
 *
 * const request = new Request("http://localhost/", {
 *   headers: { "content-length": "1200" },
 * });
 * assert.equal(declaredLength(request), 1200);
 * ```
 *
 * @param request the incoming request
 * @returns the declared length in bytes (`Infinity` when the digits exceed
 *   `Number.MAX_SAFE_INTEGER`), or `undefined` when absent or malformed
 */
export function declaredLength(request: Request): number | undefined {
  const value = request.headers.get("content-length");
  if (value === null || !/^[0-9]+$/.test(value)) return undefined;
  const length = Number(value);
  return Number.isSafeInteger(length) ? length : Number.POSITIVE_INFINITY;
}

/** Cancels a stream without waiting for it, ignoring a failed cancel. */
function stop(reader: ReadableStreamDefaultReader<Uint8Array>, reason: Error) {
  reader.cancel(reason).catch(() => {});
}
