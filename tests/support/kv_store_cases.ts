/**
 * The tests every `RATE_LIMIT` store passes, whatever holds it: the KV
 * semantics the package relies on (versionstamp checks, all-or-nothing
 * commits, expiry), exact rate windows under contention and across two
 * handles, and sessions through the router. tests/access/kv_store_test.ts
 * runs them on Deno KV, tests/kv/redis_kv_test.ts on Redis.
 *
 * @module
 */

import assert from "node:assert/strict";
import { createRouter } from "../../mod.ts";
import type { KvKey, KvStore } from "../../lib/http/env.ts";
import { takeSlot } from "../../lib/access/rate_window.ts";
import { sessionKeys } from "../../lib/access/session.ts";
import {
  cookieFrom,
  fastHash,
  from,
  manualClock,
  ORIGIN,
  postJson,
} from "./helpers.ts";

/** A store under test, and a way to reach the same data from another handle. */
export interface StoreUnderTest extends AsyncDisposable {
  /** The store. */
  kv: KvStore;
  /** Another handle (a second client or connection) on the same data. */
  another(): Promise<KvStore>;
  /**
   * Whether an expired entry is gone at once (Redis), rather than some time
   * after (Deno KV deletes expired entries lazily).
   */
  expiresExactly?: boolean;
  /** The time an entry has left before it expires, when the store tells. */
  ttlOf?: (key: KvKey) => Promise<number | undefined>;
}

const router = createRouter({ locales: ["en", "fr"] });
const KEY = "store cases key";

/** An entry's value and versionstamp (Deno KV adds its key). */
function plain<T>(
  { value, versionstamp }: { value: T; versionstamp: string | null },
) {
  return { value, versionstamp };
}

/** Reads an entry as {@linkcode plain}. */
async function read(kv: KvStore, key: KvKey) {
  return plain(await kv.get(key));
}

async function status(response: Promise<Response>): Promise<number> {
  const answered = await response;
  await answered.body?.cancel();
  return answered.status;
}

/**
 * Registers the store tests, each named after the store.
 *
 * @param name the store's name, as the tests print it
 * @param open opens an empty store
 * @param options `sanitize: false` for a store whose client keeps sockets
 *   or timers open between tests
 */
export function kvStoreCases(
  name: string,
  open: () => Promise<StoreUnderTest>,
  options: { sanitize?: boolean } = {},
): void {
  const test = (title: string, fn: (store: StoreUnderTest) => Promise<void>) =>
    Deno.test({
      name: `${name}: ${title}`,
      sanitizeOps: options.sanitize ?? true,
      sanitizeResources: options.sanitize ?? true,
      async fn() {
        await using store = await open();
        await fn(store);
      },
    });

  test("a commit checks versionstamps and writes all or nothing", async ({ kv }) => {
    assert.deepEqual(await read(kv, ["a"]), {
      value: null,
      versionstamp: null,
    });
    const first = await kv.atomic().check({ key: ["a"], versionstamp: null })
      .set(["a"], { n: 1, at: [1, 2] }).set(["b"], "two").commit();
    assert.ok(first.ok);
    const a = await read(kv, ["a"]);
    assert.deepEqual(a, {
      value: { n: 1, at: [1, 2] },
      versionstamp: first.versionstamp,
    });
    assert.match(a.versionstamp ?? "", /^[0-9a-f]{20}$/);
    assert.deepEqual(await read(kv, ["b"]), {
      value: "two",
      versionstamp: first.versionstamp,
    });
    const stale = await kv.atomic().check({ key: ["a"], versionstamp: null })
      .set(["c"], "never").commit();
    assert.deepEqual(stale, { ok: false });
    assert.deepEqual(await read(kv, ["c"]), {
      value: null,
      versionstamp: null,
    });
    const second = await kv.atomic().check({
      key: ["a"],
      versionstamp: first.versionstamp,
    })
      .check({ key: ["c"], versionstamp: null }).set(["a"], 2).commit();
    assert.ok(second.ok && second.versionstamp > first.versionstamp);
    await kv.delete(["a"]);
    assert.deepEqual(await read(kv, ["a"]), {
      value: null,
      versionstamp: null,
    });
    assert.deepEqual(
      (await kv.getMany?.([["b"], ["a"], ["nothing"]]))?.map(plain),
      [
        { value: "two", versionstamp: first.versionstamp },
        { value: null, versionstamp: null },
        { value: null, versionstamp: null },
      ],
    );
  });

  test("keys of different types never meet, and an entry with expireIn expires", async (store) => {
    const { kv } = store;
    await kv.set(["k", 1], "number");
    await kv.set(["k", "1"], "string");
    await kv.set(["k", 1n], "bigint");
    await kv.set(["k", new Uint8Array([1])], "bytes");
    await kv.set(["k", true], "boolean");
    assert.deepEqual(
      (await Promise.all(
        [1, "1", 1n, new Uint8Array([1]), true].map((part) =>
          kv.get(["k", part])
        ),
      )).map(({ value }) => value),
      ["number", "string", "bigint", "bytes", "boolean"],
    );
    await kv.set(["short"], 1, { expireIn: 300 });
    const ttl = await store.ttlOf?.(["short"]);
    if (ttl !== undefined) assert.ok(ttl > 0 && ttl <= 300, `ttl ${ttl}`);
    if (store.expiresExactly) {
      await new Promise((resolve) => setTimeout(resolve, 1_300));
      assert.deepEqual(await read(kv, ["short"]), {
        value: null,
        versionstamp: null,
      });
    }
  });

  test("the sliding window accepts exactly N in any window and frees one slot at a time", async ({ kv }) => {
    const clock = manualClock(1_000_000);
    const budget = { limit: 3, windowMs: 10_000 };
    const take = () => takeSlot(kv, ["w"], budget, clock.now);
    assert.deepEqual(await take(), { ok: true });
    clock.advance(4_000);
    assert.deepEqual(await take(), { ok: true });
    assert.deepEqual(await take(), { ok: true });
    assert.deepEqual(await take(), { ok: false, retryAfterSeconds: 6 });
    clock.advance(5_999);
    assert.deepEqual(await take(), { ok: false, retryAfterSeconds: 1 });
    clock.advance(1);
    assert.deepEqual(await take(), { ok: true });
    assert.deepEqual(await take(), { ok: false, retryAfterSeconds: 4 });
    clock.advance(10_000);
    for (let i = 0; i < 3; i++) assert.deepEqual(await take(), { ok: true });
  });

  test("a refused request writes nothing to the window", async ({ kv }) => {
    const clock = manualClock(5_000);
    const budget = { limit: 1, windowMs: 1_000 };
    await takeSlot(kv, ["w"], budget, clock.now);
    const before = await read(kv, ["w"]);
    for (let i = 0; i < 5; i++) await takeSlot(kv, ["w"], budget, clock.now);
    const after = await read(kv, ["w"]);
    assert.equal(after.versionstamp, before.versionstamp);
  });

  test("the window entry expires with the window", async (store) => {
    const { kv } = store;
    const budget = { limit: 5, windowMs: 600 };
    await takeSlot(kv, ["w"], budget, Date.now);
    assert.notEqual((await kv.get(["w"])).value, null);
    const ttl = await store.ttlOf?.(["w"]);
    if (ttl !== undefined) assert.ok(ttl > 0 && ttl <= 600, `ttl ${ttl}`);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    if (store.expiresExactly) {
      assert.deepEqual(await read(kv, ["w"]), {
        value: null,
        versionstamp: null,
      });
    }
    // Deno KV's expiry is lazy, but the value is never trusted past the window.
    assert.deepEqual(
      await takeSlot(kv, ["w"], { ...budget, limit: 1 }, Date.now),
      { ok: true },
    );
  });

  test("200 concurrent takers on one window get exactly the budget", async ({ kv }) => {
    const results = await Promise.all(
      Array.from(
        { length: 200 },
        () => takeSlot(kv, ["w"], { limit: 30, windowMs: 60_000 }, Date.now),
      ),
    );
    assert.equal(results.filter((r) => r.ok).length, 30);
  });

  test("two handles on one store hold one budget", async (store) => {
    const other = await store.another();
    const results = await Promise.all(
      Array.from(
        { length: 40 },
        (_, i) =>
          takeSlot(
            i % 2 ? store.kv : other,
            ["w"],
            { limit: 7, windowMs: 60_000 },
            Date.now,
          ),
      ),
    );
    assert.equal(results.filter((r) => r.ok).length, 7);
  });

  test("the auth budget holds across two handles: 5 key checks, then 429 with retry-after", async (store) => {
    const hash = await fastHash(KEY);
    const handles = [store.kv, await store.another()];
    const statuses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        status(router.handle(
          postJson("/api/auth", { key: "wrong" }),
          {
            RATE_LIMIT: handles[i % 2],
            EDITOR_KEY_HASH: hash,
            EDITOR_LOG: () => {},
          },
          from("192.0.2.90"),
        ))),
    );
    assert.equal(statuses.filter((s) => s === 401).length, 5, String(statuses));
    assert.equal(statuses.filter((s) => s === 429).length, 7, String(statuses));
    const late = await router.handle(
      postJson("/api/auth", { key: KEY }),
      { RATE_LIMIT: store.kv, EDITOR_KEY_HASH: hash, EDITOR_LOG: () => {} },
      from("192.0.2.90"),
    );
    await late.body?.cancel();
    assert.equal(late.status, 429);
    assert.match(late.headers.get("retry-after") ?? "", /^[1-9]\d*$/);
  });

  test("a session opened on one handle is valid on the other, ends with logout, a new key hash or its 8 hours", async (store) => {
    const clock = manualClock();
    const hash = await fastHash(KEY);
    const env = (kv: KvStore, extra = {}) => ({
      RATE_LIMIT: kv,
      EDITOR_KEY_HASH: hash,
      EDITOR_CLOCK: clock.now,
      EDITOR_LOG: () => {},
      ...extra,
    });
    const other = await store.another();
    const session = (kv: KvStore, cookie: string, extra = {}) =>
      status(router.handle(
        new Request(`${ORIGIN}/api/session`, { headers: { cookie } }),
        env(kv, extra),
        from("192.0.2.91"),
      ));
    const login = await router.handle(
      postJson("/api/auth", { key: KEY }),
      env(store.kv),
      from("192.0.2.91"),
    );
    await login.body?.cancel();
    assert.equal(login.status, 200);
    const cookie = cookieFrom(login);
    assert.equal(await session(other, cookie), 200);
    assert.equal(await session(store.kv, cookie), 200);
    assert.equal(
      await session(other, cookie, {
        EDITOR_KEY_HASH: await fastHash("a new key"),
      }),
      401,
    );
    const keys = sessionKeys(
      new Request(`${ORIGIN}/api/session`, { headers: { cookie } }),
      { EDITOR_KEY_HASH: hash },
    );
    if (store.ttlOf) {
      const ttl = await store.ttlOf(keys[0]!);
      assert.ok(
        ttl !== undefined && ttl > 28_790_000 && ttl <= 28_800_000,
        `ttl ${ttl}`,
      );
    }
    clock.advance(28_800_000);
    assert.equal(await session(store.kv, cookie), 401, "expired at 8 hours");
    clock.advance(-1);
    assert.equal(await session(store.kv, cookie), 200);
    const logout = await router.handle(
      new Request(`${ORIGIN}/api/auth`, {
        method: "DELETE",
        headers: { cookie },
      }),
      env(other),
      from("192.0.2.91"),
    );
    await logout.body?.cancel();
    assert.equal(logout.status, 200);
    assert.equal(await session(store.kv, cookie), 401);
    assert.deepEqual(await read(store.kv, keys[0]!), {
      value: null,
      versionstamp: null,
    });
  });
}
