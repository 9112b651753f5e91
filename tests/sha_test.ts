/**
 * The digests of `lib/digest.ts` before it loads `node:crypto` (those of
 * `@noble/hashes`) against `node:crypto`: the standard's vectors, every
 * length around the block and padding edges, and any bytes split anywhere;
 * then the same answers after it loads `node:crypto` (the last test: the
 * tests of a file run in order).
 */
import assert from "node:assert/strict";
import { createHash, createHmac } from "node:crypto";
import fc from "fast-check";
import * as digest from "../lib/digest.ts";

const { hmacSha256Hex, sha1Hex, sha256Hex } = digest;
import { propertyRuns } from "./support/runs.ts";

const text = new TextEncoder();
const nodeHex = (algorithm: string, parts: Uint8Array[]) => {
  const hash = createHash(algorithm);
  for (const part of parts) hash.update(part);
  return hash.digest("hex");
};

Deno.test("the FIPS 180-4 and RFC 4231 vectors", () => {
  const abc = text.encode("abc");
  const long = text.encode(
    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
  );
  assert.equal(
    sha256Hex(abc),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
  assert.equal(
    sha256Hex(long),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
  assert.equal(
    sha256Hex(""),
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  );
  assert.equal(sha1Hex(abc), "a9993e364706816aba3e25717850c26c9cd0d89d");
  assert.equal(sha1Hex(long), "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
  assert.equal(sha1Hex(), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  const million = new Uint8Array(1_000_000).fill(0x61);
  assert.equal(
    sha256Hex(million),
    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
  );
  assert.equal(sha1Hex(million), "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
  assert.equal(
    hmacSha256Hex("Jefe", "what do ya want for nothing?"),
    "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
  );
  // RFC 4231 test case 6: a key longer than the block is hashed first.
  assert.equal(
    hmacSha256Hex(
      "\xaa".repeat(131),
      "Test Using Larger Than Block-Size Key - Hash Key First",
    ),
    createHmac("sha256", "\xaa".repeat(131)).update(
      "Test Using Larger Than Block-Size Key - Hash Key First",
    ).digest("hex"),
  );
});

Deno.test("every length from 0 to 300 bytes, around each padding edge", () => {
  const bytes = crypto.getRandomValues(new Uint8Array(300));
  for (let length = 0; length <= 300; length++) {
    const data = bytes.subarray(0, length);
    assert.equal(sha256Hex(data), nodeHex("sha256", [data]), `${length}`);
    assert.equal(sha1Hex(data), nodeHex("sha1", [data]), `${length}`);
  }
});

Deno.test("any bytes split into any parts hash as node:crypto hashes them", () => {
  const parts = fc.array(fc.uint8Array({ maxLength: 200 }), { maxLength: 6 });
  fc.assert(
    fc.property(parts, (chunks) => {
      assert.equal(sha1Hex(...chunks), nodeHex("sha1", chunks));
      const joined = new Uint8Array(
        chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0),
      );
      let at = 0;
      for (const chunk of chunks) {
        joined.set(chunk, at);
        at += chunk.byteLength;
      }
      assert.equal(sha256Hex(joined), nodeHex("sha256", [joined]));
    }),
    { numRuns: propertyRuns(300) },
  );
});

Deno.test("any key and text give node:crypto's HMAC-SHA-256, strings as UTF-8", () => {
  fc.assert(
    fc.property(
      fc.string({ unit: "binary", maxLength: 150 }),
      fc.string({ unit: "binary", maxLength: 150 }),
      (key, message) => {
        assert.equal(
          hmacSha256Hex(key, message),
          createHmac("sha256", key).update(message).digest("hex"),
        );
        assert.equal(
          sha256Hex(message),
          createHash("sha256").update(message).digest("hex"),
        );
      },
    ),
    { numRuns: propertyRuns(300) },
  );
});

Deno.test("lib/digest.ts answers the same before and after it loads node:crypto", async () => {
  const data = crypto.getRandomValues(new Uint8Array(1000));
  const before = [
    digest.sha256Hex(data),
    digest.sha1Hex(data.subarray(0, 10), data.subarray(10)),
    digest.hmacSha256Hex("k", "v"),
  ];
  await digest.useNativeDigest();
  assert.deepEqual(
    [
      digest.sha256Hex(data),
      digest.sha1Hex(data.subarray(0, 10), data.subarray(10)),
      digest.hmacSha256Hex("k", "v"),
    ],
    before,
  );
  assert.equal(before[0], nodeHex("sha256", [data]));
});
