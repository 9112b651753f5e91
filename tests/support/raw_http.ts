/**
 * A raw HTTP/1.1 exchange over TCP, for requests that `fetch` would normalise
 * or refuse: a target written as is (`//host`, `/\\host`, absolute-form), any
 * `Host`, hop-by-hop headers, or a body that stops arriving.
 *
 * @module
 */

/** A raw HTTP/1.1 exchange over TCP: the request as written, the answer read to the end. */
export async function rawExchange(
  port: number,
  head: string,
): Promise<{ status: number; headers: Headers; body: string; raw: string }> {
  const connection = await Deno.connect({ hostname: "127.0.0.1", port });
  await connection.write(new TextEncoder().encode(head));
  let raw = "";
  const decoder = new TextDecoder();
  const buffer = new Uint8Array(65_536);
  const deadline = setTimeout(() => connection.close(), 10_000);
  try {
    // Read until the answer is whole (the server may keep the connection).
    while (!complete(raw)) {
      const read = await connection.read(buffer).catch(() => null);
      if (read === null) break;
      raw += decoder.decode(buffer.subarray(0, read), { stream: true });
    }
  } finally {
    clearTimeout(deadline);
    try {
      connection.close();
    } catch {
      // Closed by the deadline.
    }
  }
  const [top = "", ...rest] = raw.split("\r\n\r\n");
  const [statusLine = "", ...lines] = top.split("\r\n");
  const headers = new Headers();
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) {
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    }
  }
  let body = rest.join("\r\n\r\n");
  if (headers.get("transfer-encoding") === "chunked") {
    let out = "";
    let at = 0;
    for (;;) {
      const end = body.indexOf("\r\n", at);
      const size = parseInt(body.slice(at, end), 16);
      if (!(size > 0)) break;
      out += body.slice(end + 2, end + 2 + size);
      at = end + 2 + size + 2;
    }
    body = out;
  }
  return { status: Number(statusLine.split(" ")[1]), headers, body, raw };
}

/** Whether a raw answer is whole: its head, then its length or last chunk. */
function complete(raw: string): boolean {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) return false;
  const head = raw.slice(0, end).toLowerCase();
  const body = new TextEncoder().encode(raw.slice(end + 4));
  const length = /\r\ncontent-length: *(\d+)/.exec(head)?.[1];
  if (length !== undefined) return body.byteLength >= Number(length);
  if (/\r\ntransfer-encoding: *chunked/.test(head)) {
    return raw.endsWith("\r\n0\r\n\r\n");
  }
  return /^http\/1\.1 (1\d\d|204|304)/.test(head);
}
