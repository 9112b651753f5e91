/**
 * `@inpage/editor/redis` against a real redis-server on a loopback port:
 * the store tests every RATE_LIMIT passes (tests/support/kv_store_cases.ts),
 * then what is Redis's own: the key TTLs, the codec, and a server that goes
 * away or stops answering (503 `unavailable`, never a 500, never a request
 * served without its rate check, and service again once it is back).
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { createClient } from "@redis/client";
import { createRouter } from "../../mod.ts";
import { openRedisKv } from "../../lib/kv/redis.ts";
import { decodeValue, encodeKey, encodeValue } from "../../lib/kv/kv_codec.ts";
import { COMMIT_SCRIPT, READ_SCRIPT } from "../../lib/kv/redis_scripts.ts";
import type { KvKey } from "../../lib/http/env.ts";
import { kvStoreCases } from "../support/kv_store_cases.ts";
import { type RedisServer, startRedis } from "../support/redis_server.ts";
import {
  cookieFrom,
  fastHash,
  from,
  ORIGIN,
  postJson,
} from "../support/helpers.ts";

/** The milliseconds an entry has left, read with a client of the test's own. */
async function ttlOf(server: RedisServer, key: KvKey) {
  const client = createClient({ url: server.url });
  await client.connect();
  try {
    const ttl = Number(
      await client.sendCommand(["PTTL", `{inpage}:k:${encodeKey(key)}`]),
    );
    return ttl >= 0 ? ttl : undefined;
  } finally {
    client.destroy();
  }
}

kvStoreCases("Redis", async () => {
  const server = await startRedis();
  const handles = [openRedisKv({ url: server.url, onConnectionChange() {} })];
  return {
    kv: handles[0]!,
    expiresExactly: true,
    ttlOf: (key) => ttlOf(server, key),
    another() {
      const other = openRedisKv({ url: server.url, onConnectionChange() {} });
      handles.push(other);
      return Promise.resolve(other);
    },
    async [Symbol.asyncDispose]() {
      for (const handle of handles) await handle.close();
      await server.stop();
    },
  };
});

const router = createRouter({ locales: ["en", "fr"] });
const KEY = "redis outage key";

async function send(request: Request, env: object, client = "192.0.2.60") {
  const started = performance.now();
  const response = await router.handle(request, env, from(client));
  return {
    status: response.status,
    body: await response.json(),
    ms: performance.now() - started,
    response,
  };
}

Deno.test("a Redis that goes away answers 503 unavailable on every route but logout, within the timeout, then serves again once it is back", async () => {
  await using server = await startRedis();
  const told: string[] = [];
  await using kv = openRedisKv({
    url: server.url,
    timeoutMs: 500,
    onConnectionChange: (message) => told.push(message),
  });
  const logs: string[] = [];
  const env = {
    RATE_LIMIT: kv,
    EDITOR_KEY_HASH: await fastHash(KEY),
    EDITOR_LOG: (line: string) => logs.push(line),
  };
  const login = await send(postJson("/api/auth", { key: KEY }), env);
  assert.equal(login.status, 200);
  const cookie = cookieFrom(login.response);
  const session = () =>
    new Request(`${ORIGIN}/api/session`, { headers: { cookie } });
  assert.equal((await send(session(), env)).status, 200);

  await server.stop();
  for (
    const request of [
      postJson("/api/auth", { key: KEY }),
      postJson("/api/auth", { key: "wrong" }),
      session(),
      new Request(`${ORIGIN}/api/content?path=src/content/pages/en/home.json`, {
        headers: { cookie },
      }),
    ]
  ) {
    const answer = await send(request, env);
    assert.deepEqual([answer.status, answer.body], [503, {
      error: "unavailable",
    }]);
    assert.ok(answer.ms < 1_500, `answered in ${answer.ms} ms`);
  }
  const logout = await send(
    new Request(`${ORIGIN}/api/auth`, {
      method: "DELETE",
      headers: { cookie },
    }),
    env,
  );
  // DELETE /api/auth always answers 200 and clears the cookies (the
  // reference), here without reaching the session's entry.
  assert.equal(logout.status, 200);
  assert.equal(logout.response.headers.getSetCookie().length, 2);
  assert.ok(
    logs.some((line) => JSON.parse(line).status === 503),
    "the 503s are logged",
  );
  assert.ok(!logs.some((line) => JSON.parse(line).status === 500));
  assert.match(told[0] ?? "", /^@inpage\/editor: Redis unavailable: /);
  assert.ok(!told.join("\n").includes(server.url), "the URL is never told");

  await server.start();
  let again = await send(session(), env);
  for (let i = 0; again.status === 503 && i < 40; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    again = await send(session(), env);
  }
  // The server came back empty: the session is gone, and a login works.
  assert.equal(again.status, 401);
  assert.equal(
    (await send(postJson("/api/auth", { key: KEY }), env)).status,
    200,
  );
  assert.equal(told.at(-1), "@inpage/editor: Redis connected again");
});

Deno.test("a Redis that stops answering fails each call after the timeout: 503, never an open budget", async () => {
  await using server = await startRedis();
  await using kv = openRedisKv({
    url: server.url,
    timeoutMs: 400,
    onConnectionChange() {},
  });
  const env = {
    RATE_LIMIT: kv,
    EDITOR_KEY_HASH: await fastHash(KEY),
    EDITOR_LOG: () => {},
  };
  assert.equal(
    (await send(postJson("/api/auth", { key: "wrong" }), env)).status,
    401,
  );
  server.pause();
  try {
    const answers = await Promise.all(
      Array.from(
        { length: 6 },
        () => send(postJson("/api/auth", { key: "wrong" }), env),
      ),
    );
    for (const answer of answers) {
      assert.deepEqual([answer.status, answer.body], [503, {
        error: "unavailable",
      }]);
      assert.ok(answer.ms < 1_500, `answered in ${answer.ms} ms`);
    }
  } finally {
    server.resume();
  }
  // The budget counted only what was answered: 4 of 5 attempts remain.
  const after = [];
  for (let i = 0; i < 5; i++) {
    after.push(
      (await send(postJson("/api/auth", { key: "wrong" }), env)).status,
    );
  }
  assert.deepEqual(after, [401, 401, 401, 401, 429]);
});

Deno.test("a Redis that is not there at the first request answers 503 unavailable", async () => {
  const server = await startRedis();
  await server.stop();
  await using kv = openRedisKv({
    url: server.url,
    timeoutMs: 300,
    onConnectionChange() {},
  });
  const answer = await send(postJson("/api/auth", { key: KEY }), {
    RATE_LIMIT: kv,
    EDITOR_KEY_HASH: await fastHash(KEY),
    EDITOR_LOG: () => {},
  });
  assert.deepEqual([answer.status, answer.body], [503, {
    error: "unavailable",
  }]);
});

Deno.test("openRedisKv refuses a URL that is not redis: or rediss:, and a prefix outside its characters", () => {
  for (const url of ["", "http://127.0.0.1:6379", "127.0.0.1:6379"]) {
    assert.throws(() => openRedisKv(url), TypeError, url);
  }
  assert.throws(
    () => openRedisKv({ url: "redis://127.0.0.1", prefix: "a}b" }),
    TypeError,
  );
});

Deno.test("values keep what Deno KV keeps: JSON, bytes, big integers and dates; other values are refused", () => {
  const value = {
    timestamps: [1, 2.5, -3],
    nested: { text: "é\u0000", yes: true, none: null },
    bytes: new Uint8Array([0, 255, 7]),
    big: 2n ** 80n,
    at: new Date(Date.UTC(2026, 10, 27)),
  };
  assert.deepEqual(decodeValue(encodeValue(value)), value);
  assert.deepEqual(decodeValue(encodeValue([new Uint8Array(200_000)])), [
    new Uint8Array(200_000),
  ]);
  for (
    const bad of [undefined, () => 1, Symbol("s"), new Map(), {
      a: undefined,
    }, { "\u0000u8": "AA==" }]
  ) {
    assert.throws(() => encodeValue(bad), TypeError);
  }
});

Deno.test("a key's string begins with each of its prefixes' strings, and parts of different types differ", () => {
  const key: KvKey = ["editor", "session", 3, 4n, false, new Uint8Array([10])];
  for (let length = 0; length < key.length; length++) {
    assert.ok(encodeKey(key).startsWith(encodeKey(key.slice(0, length))));
  }
  const parts: KvKey = [1, "1", 1n, true, new Uint8Array([1]), 'a"b', "a", ""];
  const strings = parts.map((part) => encodeKey([part]));
  assert.equal(new Set(strings).size, parts.length);
  assert.notEqual(encodeKey(["a", "b"]), encodeKey(["ab"]));
});

Deno.test("the scripts run by their SHA-1 once the server knows them, and again after it forgot them", async () => {
  await using server = await startRedis();
  await using kv = openRedisKv({ url: server.url, onConnectionChange() {} });
  const client = createClient({ url: server.url });
  await client.connect();
  try {
    const sha = (script: string) =>
      createHash("sha1").update(script).digest("hex");
    const known = async () =>
      await client.sendCommand([
        "SCRIPT",
        "EXISTS",
        sha(READ_SCRIPT),
        sha(COMMIT_SCRIPT),
      ]);
    assert.deepEqual(await known(), [0, 0]);
    await kv.set(["a"], 1);
    await kv.get(["a"]);
    assert.deepEqual(await known(), [1, 1]);
    await client.sendCommand(["SCRIPT", "FLUSH"]);
    assert.equal((await kv.get(["a"])).value, 1);
    assert.deepEqual(await known(), [1, 0]);
  } finally {
    client.destroy();
  }
});
