import assert from "node:assert/strict";
import fc from "fast-check";
import { concatBytes } from "../../lib/encoding/bytes.ts";
import { HttpError } from "../../lib/http/http_error.ts";
import { answered } from "../support/helpers.ts";
import { readUploadForm, type UploadLimits } from "../../lib/http/multipart.ts";

const encoder = new TextEncoder();
const LIMITS: UploadLimits = { fileMax: 1000, bodyMax: 2000 };
const BOUNDARY = "b0undary";

/** A deterministic generator of chunk sizes (mulberry32). */
function randomSizes(seed: number, max: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const unit = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return 1 + Math.floor(unit * max);
  };
}

/** What a test stream saw: how often it was pulled, and its cancellation. */
interface StreamRecord {
  pulls: number;
  sent: number;
  cancelled: boolean;
}

/**
 * A stream of `bytes` in chunks of the sizes given, then endless `tail`
 * chunks when given; each chunk is a fresh copy, pulled on demand.
 */
function chunked(
  bytes: Uint8Array,
  size: () => number,
  tail?: Uint8Array,
): { stream: ReadableStream<Uint8Array>; record: StreamRecord } {
  const record: StreamRecord = { pulls: 0, sent: 0, cancelled: false };
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      record.pulls++;
      if (offset < bytes.length) {
        const chunk = bytes.slice(offset, offset + size());
        offset += chunk.length;
        record.sent += chunk.length;
        controller.enqueue(chunk);
      } else if (tail !== undefined) {
        record.sent += tail.length;
        controller.enqueue(tail.slice());
      } else {
        controller.close();
      }
    },
    cancel() {
      record.cancelled = true;
    },
  }, { highWaterMark: 0 });
  return { stream, record };
}

/** A part of a hand-written body. */
interface Part {
  headers: string;
  data: Uint8Array | string;
}

/** A hand-written multipart body, CRLF throughout. */
function multipart(
  parts: Part[],
  options: {
    boundary?: string;
    preamble?: string;
    epilogue?: string;
    padding?: string;
    close?: boolean;
  } = {},
): Uint8Array<ArrayBuffer> {
  const boundary = options.boundary ?? BOUNDARY;
  const padding = options.padding ?? "";
  const pieces: Uint8Array[] = [];
  const text = (value: string) => pieces.push(encoder.encode(value));
  if (options.preamble !== undefined) text(`${options.preamble}\r\n`);
  for (const [index, part] of parts.entries()) {
    text(`${index === 0 ? "" : "\r\n"}--${boundary}${padding}\r\n`);
    text(`${part.headers}\r\n\r\n`);
    pieces.push(
      typeof part.data === "string" ? encoder.encode(part.data) : part.data,
    );
  }
  if (options.close ?? true) {
    text(`\r\n--${boundary}--${padding}`);
    if (options.epilogue !== undefined) text(`\r\n${options.epilogue}`);
  }
  return concat(pieces);
}

function concat(pieces: Uint8Array[]): Uint8Array<ArrayBuffer> {
  return concatBytes(...pieces);
}

function filePart(data: Uint8Array | string, filename = "a.png"): Part {
  return {
    headers:
      `Content-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
      "Content-Type: image/png",
    data,
  };
}

function namePart(data: Uint8Array | string): Part {
  return { headers: 'Content-Disposition: form-data; name="name"', data };
}

/** An upload request over `body`, with the content type of `BOUNDARY`. */
function upload(
  body: BodyInit | null,
  options: { contentType?: string | null; length?: number } = {},
): Request {
  const headers = new Headers();
  const contentType = options.contentType === undefined
    ? `multipart/form-data; boundary=${BOUNDARY}`
    : options.contentType;
  if (contentType !== null) headers.set("content-type", contentType);
  if (options.length !== undefined) {
    headers.set("content-length", String(options.length));
  }
  return new Request("http://localhost/api/upload", {
    method: "POST",
    headers,
    body,
  });
}

function formRequest(form: FormData): Request {
  return new Request("http://localhost/api/upload", {
    method: "POST",
    body: form,
  });
}

async function rejectsWith(
  promise: Promise<unknown>,
  status: number,
  detail?: RegExp,
): Promise<void> {
  await assert.rejects(promise, (thrown: unknown) => {
    const error = answered(thrown);
    assert.ok(error instanceof HttpError, String(error));
    assert.equal(error.status, status, error.message);
    if (detail !== undefined) assert.match(error.message, detail);
    return true;
  });
}

/** The first index of `needle` in `bytes`, by brute force, or -1. */
function firstIndex(bytes: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= bytes.length; i++) {
    for (let j = 0; j < needle.length; j++) {
      if (bytes[i + j] !== needle[j]) continue outer;
    }
    return i;
  }
  return -1;
}

function bytesOf(length: number, seed = 1): Uint8Array<ArrayBuffer> {
  const next = randomSizes(seed, 256);
  return Uint8Array.from({ length }, () => next() - 1);
}

// Forms as browsers and Deno build them

Deno.test("readUploadForm reads the file and name of a FormData body", async () => {
  const bytes = bytesOf(700);
  const form = new FormData();
  form.append("file", new Blob([bytes], { type: "image/png" }), "x.png");
  form.append("name", "Été à Paris ✓");
  const { file, name } = await readUploadForm(formRequest(form), LIMITS);
  assert.deepEqual(file, bytes);
  assert.equal(name, "Été à Paris ✓");
});

Deno.test("readUploadForm gives no name when the form has none", async () => {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array([1, 2, 3])]));
  const { file, name } = await readUploadForm(formRequest(form), LIMITS);
  assert.deepEqual(file, new Uint8Array([1, 2, 3]));
  assert.equal(name, undefined);
});

Deno.test("readUploadForm keeps an empty name as an empty string", async () => {
  const form = new FormData();
  form.append("name", "");
  form.append("file", new Blob([new Uint8Array([9])]));
  const { name } = await readUploadForm(formRequest(form), LIMITS);
  assert.equal(name, "");
});

Deno.test("readUploadForm skips other parts, text and files", async () => {
  const form = new FormData();
  form.append("before", "x".repeat(300));
  form.append("other", new Blob([bytesOf(300, 5)]), "other.png");
  form.append("file", new Blob([bytesOf(500, 6)]), "x.webp");
  form.append("after", "y");
  const { file, name } = await readUploadForm(formRequest(form), LIMITS);
  assert.deepEqual(file, bytesOf(500, 6));
  assert.equal(name, undefined);
});

Deno.test("readUploadForm returns a fixed-length buffer that digest and writeFile accept", async () => {
  const bytes = bytesOf(600, 3);
  const body = multipart([filePart(bytes)]);
  for (const length of [undefined, body.length, 1900]) {
    const request = upload(
      chunked(body, randomSizes(length ?? 9, 97)).stream,
      length === undefined ? {} : { length },
    );
    const { file } = await readUploadForm(request, LIMITS);
    assert.equal(file.buffer.resizable, false);
    assert.equal(file.byteOffset, 0);
    assert.ok(file.buffer.byteLength >= 600);
    assert.ok(file.buffer.byteLength <= 1200);
    assert.deepEqual(new Uint8Array(file.buffer, 0, 600), bytes);
    assert.deepEqual(file, bytes);
    const digest = await crypto.subtle.digest("SHA-256", file);
    const expected = await crypto.subtle.digest("SHA-256", bytes.slice());
    assert.deepEqual(new Uint8Array(digest), new Uint8Array(expected));
    const path = await Deno.makeTempFile();
    try {
      await Deno.writeFile(path, file);
      assert.deepEqual(await Deno.readFile(path), bytes);
    } finally {
      await Deno.remove(path);
    }
  }
});

Deno.test("readUploadForm grows past a declared length that is too small", async () => {
  const bytes = bytesOf(900, 8);
  const body = multipart([filePart(bytes)]);
  for (const length of [0, 10, 300]) {
    const { stream } = chunked(body, randomSizes(length + 1, 70));
    const { file } = await readUploadForm(upload(stream, { length }), LIMITS);
    assert.deepEqual(file, bytes);
    assert.equal(file.buffer.resizable, false);
    assert.ok(file.buffer.byteLength <= 2 * bytes.length);
  }
});

// Hand-written bodies

Deno.test("readUploadForm accepts a quoted boundary with every allowed character", async () => {
  const boundary = "a'()+_,-./:=? Z9";
  const body = multipart([namePart("n"), filePart("abc")], { boundary });
  const request = upload(body, {
    contentType: `Multipart/Form-Data; charset=utf-8; BOUNDARY="${boundary}"`,
  });
  const { file, name } = await readUploadForm(request, LIMITS);
  assert.equal(new TextDecoder().decode(file), "abc");
  assert.equal(name, "n");
});

Deno.test("readUploadForm accepts a quoted boundary with a backslash escape", async () => {
  const body = multipart([filePart("abc")], { boundary: "ab" });
  const request = upload(body, {
    contentType: 'multipart/form-data; boundary="a\\b"',
  });
  const { file } = await readUploadForm(request, LIMITS);
  assert.equal(new TextDecoder().decode(file), "abc");
});

Deno.test("readUploadForm accepts boundaries of 1 and 70 characters", async () => {
  for (const boundary of ["z", "x".repeat(70)]) {
    const body = multipart([filePart("--z\r\n-z\r\n")], { boundary });
    const request = upload(body, {
      contentType: `multipart/form-data; boundary=${boundary}`,
    });
    const { file } = await readUploadForm(request, LIMITS);
    assert.equal(new TextDecoder().decode(file), "--z\r\n-z\r\n");
  }
});

Deno.test("readUploadForm skips a preamble and an epilogue and allows padding", async () => {
  const body = multipart([filePart("data"), namePart("n")], {
    preamble: `A preamble\r\n-${BOUNDARY} and --${BOUNDARY} are no delimiters`,
    epilogue: `epilogue\r\n--${BOUNDARY}\r\nignored`,
    padding: " \t ",
  });
  const { file, name } = await readUploadForm(upload(body), LIMITS);
  assert.equal(new TextDecoder().decode(file), "data");
  assert.equal(name, "n");
});

Deno.test("readUploadForm keeps CRLF and boundary-like bytes inside the file", async () => {
  const tricky = [
    "\r\n",
    "\r\n\r\n",
    "--",
    `--${BOUNDARY}`,
    `\r\n--${BOUNDARY.slice(0, -1)}`,
    `\r--${BOUNDARY}`,
    `\n--${BOUNDARY}`,
    `\r\n-${BOUNDARY}`,
    `\r\n--${BOUNDARY.toUpperCase()}`,
    "\r\n--",
    "\r",
  ];
  const data = concat(
    Array.from({ length: 40 }, (_, i) => encoder.encode(tricky[i % 11]!))
      .flatMap((piece, i) => [piece, bytesOf(i % 7, i)]),
  );
  const body = multipart([filePart(data), namePart(`--${BOUNDARY}-\r\n-`)]);
  for (let seed = 1; seed <= 50; seed++) {
    const { stream } = chunked(body, randomSizes(seed, 1 + (seed % 13)));
    const { file, name } = await readUploadForm(upload(stream), LIMITS);
    assert.deepEqual(file, data, `seed ${seed}`);
    assert.equal(name, `--${BOUNDARY}-\r\n-`);
  }
});

/**
 * Bytes crowded with false starts of `\r\n--{boundary}`: runs of CR, then
 * runs of the boundary's last-but-one byte, which defeat the fast search.
 */
function crowded(boundary: string, length: number): Uint8Array<ArrayBuffer> {
  const delimiter = encoder.encode(`\r\n--${boundary}`);
  const run = delimiter.length - 1;
  const other = delimiter[delimiter.length - 2]!;
  return Uint8Array.from(
    { length },
    (_, i) => Math.floor(i / run) % 2 === 0 ? 13 : other,
  );
}

Deno.test("readUploadForm keeps a file crowded with false boundary starts", async () => {
  const data = concat([
    crowded(BOUNDARY, 50_000),
    encoder.encode(`\r\n--${BOUNDARY.slice(0, -1)}`),
    crowded(BOUNDARY, 30_001),
  ]);
  const body = multipart([filePart(data), namePart("after")]);
  const limits = { fileMax: 100_000, bodyMax: 200_000 };
  const whole = await readUploadForm(upload(body), limits);
  assert.deepEqual(whole.file, data);
  assert.equal(whole.name, "after");
  for (let seed = 1; seed <= 10; seed++) {
    const { stream } = chunked(body, randomSizes(seed, 20_000));
    const form = await readUploadForm(upload(stream), limits);
    assert.deepEqual(form.file, data, `seed ${seed}`);
    assert.equal(form.name, "after");
  }
});

Deno.test("readUploadForm finds the boundary wherever the crowded search gives up", async () => {
  const limits = { fileMax: 10_000, bodyMax: 20_000 };
  for (const filler of [0, 500, 1000]) {
    for (let length = 100; length <= 260; length++) {
      const data = concat([
        new Uint8Array(filler).fill(97),
        crowded(BOUNDARY, length),
      ]);
      const { file } = await readUploadForm(
        upload(multipart([filePart(data)])),
        limits,
      );
      assert.deepEqual(file, data, `filler ${filler}, length ${length}`);
    }
  }
});

Deno.test("readUploadForm accepts a file ending with bytes that start a boundary", async () => {
  for (const end of ["\r", "\r\n", "\r\n-", `\r\n--${BOUNDARY.slice(0, 4)}`]) {
    const data = encoder.encode(`x${end}`);
    const body = multipart([filePart(data)]);
    for (let seed = 1; seed <= 10; seed++) {
      const { stream } = chunked(body, randomSizes(seed, 5));
      const { file } = await readUploadForm(upload(stream), LIMITS);
      assert.deepEqual(file, data);
    }
  }
});

Deno.test("readUploadForm reads header names in any case and ignores other headers", async () => {
  const body = multipart([{
    headers: "content-type: image/png\r\nCONTENT-DISPOSITION: Form-Data; " +
      'filename="we;ird \\"x\\".png"; name=file\r\nX-Other: 1',
    data: "abc",
  }]);
  const { file } = await readUploadForm(upload(body), LIMITS);
  assert.equal(new TextDecoder().decode(file), "abc");
});

// Caps

Deno.test("readUploadForm accepts a file of exactly fileMax, declared or streamed", async () => {
  const data = bytesOf(LIMITS.fileMax, 11);
  const body = multipart([filePart(data)]);
  for (const length of [body.length, undefined]) {
    const { stream } = chunked(body, randomSizes(4, 64));
    const request = upload(stream, length === undefined ? {} : { length });
    const { file } = await readUploadForm(request, LIMITS);
    assert.deepEqual(file, data);
  }
});

Deno.test("readUploadForm refuses fileMax + 1 bytes as soon as they arrive, declared or streamed", async () => {
  const data = bytesOf(LIMITS.fileMax + 1, 12);
  const body = multipart([filePart(data), namePart("x".repeat(500))]);
  for (const length of [body.length, undefined]) {
    const { stream, record } = chunked(body, () => 50);
    const request = upload(stream, length === undefined ? {} : { length });
    await rejectsWith(readUploadForm(request, LIMITS), 413, /File part/);
    assert.ok(record.cancelled);
    assert.ok(record.sent < body.length - 400, `sent ${record.sent}`);
  }
});

Deno.test("readUploadForm refuses a declared length over bodyMax without reading", async () => {
  const { stream, record } = chunked(multipart([filePart("a")]), () => 10);
  const request = upload(stream, { length: LIMITS.bodyMax + 1 });
  await rejectsWith(readUploadForm(request, LIMITS), 413, /Declared/);
  assert.equal(record.sent, 0);
  assert.ok(record.cancelled);
});

Deno.test("readUploadForm stops a body that never ends at bodyMax", async () => {
  const cases: [Uint8Array, Uint8Array][] = [
    [encoder.encode("preamble "), encoder.encode("more preamble ")],
    [
      multipart([namePart("")], { close: false }),
      encoder.encode("name goes on "),
    ],
    [
      multipart([{
        headers: "Content-Disposition: form-data; name=other",
        data: "",
      }], {
        close: false,
      }),
      new Uint8Array(100),
    ],
    [
      multipart([filePart("a")], { epilogue: "" }),
      encoder.encode("epilogue "),
    ],
  ];
  for (const [head, tail] of cases) {
    const { stream, record } = chunked(head, () => 100, tail);
    await rejectsWith(readUploadForm(upload(stream), LIMITS), 413, /body/);
    assert.ok(record.cancelled);
    assert.ok(record.sent <= LIMITS.bodyMax + 100, `sent ${record.sent}`);
  }
});

Deno.test("readUploadForm counts a duplicate file part against fileMax", async () => {
  const body = multipart([filePart("a"), filePart(bytesOf(1001))]);
  await rejectsWith(readUploadForm(upload(body), LIMITS), 413, /File part/);
});

Deno.test("readUploadForm answers 413 when the form is malformed and oversized", async () => {
  const big = new Uint8Array(LIMITS.bodyMax + 1);
  const bodies: [Uint8Array, string | null][] = [
    [big, "text/plain"],
    [big, null],
    [big, "multipart/form-data"],
    [
      multipart([filePart("a"), filePart("b"), namePart(""), {
        headers: "Content-Disposition: form-data; name=other",
        data: big,
      }]),
      "skip",
    ],
    [concat([multipart([{ headers: "Bad", data: "" }]), big]), "skip"],
    [concat([encoder.encode(`--${BOUNDARY}junk\r\n`), big]), "skip"],
    [multipart([namePart(big)]), "skip"],
    [multipart([namePart("a"), namePart("b"), filePart(big)]), "skip"],
  ];
  for (const [body, contentType] of bodies) {
    const { stream, record } = chunked(body, randomSizes(body.length, 300));
    const request = upload(
      stream,
      contentType === "skip" ? {} : { contentType },
    );
    await rejectsWith(readUploadForm(request, LIMITS), 413);
    assert.ok(record.cancelled);
  }
});

Deno.test("readUploadForm refuses a name part over nameMax and accepts one at it", async () => {
  const limits = { ...LIMITS, nameMax: 10 };
  const ok = multipart([namePart("é".repeat(5)), filePart("a")]);
  assert.equal((await readUploadForm(upload(ok), limits)).name, "ééééé");
  const over = multipart([namePart("é".repeat(5) + "x"), filePart("a")]);
  await rejectsWith(readUploadForm(upload(over), limits), 400, /Name part/);
  const defaultCap = multipart([namePart("x".repeat(4097)), filePart("a")]);
  await rejectsWith(
    readUploadForm(upload(defaultCap), { fileMax: 10, bodyMax: 10_000 }),
    400,
    /Name part over 4096/,
  );
});

Deno.test("readUploadForm refuses limits that are not non-negative integers", async () => {
  for (
    const limits of [
      { fileMax: -1, bodyMax: 10 },
      { fileMax: 1, bodyMax: 1.5 },
      { fileMax: 1, bodyMax: 10, nameMax: Number.NaN },
    ]
  ) {
    await assert.rejects(
      readUploadForm(upload(multipart([filePart("a")])), limits),
      RangeError,
    );
  }
});

// Unreadable forms

Deno.test("readUploadForm refuses a wrong or missing content type", async () => {
  const body = multipart([filePart("a")]);
  for (
    const contentType of [
      null,
      "text/plain",
      "application/x-www-form-urlencoded",
      `multipart/mixed; boundary=${BOUNDARY}`,
      `multipart/form-data-x; boundary=${BOUNDARY}`,
      "multipart/form-data",
      "multipart/form-data;",
      "multipart/form-data; boundary=",
      'multipart/form-data; boundary=""',
      `multipart/form-data; boundary=${"x".repeat(71)}`,
      'multipart/form-data; boundary="b0undary "',
      "multipart/form-data; boundary=b0und@ry",
      'multipart/form-data; boundary="b0und\\"ary"',
      'multipart/form-data; boundary="b0undary',
      "multipart/form-data; boundary=b0undary extra",
      `multipart/form-data; boundary=${BOUNDARY}; boundary=${BOUNDARY}`,
      `multipart/form-data; boundary ${BOUNDARY}`,
      `multipart/form-data; charset; boundary=${BOUNDARY}`,
    ]
  ) {
    await rejectsWith(
      readUploadForm(upload(body, { contentType }), LIMITS),
      400,
      /Content type/,
    );
  }
});

Deno.test("readUploadForm refuses a form without a file part", async () => {
  const form = new FormData();
  form.append("name", "x");
  await rejectsWith(readUploadForm(formRequest(form), LIMITS), 400, /No file/);
  const empty = multipart([], { preamble: "nothing" });
  await rejectsWith(readUploadForm(upload(empty), LIMITS), 400, /No file/);
  await rejectsWith(readUploadForm(upload(null), LIMITS), 400);
});

Deno.test("readUploadForm refuses an empty file part", async () => {
  const body = multipart([filePart("")]);
  await rejectsWith(readUploadForm(upload(body), LIMITS), 400, /Empty file/);
});

Deno.test("readUploadForm refuses a duplicate file or name part", async () => {
  const files = new FormData();
  files.append("file", new Blob(["a"]));
  files.append("file", new Blob(["b"]));
  await rejectsWith(
    readUploadForm(formRequest(files), LIMITS),
    400,
    /Duplicate file/,
  );
  const names = multipart([namePart("a"), filePart("x"), namePart("b")]);
  await rejectsWith(
    readUploadForm(upload(names), LIMITS),
    400,
    /Duplicate name/,
  );
});

Deno.test("readUploadForm refuses a truncated body", async () => {
  const body = multipart([filePart("some file bytes"), namePart("n")]);
  const text = new TextDecoder().decode(body);
  const cuts = [
    text.indexOf("some") + 4,
    text.indexOf("\r\n--", text.indexOf("some")) + 2,
    text.indexOf('name="name"'),
    body.length - 2,
    body.length - 1,
    5,
  ];
  for (const cut of cuts) {
    const { stream } = chunked(body.subarray(0, cut), () => 7);
    await rejectsWith(
      readUploadForm(upload(stream), LIMITS),
      400,
      /ended before/,
    );
  }
});

Deno.test("readUploadForm refuses missing or invalid part headers", async () => {
  const headers = [
    "",
    "Content-Type: image/png",
    'Content-Disposition: attachment; name="file"',
    "Content-Disposition: form-data",
    'Content-Disposition: form-data; filename="a.png"',
    'Content-Disposition: form-data; name="file"; name="file"',
    'Content-Disposition: form-data; name="file\r\nContent-Disposition: form-data; name="file"',
    'Content-Disposition: form-data; name="file"\r\nContent-Disposition: form-data; name="x"',
    'Content-Disposition: form-data; name="file"\r\nno colon here',
    'Content-Disposition: form-data; name="file"\r\n folded: header',
    'Content-Disposition: form-data; name="fi\rle"',
    'Content-Disposition form-data; name="file"',
    'Content-Disposition: form-data; name="file',
  ];
  for (const header of headers) {
    const body = multipart([{ headers: header, data: "abc" }, filePart("ok")]);
    await rejectsWith(
      readUploadForm(upload(body), LIMITS),
      400,
      /headers|Duplicate/,
    );
  }
  const notUtf8 = concat([
    encoder.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="`),
    new Uint8Array([0xff]),
    encoder.encode(`"\r\n\r\nx\r\n`),
    multipart([filePart("a")]),
  ]);
  await rejectsWith(readUploadForm(upload(notUtf8), LIMITS), 400, /headers/);
  const long = multipart([{
    headers: `X-Long: ${"x".repeat(17_000)}`,
    data: "",
  }]);
  await rejectsWith(
    readUploadForm(upload(long), { fileMax: 10, bodyMax: 100_000 }),
    400,
    /too long/,
  );
});

Deno.test("readUploadForm refuses a name part that is not UTF-8", async () => {
  const body = multipart([
    namePart(new Uint8Array([0x61, 0xc3])),
    filePart("a"),
  ]);
  await rejectsWith(readUploadForm(upload(body), LIMITS), 400, /UTF-8/);
});

Deno.test("readUploadForm refuses bytes after a boundary and LF-only lines", async () => {
  const junk = concat([
    encoder.encode(`--${BOUNDARY}x\r\n`),
    multipart([filePart("a")]),
  ]);
  await rejectsWith(readUploadForm(upload(junk), LIMITS), 400, /Boundary/);
  const inFile = multipart([filePart(`a\r\n--${BOUNDARY}x`)]);
  await rejectsWith(readUploadForm(upload(inFile), LIMITS), 400, /Boundary/);
  const lf = encoder.encode(
    `--${BOUNDARY}\nContent-Disposition: form-data; name="file"\n\nabc\n--${BOUNDARY}--`,
  );
  await rejectsWith(readUploadForm(upload(lf), LIMITS), 400);
  const padded = multipart([filePart("a")], { padding: " ".repeat(300) });
  await rejectsWith(readUploadForm(upload(padded), LIMITS), 400, /Padding/);
});

Deno.test("readUploadForm answers a failing or used body as unreadable", async () => {
  let sent = false;
  const failing = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) controller.error(new Error("connection reset"));
      else controller.enqueue(multipart([filePart("a")], { close: false }));
      sent = true;
    },
  });
  await rejectsWith(readUploadForm(upload(failing), LIMITS), 400, /failed/);
  const used = upload(multipart([filePart("a")]));
  await used.arrayBuffer();
  await rejectsWith(readUploadForm(used, LIMITS), 400, /already read/);
});

// Property

Deno.test("readUploadForm returns the file exactly, whatever its bytes and chunking", async () => {
  const boundaryChars = "abcXYZ019'()+_,-./:=?";
  const boundary = fc.string({
    unit: fc.constantFrom(...boundaryChars),
    minLength: 1,
    maxLength: 70,
  });
  const scenario = boundary.chain((b) => {
    const fragments = [
      "\r",
      "\n",
      "\r\n",
      "-",
      "--",
      "\r\n--",
      `--${b}`,
      `\r\n--${b.slice(0, -1)}`,
      `\r\n--${b}`.slice(0, 5),
    ].map((text) => encoder.encode(text));
    const delimiter = encoder.encode(`\r\n--${b}`);
    const piece = fc.oneof(
      fc.uint8Array({ maxLength: 40 }),
      fc.constantFrom(...fragments),
      fc.integer({ min: 1, max: 3000 }).map((n) => crowded(b, n)),
    );
    return fc.record({
      boundary: fc.constant(b),
      // A sender picks a boundary that its data does not contain.
      file: fc.array(piece, { minLength: 1, maxLength: 40 })
        .map(concat)
        .filter((bytes) =>
          bytes.length > 0 &&
          firstIndex(concat([bytes, delimiter]), delimiter) ===
            bytes.length
        ),
      name: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
      nameFirst: fc.boolean(),
      preamble: fc.option(fc.constantFrom("", "pre", `x--${b}`), {
        nil: undefined,
      }),
      seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
      maxChunk: fc.oneof(
        fc.integer({ min: 1, max: 80 }),
        fc.integer({ min: 1000, max: 20_000 }),
      ),
      declare: fc.boolean(),
    });
  });
  await fc.assert(
    fc.asyncProperty(scenario, async (s) => {
      const parts = [filePart(s.file)];
      if (s.name !== undefined) {
        if (s.nameFirst) parts.unshift(namePart(s.name));
        else parts.push(namePart(s.name));
      }
      const body = multipart(parts, {
        boundary: s.boundary,
        ...(s.preamble === undefined ? {} : { preamble: s.preamble }),
      });
      const { stream } = chunked(body, randomSizes(s.seed, s.maxChunk));
      const request = upload(stream, {
        contentType: `multipart/form-data; boundary="${s.boundary}"`,
        ...(s.declare ? { length: body.length } : {}),
      });
      const form = await readUploadForm(request, {
        fileMax: 200_000,
        bodyMax: 300_000,
      });
      assert.deepEqual(form.file, s.file);
      assert.equal(form.name, s.name);
    }),
    { numRuns: 300 },
  );
});
