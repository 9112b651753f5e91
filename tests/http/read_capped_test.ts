import assert from "node:assert/strict";
import {
  BodyIdleError,
  BodyTooLargeError,
  BodyUnreadableError,
  declaredLength,
  readCapped,
} from "../../lib/http/read_capped.ts";

/** A stream of the given chunks that records pulls and cancellation. */
function recordedStream(chunks: Uint8Array[], endless = false) {
  const record = { pulls: 0, cancelled: undefined as unknown };
  let index = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      record.pulls++;
      const chunk = chunks[index++ % chunks.length];
      if (chunk === undefined || (!endless && index > chunks.length)) {
        controller.close();
      } else {
        controller.enqueue(chunk.slice());
      }
    },
    cancel(reason) {
      record.cancelled = reason;
    },
  }, { highWaterMark: 0 });
  return { stream, record };
}

function post(body: BodyInit | null, headers: HeadersInit = {}): Request {
  return new Request("http://localhost/api/save", {
    method: "POST",
    body,
    headers,
  });
}

Deno.test("readCapped reads a null body as no bytes", async () => {
  const bytes = await readCapped(null, 10);
  assert.equal(bytes.byteLength, 0);
});

Deno.test("readCapped returns a body of exactly the cap", async () => {
  const bytes = await readCapped(post("x".repeat(2000)).body, 2000);
  assert.equal(bytes.byteLength, 2000);
  assert.equal(new TextDecoder().decode(bytes), "x".repeat(2000));
});

Deno.test("readCapped joins many small chunks in order", async () => {
  const chunks = Array.from(
    { length: 300 },
    (_, i) => new Uint8Array([i & 255, (i >> 8) & 255, 7]),
  );
  const { stream } = recordedStream(chunks);
  const bytes = await readCapped(stream, 900);
  assert.equal(bytes.byteLength, 900);
  assert.deepEqual(bytes.subarray(0, 6), new Uint8Array([0, 0, 7, 1, 0, 7]));
  assert.deepEqual(
    bytes.subarray(897),
    new Uint8Array([299 & 255, 299 >> 8, 7]),
  );
  assert.equal(bytes.buffer.byteLength, 900);
});

Deno.test("readCapped refuses one byte over the cap", async () => {
  await assert.rejects(
    readCapped(post("x".repeat(2001)).body, 2000),
    (error: unknown) => {
      assert.ok(error instanceof BodyTooLargeError);
      assert.equal(error.max, 2000);
      assert.equal(error.name, "BodyTooLargeError");
      return true;
    },
  );
});

Deno.test("readCapped stops an endless body at the cap and cancels it", async () => {
  const { stream, record } = recordedStream([new Uint8Array(100)], true);
  await assert.rejects(readCapped(stream, 1000), BodyTooLargeError);
  assert.equal(record.pulls, 11);
  assert.ok(record.cancelled instanceof BodyTooLargeError);
});

Deno.test("readCapped answers a failing stream as unreadable", async () => {
  let sent = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) controller.error(new Error("connection reset"));
      else controller.enqueue(new Uint8Array(10));
      sent = true;
    },
  });
  await assert.rejects(readCapped(stream, 1000), (error: unknown) => {
    assert.ok(error instanceof BodyUnreadableError);
    assert.ok(error.cause instanceof Error);
    return true;
  });
});

Deno.test("readCapped answers a body already read as unreadable", async () => {
  const request = post("{}");
  await request.text();
  await assert.rejects(readCapped(request.body, 1000), BodyUnreadableError);
});

Deno.test("readCapped answers a chunk that is not bytes as unreadable", async () => {
  const stream = new ReadableStream({
    start(controller) {
      controller.enqueue("text");
      controller.close();
    },
  }) as unknown as ReadableStream<Uint8Array>;
  await assert.rejects(readCapped(stream, 1000), BodyUnreadableError);
});

Deno.test("readCapped refuses a cap that is not a non-negative integer", async () => {
  for (const max of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
    await assert.rejects(readCapped(null, max), RangeError);
  }
});

Deno.test("readCapped with a cap of zero accepts only an empty body", async () => {
  assert.equal((await readCapped(post("").body, 0)).byteLength, 0);
  await assert.rejects(readCapped(post("x").body, 0), BodyTooLargeError);
});

Deno.test("declaredLength parses digits only", () => {
  const cases: [string | undefined, number | undefined][] = [
    [undefined, undefined],
    ["0", 0],
    ["1200", 1200],
    ["007", 7],
    [" 42 ", 42], // Headers trims surrounding whitespace
    ["", undefined],
    ["-1", undefined],
    ["+5", undefined],
    ["1.5", undefined],
    ["1e3", undefined],
    ["0x10", undefined],
    ["5, 5", undefined],
    ["12a", undefined],
    ["\u00b2", undefined], // superscript two
    ["9007199254740991", Number.MAX_SAFE_INTEGER],
    ["9007199254740993", Number.POSITIVE_INFINITY],
    ["9".repeat(400), Number.POSITIVE_INFINITY],
  ];
  for (const [value, expected] of cases) {
    const headers: Record<string, string> = value === undefined
      ? {}
      : { "content-length": value };
    const request = new Request("http://localhost/", { headers });
    assert.equal(declaredLength(request), expected, `for ${value}`);
  }
});

Deno.test("readCapped cuts off a body that stops arriving for idleMs, and cancels it", async () => {
  let cancelled: unknown;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array([1, 2, 3]));
    },
    cancel(reason) {
      cancelled = reason;
    },
  });
  const started = performance.now();
  await assert.rejects(readCapped(stream, 100, { idleMs: 50 }), BodyIdleError);
  assert.ok(performance.now() - started >= 45);
  assert.ok(cancelled instanceof BodyIdleError);
});

Deno.test("readCapped waits as long as a body keeps arriving within idleMs", async () => {
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (sent++ === 6) controller.close();
      else controller.enqueue(new Uint8Array([sent]));
    },
  }, { highWaterMark: 0 });
  const bytes = await readCapped(stream, 100, { idleMs: 200 });
  assert.deepEqual(bytes, new Uint8Array([1, 2, 3, 4, 5, 6]));
});
