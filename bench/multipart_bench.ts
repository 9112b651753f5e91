/**
 * Reading a 20,000,000-byte upload through `readUploadForm`, streamed in
 * 64 KiB chunks, against a SHA-256 of the same bytes.
 *
 * `deno bench -A bench/multipart_bench.ts` times it. Run directly, with
 * `deno run -A bench/multipart_bench.ts` (Linux), it measures the peak growth
 * of the resident set while one upload is read, as a multiple of the file's
 * size, once per fresh process, five times with and five times without a
 * declared `content-length`.
 *
 * @module
 */

import { readUploadForm } from "../lib/http/multipart.ts";

const FILE_SIZE = 20_000_000;
const CHUNK = 64 * 1024;
const LIMITS = { fileMax: FILE_SIZE, bodyMax: FILE_SIZE + 65_536 };
const BOUNDARY = "----WebKitFormBoundary7MA4YWxkTrZu0gW";

/** Random bytes, as an image's compressed data would look. */
function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  for (let offset = 0; offset < length; offset += 65_536) {
    crypto.getRandomValues(bytes.subarray(offset, offset + 65_536));
  }
  return bytes;
}

/** The whole multipart body around a file, as a browser would send it. */
function uploadBody(file: Uint8Array): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const head = encoder.encode(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="name"\r\n\r\n` +
      `Sunset over the bay\r\n--${BOUNDARY}\r\n` +
      'Content-Disposition: form-data; name="file"; filename="blob"\r\n' +
      "Content-Type: image/webp\r\n\r\n",
  );
  const tail = encoder.encode(`\r\n--${BOUNDARY}--\r\n`);
  const body = new Uint8Array(head.length + file.length + tail.length);
  body.set(head);
  body.set(file, head.length);
  body.set(tail, head.length + file.length);
  return body;
}

/** An upload request streaming `body` in 64 KiB chunks (views, no copies). */
function uploadRequest(body: Uint8Array, declare: boolean): Request {
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= body.length) return controller.close();
      controller.enqueue(body.subarray(offset, offset + CHUNK));
      offset += CHUNK;
    },
  }, { highWaterMark: 0 });
  const headers = new Headers({
    "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
  });
  if (declare) headers.set("content-length", String(body.length));
  return new Request("http://localhost/api/upload", {
    method: "POST",
    headers,
    body: stream,
  });
}

const file = randomBytes(FILE_SIZE);
const body = uploadBody(file);
// The worst bytes known for the search: runs of CR, then runs of the
// boundary's last-but-one byte, each as long as the delimiter but one.
const delimiter = new TextEncoder().encode(`\r\n--${BOUNDARY}`);
const hostileFile = new Uint8Array(FILE_SIZE).map((_, i) =>
  Math.floor(i / (delimiter.length - 1)) % 2 === 0
    ? 13
    : delimiter[delimiter.length - 2]!
);
const hostileBody = uploadBody(hostileFile);

async function readOnce(source: Uint8Array, declare: boolean): Promise<void> {
  const form = await readUploadForm(uploadRequest(source, declare), LIMITS);
  if (form.file.length !== FILE_SIZE) throw new Error("Wrong file length");
}

Deno.bench({
  name: "SHA-256 of the 20 MB file",
  group: "20 MB upload",
  baseline: true,
  async fn() {
    await crypto.subtle.digest("SHA-256", file);
  },
});

Deno.bench({
  name: "readUploadForm, content-length declared",
  group: "20 MB upload",
  async fn() {
    await readOnce(body, true);
  },
});

Deno.bench({
  name: "readUploadForm, no content-length",
  group: "20 MB upload",
  async fn() {
    await readOnce(body, false);
  },
});

Deno.bench({
  name: "readUploadForm, file crowded with false boundary starts",
  group: "20 MB upload",
  async fn() {
    await readOnce(hostileBody, true);
  },
});

/** Resident set and its high-water mark, in bytes, from `/proc`. */
function residentSet(): { now: number; peak: number } {
  const status = Deno.readTextFileSync("/proc/self/status");
  const field = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1]) *
    1024;
  return { now: field("VmRSS"), peak: field("VmHWM") };
}

/**
 * Peak resident-set growth, in bytes, while reading one upload, then while
 * also hashing the file as the upload route does. The kernel's high-water
 * mark is reset first (`/proc/self/clear_refs`), so that a transient peak
 * between two samples still counts.
 */
async function peakGrowth(
  declare: boolean,
): Promise<{ read: number; withDigest: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  Deno.writeTextFileSync("/proc/self/clear_refs", "5");
  const before = residentSet().now;
  const form = await readUploadForm(uploadRequest(body, declare), LIMITS);
  const read = residentSet().peak - before;
  const digest = await crypto.subtle.digest("SHA-256", form.file);
  if (digest.byteLength !== 32) throw new Error("Wrong digest");
  return { read, withDigest: residentSet().peak - before };
}

if (import.meta.main) {
  const mode = Deno.args[0];
  if (mode === "declared" || mode === "streamed") {
    // One measurement per process: a second one would reuse freed pages.
    console.log(JSON.stringify(await peakGrowth(mode === "declared")));
  } else {
    const multiple = (bytes: number) => (bytes / FILE_SIZE).toFixed(2);
    for (const child of ["declared", "streamed"]) {
      const read: string[] = [];
      const withDigest: string[] = [];
      for (let run = 0; run < 5; run++) {
        const output = await new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "-A",
            "--v8-flags=--expose-gc",
            new URL(import.meta.url).pathname,
            child,
          ],
          stderr: "inherit",
        }).output();
        const growth = JSON.parse(new TextDecoder().decode(output.stdout));
        read.push(multiple(growth.read));
        withDigest.push(multiple(growth.withDigest));
      }
      console.log(
        `Peak RSS growth / 20 MB, ${child}: reading ${read.join(" ")}; ` +
          `reading then SHA-256 ${withDigest.join(" ")}`,
      );
    }
  }
}
