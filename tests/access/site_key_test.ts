import assert from "node:assert/strict";
import { constantTimeEqual } from "../../lib/access/constant_time.ts";
import {
  hashKey,
  parseKeyHash,
  verificationsRunning,
  verifyKey,
} from "../../lib/access/site_key.ts";

const corpus = new URL("../../../shared/corpora/argon2/", import.meta.url);

interface Vector {
  t: number;
  m_kib: number;
  p: number;
  password: string;
  salt: string;
  hash_hex: string;
  encoded: string;
  requires_large_ram: boolean;
}

const vectors: Vector[] = JSON.parse(
  await Deno.readTextFile(new URL("argon2id_vectors.json", corpus)),
);

Deno.test("the argon2id reference vectors verify with the package's verifier", async () => {
  assert.equal(vectors.length, 8);
  let verified = 0;
  for (const vector of vectors) {
    const parsed = parseKeyHash(vector.encoded);
    assert.ok(parsed, vector.encoded);
    assert.equal(parsed.memory, vector.m_kib);
    assert.equal(parsed.iterations, vector.t);
    assert.equal(parsed.parallelism, vector.p);
    assert.equal(new TextDecoder().decode(parsed.salt), vector.salt);
    assert.equal(
      [...parsed.hash].map((b) => b.toString(16).padStart(2, "0")).join(""),
      vector.hash_hex,
    );
    if (vector.m_kib > 262_144) continue;
    assert.equal(
      await verifyKey(vector.password, vector.encoded),
      true,
      vector.encoded,
    );
    assert.equal(await verifyKey(vector.password + "x", vector.encoded), false);
    verified++;
  }
  assert.ok(verified >= 6, `verified ${verified} vectors`);
});

Deno.test("the reference negative cases are refused", async () => {
  const cases: { encoded: string; password: string }[] = JSON.parse(
    await Deno.readTextFile(
      new URL("invalid_or_mismatch_verify_cases.json", corpus),
    ),
  );
  assert.ok(cases.length >= 8);
  for (const item of cases) {
    assert.equal(
      await verifyKey(item.password, item.encoded),
      false,
      item.encoded,
    );
  }
});

Deno.test("parseKeyHash refuses other variants, versions, limits and broken strings", () => {
  const good =
    "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc";
  assert.ok(parseKeyHash(good));
  assert.ok(
    parseKeyHash(` ${good}\n`),
    "surrounding whitespace from an env file is tolerated",
  );
  for (
    const bad of [
      undefined,
      "",
      good.replace("argon2id", "argon2i"),
      good.replace("argon2id", "argon2d"),
      good.replace("v=19", "v=16"),
      good.replace("$v=19", ""),
      good.replace("m=65536", "m=1048577"),
      good.replace("m=65536", "m=7"),
      good.replace("t=2", "t=21"),
      good.replace("t=2", "t=0"),
      good.replace("p=1", "p=17"),
      good.replace("p=1", "p=0"),
      good.replace("c29tZXNhbHQ", "c29tZX"),
      good.replace("c29tZXNhbHQ", ""),
      good.slice(0, -30),
      good + "$extra",
      good.replace("m=65536,t=2,p=1", "t=2,m=65536,p=1"),
      good.replace("c29tZXNhbHQ", "c29t*XNhbHQ"),
    ]
  ) {
    assert.equal(parseKeyHash(bad), undefined, String(bad));
  }
});

Deno.test("hashKey makes a PHC string with the default parameters that verifies", async () => {
  const phc = await hashKey("a site key");
  assert.match(
    phc,
    /^\$argon2id\$v=19\$m=65536,t=3,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/,
  );
  assert.equal(await verifyKey("a site key", phc), true);
  assert.equal(await verifyKey("a site kez", phc), false);
  assert.notEqual(await hashKey("a site key"), phc, "a fresh salt each time");
});

Deno.test("keys are compared after NFC normalisation", async () => {
  const phc = await hashKey("caf\u00e9", {
    memory: 64,
    iterations: 1,
    parallelism: 1,
  });
  assert.equal(await verifyKey("cafe\u0301", phc), true);
});

Deno.test("hashKey refuses parameters over the limits", async () => {
  await assert.rejects(
    () => hashKey("k", { memory: 64, iterations: 21, parallelism: 1 }),
    RangeError,
  );
  await assert.rejects(
    () => hashKey("k", { memory: 2 ** 21, iterations: 1, parallelism: 1 }),
    RangeError,
  );
  await assert.rejects(
    () => hashKey("k", { memory: 64, iterations: 1, parallelism: 17 }),
    RangeError,
  );
});

Deno.test("constantTimeEqual compares whole byte strings", () => {
  assert.equal(
    constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3])),
    true,
  );
  assert.equal(
    constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4])),
    false,
  );
  assert.equal(
    constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2])),
    false,
  );
  assert.equal(constantTimeEqual(new Uint8Array([]), new Uint8Array([])), true);
});

Deno.test("at most two key verifications run at once, off the main thread", async () => {
  const phc = await hashKey("k", {
    memory: 16_384,
    iterations: 2,
    parallelism: 1,
  });
  const seen: number[] = [];
  let ticks = 0;
  const sampler = setInterval(() => {
    ticks++;
    seen.push(verificationsRunning());
  }, 1);
  try {
    const results = await Promise.all(
      Array.from({ length: 6 }, () => verifyKey("k", phc)),
    );
    assert.deepEqual(results, [true, true, true, true, true, true]);
  } finally {
    clearInterval(sampler);
  }
  assert.equal(Math.max(...seen), 2, "two at once, never more");
  assert.ok(ticks > 6, `the main thread kept running (${ticks} ticks)`);
  assert.equal(verificationsRunning(), 0);
});
