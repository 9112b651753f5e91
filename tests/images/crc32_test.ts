import assert from "node:assert/strict";
import { crc32 as zlibCrc32 } from "node:zlib";
import fc from "fast-check";
import { crc32, tableCrc32 } from "../../lib/images/crc32.ts";

Deno.test("the table-driven CRC-32 agrees with zlib's on any bytes, at every length around its eight-byte step", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
      assert.equal(tableCrc32(bytes), zlibCrc32(bytes) >>> 0);
      assert.equal(crc32(bytes), zlibCrc32(bytes) >>> 0);
    }),
    { numRuns: 500 },
  );
  const big = crypto.getRandomValues(new Uint8Array(65_536));
  for (let length = 0; length < 20; length++) {
    const part = big.subarray(3, 3 + length);
    assert.equal(tableCrc32(part), zlibCrc32(part) >>> 0);
  }
  assert.equal(tableCrc32(big), zlibCrc32(big) >>> 0);
});
