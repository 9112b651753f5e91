/**
 * The upload form reader on any byte sequence in any chunking: it answers a
 * form or its documented error (a `FormError`, `malformed` for an unreadable
 * form, `too_large` for a body or file over its cap: 400 and 413), never
 * anything else, and never holds more than twice the file cap.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { FormError, readUploadForm } from "../../lib/http/multipart.ts";
import { propertyRuns } from "../support/runs.ts";

const BOUNDARY = "b0undary";
const FILE_MAX = 2_000;
const BODY_MAX = 3_000;
const encoder = new TextEncoder();

/** Bytes that look like a form, then anything. */
const bodies = fc.oneof(
  fc.uint8Array({ maxLength: 4_000 }),
  fc.tuple(
    fc.array(
      fc.constantFrom(
        `--${BOUNDARY}\r\n`,
        `--${BOUNDARY}--\r\n`,
        `\r\n--${BOUNDARY}`,
        'Content-Disposition: form-data; name="file"; filename="a.png"\r\n',
        'Content-Disposition: form-data; name="name"\r\n',
        'Content-Disposition: form-data; name="file"\r\n',
        "Content-Type: image/png\r\n",
        "\r\n",
        "--",
        "x".repeat(1_500),
        "\u00e9",
      ),
      { maxLength: 12 },
    ),
    fc.uint8Array({ maxLength: 600 }),
  ).map(([pieces, tail]) => {
    const head = encoder.encode(pieces.join(""));
    const out = new Uint8Array(head.byteLength + tail.byteLength);
    out.set(head);
    out.set(tail, head.byteLength);
    return out;
  }),
);

function stream(
  bytes: Uint8Array,
  sizes: number[],
  failAt: number | undefined,
): ReadableStream<Uint8Array> {
  let at = 0;
  let turn = 0;
  return new ReadableStream({
    pull(controller) {
      if (failAt !== undefined && at >= failAt) {
        controller.error(new Error("connection reset"));
        return;
      }
      if (at >= bytes.byteLength) {
        controller.close();
        return;
      }
      const size = Math.max(1, sizes[turn++ % sizes.length] ?? 1);
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

Deno.test("the upload form reader answers any bytes in any chunks with a form or a documented error", async () => {
  const seen = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(
      bodies,
      fc.array(fc.integer({ min: 1, max: 700 }), {
        minLength: 1,
        maxLength: 8,
      }),
      fc.option(fc.nat({ max: 4_000 }), { nil: undefined }),
      fc.constantFrom(
        `multipart/form-data; boundary=${BOUNDARY}`,
        `multipart/form-data; boundary="${BOUNDARY}"`,
        "multipart/form-data",
        "text/plain",
      ),
      fc.boolean(),
      async (body, sizes, failAt, type, declare) => {
        const request = new Request("https://site.example/api/upload", {
          method: "POST",
          headers: {
            "content-type": type,
            ...(declare ? { "content-length": String(body.byteLength) } : {}),
          },
          body: stream(body, sizes, failAt),
        });
        let outcome: string;
        try {
          const form = await readUploadForm(request, {
            fileMax: FILE_MAX,
            bodyMax: BODY_MAX,
          });
          assert.ok(form.file.byteLength >= 1);
          assert.ok(form.file.byteLength <= FILE_MAX);
          assert.ok(form.file.buffer.byteLength <= 2 * FILE_MAX);
          outcome = "form";
        } catch (error) {
          assert.ok(error instanceof FormError, String(error));
          if (error.code === "too_large") {
            assert.ok(body.byteLength > FILE_MAX, "too large only past a cap");
          }
          outcome = error.code;
        }
        seen.set(outcome, (seen.get(outcome) ?? 0) + 1);
      },
    ),
    { numRuns: propertyRuns(300) },
  );
  assert.ok((seen.get("malformed") ?? 0) > 0, JSON.stringify([...seen]));
});
