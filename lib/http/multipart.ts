/**
 * The upload form, read as it streams: a `multipart/form-data` body
 * (RFC 7578, RFC 2046) parsed chunk by chunk, with the whole body and the
 * `file` part counted against their caps while they arrive.
 *
 * Check order, as the contract wants it (received size before shape): a size
 * over its cap always answers 413, even when the form was already known to be
 * unreadable. So a shape failure does not stop reading: the rest of the body
 * is still parsed (or, when the parts can no longer be told apart, discarded)
 * and counted, and the failure is reported only once the body has ended
 * within its cap.
 *
 * @module
 */

import { BodyIdleError, declaredLength, readWithin } from "./read_capped.ts";
import { FormError } from "./body_errors.ts";

export { FormError };
import {
  indexOfBytes,
  type Needle,
  partialMatchStart,
  prepareNeedle,
  startsWith,
} from "./byte_search.ts";
import { parseParameters, TOKEN } from "./header_parameters.ts";
import { concatBytes } from "../encoding/bytes.ts";
import {
  FORM_HEADER_BLOCK_MAX,
  FORM_NAME_MAX,
  FORM_PADDING_MAX,
} from "../limits.ts";

/** What the upload route receives from the form. */
export interface UploadForm {
  /**
   * The bytes of the `file` part: a view from offset 0 of a fixed-length
   * buffer at most twice as long as the file. Use the view, not its buffer.
   */
  file: Uint8Array<ArrayBuffer>;
  /** The `name` part as text, or `undefined` when the form has none. */
  name: string | undefined;
}

/** Caps applied while the form streams, in bytes. */
export interface UploadLimits {
  /** The most bytes of the `file` part; one more answers 413. */
  fileMax: number;
  /** The most bytes of the whole body; one more answers 413. */
  bodyMax: number;
  /** The most bytes of the `name` part; one more answers 400. Default 4096. */
  nameMax?: number;
  /**
   * How long the body may stop arriving, in milliseconds, before `read()`
   * cancels it with a `BodyIdleError`; absent, it waits as long as it takes.
   */
  idleMs?: number | undefined;
}

const CR = 13;
const LF = 10;
const DASH = 45;
const SP = 32;
const HT = 9;
const EMPTY = new Uint8Array(0);
const HEADER_END = prepareNeedle(new Uint8Array([CR, LF, CR, LF]));

/**
 * Reads the upload form from a request as it streams, never holding more than
 * `fileMax` bytes of the file (plus at most one boundary's worth of lookahead)
 * and never reading past `bodyMax` bytes.
 *
 * The `file` part is kept, the `name` part is decoded as UTF-8, any other part
 * is counted and skipped. A part is told by the `name` of its
 * `content-disposition`, whatever its `filename` or `content-type`. When the
 * request declares a `content-length`, the file is written into one buffer
 * allocated once at `min(declared, fileMax)`, otherwise at `fileMax`: a fresh
 * buffer's pages become resident only when written, so memory grows with the
 * bytes received, and the file is handed over without a copy.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readUploadForm } from "./multipart.ts";
 *
 * const form = new FormData();
 * form.append("file", new Blob([new Uint8Array([1, 2, 3])]), "a.png");
 * form.append("name", "Sunset");
 * const request = new Request("http://localhost/api/upload", {
 *   method: "POST",
 *   body: form,
 * });
 * const { file, name } = await readUploadForm(request, {
 *   fileMax: 20_000_000,
 *   bodyMax: 20_065_536,
 * });
 * assert.deepEqual([...file], [1, 2, 3]);
 * assert.equal(name, "Sunset");
 * ```
 *
 * @param request the upload request; its body is consumed
 * @param limits the caps: `fileMax` and `bodyMax` (413), `nameMax` (400)
 * @returns the file's bytes and the name, if one was sent
 * @throws {FormError} `too_large` (413) when a declared `content-length`
 *   exceeds `bodyMax`, or the moment the body exceeds `bodyMax` or a `file`
 *   part exceeds `fileMax` (the stream is then cancelled); `malformed` (400)
 *   when the body ends within its cap but the form is unreadable: wrong
 *   content type or boundary, missing or invalid part headers, a body ending
 *   before the closing boundary, no `file` part or an empty one, a duplicate
 *   `file` or `name` part, a `name` part over `nameMax` or not UTF-8, a stream
 *   that fails
 * @throws {RangeError} when a limit is not a non-negative safe integer
 */
export async function readUploadForm(
  request: Request,
  limits: UploadLimits,
): Promise<UploadForm> {
  return await openUploadForm(request, limits).read();
}

/**
 * An upload form whose caps and declared length are checked, and whose body
 * is not read yet.
 */
export interface OpenedUploadForm {
  /**
   * Reads the body as it streams.
   *
   * @returns the file's bytes and the name, if one was sent
   * @throws {FormError} as `readUploadForm` does once the body is read
   */
  read(): Promise<UploadForm>;
}

/**
 * The first half of `readUploadForm`, for a route that answers the declared
 * size before it looks at identity and reads the body after: checks the caps
 * and the declared `content-length` now (a length over `bodyMax` cancels the
 * body), and leaves the reading to `read()`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FormError, openUploadForm } from "./multipart.ts";
 *
 * const request = new Request("http://localhost/api/upload", {
 *   method: "POST",
 *   headers: { "content-length": "21000000" },
 *   body: "x",
 * });
 * assert.throws(
 *   () => openUploadForm(request, { fileMax: 10, bodyMax: 20 }),
 *   FormError,
 * );
 * ```
 *
 * @param request the upload request; its body is consumed by `read()`
 * @param limits the caps: `fileMax` and `bodyMax` (413), `nameMax` (400)
 * @returns the form, to `read()`
 * @throws {FormError} `too_large` when the declared length exceeds `bodyMax`
 * @throws {RangeError} when a limit is not a non-negative safe integer
 */
export function openUploadForm(
  request: Request,
  limits: UploadLimits,
): OpenedUploadForm {
  const { fileMax, bodyMax, nameMax = FORM_NAME_MAX } = limits;
  for (
    const [label, value] of [["fileMax", fileMax], ["bodyMax", bodyMax], [
      "nameMax",
      nameMax,
    ]] as const
  ) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`The ${label} must be a non-negative safe integer`);
    }
  }
  const body = request.body;
  const declared = declaredLength(request);
  if (declared !== undefined && declared > bodyMax) {
    if (body !== null && !body.locked) body.cancel().catch(() => {});
    throw new FormError(
      "too_large",
      `Declared content-length ${declared} over ${bodyMax}`,
    );
  }
  return {
    async read() {
      const boundary = multipartBoundary(request.headers.get("content-type"));
      const parser = new FormParser(boundary, {
        fileMax,
        nameMax,
        declared,
      });
      if (body === null) return parser.end();
      const reader = chunks(body);
      let total = 0;
      for (;;) {
        let chunk: Uint8Array | undefined;
        try {
          chunk = await readWithin(reader.next(), limits.idleMs);
        } catch (error) {
          if (error instanceof BodyIdleError) reader.cancel(error);
          if (error instanceof FormError || error instanceof BodyIdleError) {
            throw error;
          }
          throw new FormError("malformed", "Upload body stream failed");
        }
        if (chunk === undefined) break;
        try {
          total += chunk.byteLength;
          if (total > bodyMax) {
            throw new FormError(
              "too_large",
              `Upload body over ${bodyMax} bytes`,
            );
          }
          parser.push(chunk);
        } catch (error) {
          reader.cancel(error);
          throw error;
        }
      }
      return parser.end();
    },
  };
}

const SCRATCH_BYTES = 65_536;

/**
 * The chunks of a body. A byte stream (as `Deno.serve` gives) is read with a
 * BYOB reader into one reused scratch buffer, so a 20 MB upload leaves no
 * trail of chunk buffers waiting for the garbage collector; the parser
 * copies what it keeps. Any other stream is read chunk by chunk.
 */
function chunks(body: ReadableStream<Uint8Array>): {
  next(): Promise<Uint8Array | undefined>;
  cancel(reason: unknown): void;
} {
  let byob: ReadableStreamBYOBReader | undefined;
  let plain: ReadableStreamDefaultReader<Uint8Array> | undefined;
  try {
    byob = body.getReader({ mode: "byob" });
  } catch {
    try {
      plain = body.getReader();
    } catch {
      throw new FormError("malformed", "Upload body already read or locked");
    }
  }
  let scratch: ArrayBuffer = new ArrayBuffer(SCRATCH_BYTES);
  return {
    async next() {
      if (byob) {
        const result = await byob.read(new Uint8Array(scratch));
        if (result.done || result.value === undefined) return undefined;
        scratch = result.value.buffer as ArrayBuffer;
        return result.value;
      }
      const result = await plain!.read();
      if (result.done) return undefined;
      const chunk: unknown = result.value;
      if (!(chunk instanceof Uint8Array)) {
        throw new FormError(
          "malformed",
          "Upload body stream yielded a non-byte chunk",
        );
      }
      return chunk;
    },
    cancel(reason) {
      (byob ?? plain)?.cancel(reason).catch(() => {});
    },
  };
}

/**
 * The boundary of a `multipart/form-data` content type: 1 to 70 characters
 * of RFC 2046 `bchars`, not ending with a space, quoted or not; parameter
 * names and the media type are matched case-insensitively.
 *
 * @param contentType the `content-type` header, or `null`
 * @returns the boundary, or `undefined` when the type is not
 *   `multipart/form-data` with exactly one valid boundary
 */
function multipartBoundary(contentType: string | null): string | undefined {
  if (contentType === null) return undefined;
  const semicolon = contentType.indexOf(";");
  const type = semicolon < 0 ? contentType : contentType.slice(0, semicolon);
  if (type.trim().toLowerCase() !== "multipart/form-data") return undefined;
  if (semicolon < 0) return undefined;
  const parameters = parseParameters(contentType, semicolon);
  const boundary = parameters?.get("boundary");
  if (boundary === undefined) return undefined;
  return /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/.test(
      boundary,
    )
    ? boundary
    : undefined;
}

/** Where the parser stands in the body. */
type State =
  | "start"
  | "preamble"
  | "boundaryLine"
  | "headers"
  | "body"
  | "closed"
  | "broken";

/** What becomes of the bytes of the current part. */
type PartKind = "file" | "extraFile" | "name" | "skip";

/** The parser's caps, and the declared length that sizes the file buffer. */
interface ParserLimits {
  fileMax: number;
  nameMax: number;
  declared: number | undefined;
}

/**
 * A push parser of `multipart/form-data`: `push` each chunk, then `end`.
 * Shape failures are remembered (the first one wins) and thrown by `end`;
 * `push` throws only 413.
 */
class FormParser {
  readonly #delimiter: Needle;
  readonly #limits: ParserLimits;
  #state: State;
  #carry: Uint8Array = EMPTY;
  #part: PartKind = "skip";
  #partBytes = 0;
  #nameChunks: Uint8Array[] = [];
  #file: FileBuffer | undefined;
  #fileSeen = false;
  #nameSeen = false;
  #name: string | undefined;
  #malformed: string | undefined;

  /**
   * @param boundary the form's boundary, or `undefined` when the content type
   *   is refused: every byte is then only counted
   * @param limits the caps
   */
  constructor(boundary: string | undefined, limits: ParserLimits) {
    this.#limits = limits;
    this.#delimiter = prepareNeedle(
      new TextEncoder().encode(`\r\n--${boundary ?? ""}`),
    );
    this.#state = "start";
    if (boundary === undefined) {
      this.#broken(
        "Content type is not multipart/form-data with a boundary",
        EMPTY,
      );
    }
  }

  /**
   * Parses one more chunk of the body.
   *
   * @param chunk the next bytes
   * @throws {FormError} `too_large` when a `file` part exceeds `fileMax`
   */
  push(chunk: Uint8Array): void {
    if (this.#state === "closed" || this.#state === "broken") return;
    const bytes = this.#carry.length === 0
      ? chunk
      : concatBytes(this.#carry, chunk);
    this.#carry = EMPTY;
    let at = 0;
    while (at < bytes.length) at = this.#step(bytes, at);
  }

  /**
   * Ends the body.
   *
   * @returns the form
   * @throws {FormError} `malformed` when the form is unreadable or has no file
   */
  end(): UploadForm {
    if (this.#state !== "closed") {
      this.#fail("Body ended before the closing boundary");
    }
    if (this.#malformed !== undefined) {
      throw new FormError("malformed", this.#malformed);
    }
    if (this.#file === undefined || this.#file.length === 0) {
      throw new FormError(
        "malformed",
        this.#fileSeen ? "Empty file part" : "No file part",
      );
    }
    return { file: this.#file.take(), name: this.#name };
  }

  /** Consumes what it can of `bytes` from `at`; returns where it stopped. */
  #step(bytes: Uint8Array, at: number): number {
    switch (this.#state) {
      case "start":
        return this.#start(bytes, at);
      case "preamble":
      case "body":
        return this.#data(bytes, at);
      case "boundaryLine":
        return this.#boundaryLine(bytes, at);
      case "headers":
        return this.#headers(bytes, at);
      case "closed":
      case "broken":
        return bytes.length;
    }
  }

  /** The body may open with `--boundary` directly, without a CRLF. */
  #start(bytes: Uint8Array, at: number): number {
    const dashBoundary = this.#delimiter.bytes.subarray(2);
    const available = Math.min(bytes.length - at, dashBoundary.length);
    if (!startsWith(bytes, at, dashBoundary.subarray(0, available))) {
      this.#state = "preamble";
      return at;
    }
    if (available < dashBoundary.length) return this.#keep(bytes, at);
    this.#state = "boundaryLine";
    return at + dashBoundary.length;
  }

  /** Preamble or part data, up to the next delimiter. */
  #data(bytes: Uint8Array, at: number): number {
    const delimiter = this.#delimiter;
    const found = indexOfBytes(bytes, delimiter, at);
    if (found >= 0) {
      this.#emit(bytes.subarray(at, found));
      this.#endPart();
      this.#state = "boundaryLine";
      return found + delimiter.bytes.length;
    }
    const cut = partialMatchStart(bytes, delimiter.bytes, at);
    this.#emit(bytes.subarray(at, cut));
    return this.#keep(bytes, cut);
  }

  /** After a delimiter: `--` closes the form, else padding and CRLF. */
  #boundaryLine(bytes: Uint8Array, at: number): number {
    if (bytes.length - at < 2) return this.#keep(bytes, at);
    if (bytes[at] === DASH && bytes[at + 1] === DASH) {
      this.#state = "closed";
      return bytes.length;
    }
    let end = at;
    while (
      end - at <= FORM_PADDING_MAX && (bytes[end] === SP || bytes[end] === HT)
    ) {
      end++;
    }
    if (end - at > FORM_PADDING_MAX) {
      return this.#broken("Padding after a boundary is too long", bytes);
    }
    if (end + 1 >= bytes.length) return this.#keep(bytes, at);
    if (bytes[end] !== CR || bytes[end + 1] !== LF) {
      return this.#broken("Boundary followed by other bytes", bytes);
    }
    // The CRLF is kept as the start of the header block.
    this.#state = "headers";
    return end;
  }

  /** A part's header block, from its leading CRLF to the empty line. */
  #headers(bytes: Uint8Array, at: number): number {
    const end = indexOfBytes(bytes, HEADER_END, at);
    if (end < 0 || end - at > FORM_HEADER_BLOCK_MAX) {
      if (bytes.length - at > FORM_HEADER_BLOCK_MAX) {
        return this.#broken("Part headers are too long", bytes);
      }
      return this.#keep(bytes, at);
    }
    this.#startPart(bytes.subarray(at + 2, Math.max(at + 2, end)));
    this.#state = "body";
    return end + HEADER_END.bytes.length;
  }

  /** Chooses where the part's bytes go, from its headers. */
  #startPart(block: Uint8Array): void {
    this.#part = "skip";
    this.#partBytes = 0;
    const name = partName(block);
    if (name === undefined) {
      this.#fail("Part headers are missing or invalid");
    } else if (name === "file") {
      if (this.#fileSeen) {
        this.#fail("Duplicate file part");
        this.#part = "extraFile"; // still counted against fileMax
      } else {
        this.#part = "file";
        const { declared, fileMax } = this.#limits;
        this.#file = new FileBuffer(declared, fileMax);
      }
      this.#fileSeen = true;
    } else if (name === "name") {
      if (this.#nameSeen) this.#fail("Duplicate name part");
      else this.#part = "name";
      this.#nameSeen = true;
    }
  }

  /** Sends part data where its part goes, counting it against its cap. */
  #emit(data: Uint8Array): void {
    if (data.length === 0 || this.#state !== "body") return;
    this.#partBytes += data.length;
    switch (this.#part) {
      case "file":
      case "extraFile":
        if (this.#partBytes > this.#limits.fileMax) {
          throw new FormError(
            "too_large",
            `File part over ${this.#limits.fileMax} bytes`,
          );
        }
        if (this.#part === "file") this.#file?.write(data);
        return;
      case "name":
        if (this.#partBytes > this.#limits.nameMax) {
          this.#fail(`Name part over ${this.#limits.nameMax} bytes`);
          this.#part = "skip";
          this.#nameChunks = [];
        } else {
          this.#nameChunks.push(data.slice());
        }
        return;
      case "skip":
        return;
    }
  }

  /** Closes the current part at its delimiter. */
  #endPart(): void {
    if (this.#state === "body" && this.#part === "name") {
      try {
        this.#name = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true })
          .decode(concatBytes(...this.#nameChunks));
      } catch {
        this.#fail("Name part is not UTF-8");
      }
      this.#nameChunks = [];
    }
    this.#part = "skip";
  }

  /** Keeps the bytes from `at` for the next chunk. */
  #keep(bytes: Uint8Array, at: number): number {
    if (at < bytes.length) this.#carry = bytes.slice(at);
    return bytes.length;
  }

  /** Remembers the first shape failure; reading goes on. */
  #fail(detail: string): void {
    this.#malformed ??= detail;
  }

  /**
   * A failure after which parts can no longer be told apart: the rest of the
   * body is only counted. Returns the end of `bytes`.
   */
  #broken(detail: string, bytes: Uint8Array): number {
    this.#fail(detail);
    this.#state = "broken";
    this.#part = "skip";
    this.#nameChunks = [];
    this.#carry = EMPTY;
    return bytes.length;
  }
}

/**
 * The `name` of a part, from its header block: CRLF-separated `name: value`
 * lines, valid UTF-8, with exactly one `content-disposition` of type
 * `form-data` carrying a `name` parameter. Other headers are ignored.
 *
 * @param block the header lines, without the final empty line
 * @returns the part's name, or `undefined` when the headers are invalid
 */
function partName(block: Uint8Array): string | undefined {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(block);
  } catch {
    return undefined;
  }
  let disposition: string | undefined;
  for (const line of text.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon < 0) return undefined;
    const name = line.slice(0, colon);
    if (!TOKEN.test(name) || /[\r\n]/.test(line)) return undefined;
    if (name.toLowerCase() !== "content-disposition") continue;
    if (disposition !== undefined) return undefined;
    disposition = line.slice(colon + 1).trim();
  }
  if (disposition === undefined) return undefined;
  const semicolon = disposition.indexOf(";");
  if (semicolon < 0) return undefined;
  if (disposition.slice(0, semicolon).trim().toLowerCase() !== "form-data") {
    return undefined;
  }
  return parseParameters(disposition, semicolon)?.get("name");
}

/**
 * The file's bytes, in one buffer allocated once: `min(declared, fileMax)`
 * bytes with a declared length, else `fileMax`. Allocating commits no memory:
 * a fresh buffer is zero pages that become resident only when written, so
 * the process grows by the bytes received, and the file is never copied. A
 * declared length that lied (the file outgrows the buffer) costs one copy
 * into a buffer of `fileMax`.
 */
class FileBuffer {
  #bytes: Uint8Array<ArrayBuffer>;
  readonly #max: number;
  /** How many bytes were written. */
  length = 0;

  /**
   * @param declared the request's declared length, if any
   * @param max the cap, which `write` callers never exceed
   */
  constructor(declared: number | undefined, max: number) {
    this.#bytes = new Uint8Array(Math.min(declared ?? max, max));
    this.#max = max;
  }

  /** Appends bytes; the caller has checked the cap. */
  write(data: Uint8Array): void {
    const needed = this.length + data.length;
    if (needed > this.#bytes.length) {
      const grown = new Uint8Array(this.#max);
      grown.set(this.#bytes.subarray(0, this.length));
      this.#bytes = grown;
    }
    this.#bytes.set(data, this.length);
    this.length = needed;
  }

  /**
   * Hands the bytes over as a view from offset 0 of a fixed-length buffer at
   * most twice as long: without a copy, unless more than half the buffer is
   * unused (then the smaller file is copied out).
   */
  take(): Uint8Array<ArrayBuffer> {
    return this.#bytes.length - this.length > this.length
      ? this.#bytes.slice(0, this.length)
      : this.#bytes.subarray(0, this.length);
  }
}
