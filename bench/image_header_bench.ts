/**
 * `imageHeader` on 20 MB uploads (every PNG chunk's CRC checked) against a
 * SHA-256 of the same bytes (the cost every upload pays anyway). Budget: at most about twice the digest.
 *
 * Run: `deno bench -A bench/image_header_bench.ts`
 *
 * @module
 */

import { imageHeader } from "../lib/images/image_header.ts";
import { jpegOfSize, pngOfSize } from "../tests/support/image_fixtures.ts";

const SIZE = 20_000_000;

const cases: [string, Uint8Array][] = [
  ["png, one IDAT", pngOfSize(SIZE, 4000, 3000, SIZE)],
  ["png, 8 KiB IDATs", pngOfSize(SIZE, 4000, 3000, 8_192)],
  ["jpeg", jpegOfSize(SIZE)],
];

for (const [name, data] of cases) {
  const info = imageHeader(data); // fails the run if the fixture is wrong
  if (info.width !== 4000 || info.height !== 3000) {
    throw new Error(`${name}: ${info.width}x${info.height}`);
  }
  Deno.bench({
    name: `sha-256 (${name})`,
    group: name,
    baseline: true,
    async fn() {
      await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>);
    },
  });
  Deno.bench({
    name: `imageHeader (${name})`,
    group: name,
    fn() {
      imageHeader(data);
    },
  });
}
