/**
 * An editor this process has served before is served in one KV round trip:
 * the window and the session are taken from what the process last saw, and
 * the slot's commit checks that neither changed. When one did (another
 * process took slots, the session ended), the request is answered as a first
 * read would answer it, and the budget stays exact.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRouter } from "../../mod.ts";
import { login, ORIGIN, type TestEnv } from "../support/helpers.ts";
import { HOME, siteEnv } from "../support/site.ts";
import { sha256Hex } from "../../lib/digest.ts";

const router = createRouter({ locales: ["en", "fr"] });
const KEY = "seen window key";
const CLIENT = { remoteAddr: { hostname: "10.9.0.1" } };

/** A KV that counts reads and commits. */
function counting(kv: Deno.Kv) {
  const calls = { get: 0, getMany: 0, commit: 0 };
  const store = new Proxy(kv, {
    get(target, name) {
      if (name === "get") {
        return (key: Deno.KvKey) => (calls.get++, target.get(key));
      }
      if (name === "getMany") {
        return (keys: Deno.KvKey[]) => (calls.getMany++, target.getMany(keys));
      }
      if (name === "atomic") {
        return () => {
          const atomic = target.atomic();
          const commit = atomic.commit.bind(atomic);
          atomic.commit = () => (calls.commit++, commit());
          return atomic;
        };
      }
      const value = Reflect.get(target, name);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { store, calls };
}

async function read(env: TestEnv, cookie: string) {
  const response = await router.handle(
    new Request(`${ORIGIN}/api/content?path=${HOME}`, { headers: { cookie } }),
    env,
    CLIENT,
  );
  const body = await response.json();
  return { status: response.status, body, retry: response.headers };
}

async function setup(kvPath?: string) {
  let calls = { get: 0, getMany: 0, commit: 0 };
  const site = await siteEnv(KEY, {
    commit: false,
    ...(kvPath ? { kvPath } : {}),
    rateLimit: (kv) => {
      const counted = counting(kv);
      calls = counted.calls;
      return counted.store;
    },
  });
  const cookie = await login(router.handle, site.env, KEY);
  return Object.assign(site, { cookie, calls });
}

Deno.test("a second read by the same editor is one commit and no KV read", async () => {
  await using s = await setup();
  assert.equal((await read(s.env, s.cookie)).status, 200);
  const before = { ...s.calls };
  const second = await read(s.env, s.cookie);
  assert.equal(second.status, 200);
  assert.equal(typeof second.body.version, "string");
  assert.deepEqual(
    {
      get: s.calls.get - before.get,
      getMany: s.calls.getMany - before.getMany,
      commit: s.calls.commit - before.commit,
    },
    { get: 0, getMany: 0, commit: 1 },
  );
});

Deno.test("a session ended behind the process's back answers 401 and spends nothing", async () => {
  await using s = await setup();
  assert.equal((await read(s.env, s.cookie)).status, 200);
  const token = /editor_session=([^;]+)/.exec(s.cookie)?.[1] ?? "";
  await s.kv.delete(["editor", "session", sha256Hex(token)]);
  const windowKey = (await Array.fromAsync(
    s.kv.list({ prefix: ["editor", "rate", "content"] }),
  ))[0]?.key;
  assert.ok(windowKey);
  const spent = (await s.kv.get<number[]>(windowKey)).value?.length;
  const answer = await read(s.env, s.cookie);
  assert.equal(answer.status, 401);
  assert.deepEqual(answer.body, { error: "unauthorized" });
  assert.equal((await s.kv.get<number[]>(windowKey)).value?.length, spent);
});

Deno.test("slots taken by another process are counted: 429 at the budget, with retry-after", async () => {
  const folder = await Deno.makeTempDir({ prefix: "editor-seen-" });
  const file = join(folder, "kv.sqlite3");
  try {
    await using a = await setup(file);
    const other = await Deno.openKv(file);
    try {
      const b = { ...a.env, RATE_LIMIT: other };
      // Both processes have seen the editor; then they alternate.
      let accepted = 0;
      let refused = 0;
      for (let i = 0; i < 80; i++) {
        const answer = await read(i % 2 === 0 ? a.env : b, a.cookie);
        if (answer.status === 200) accepted++;
        else {
          assert.equal(answer.status, 429);
          assert.match(answer.retry.get("retry-after") ?? "", /^\d+$/);
          refused++;
        }
      }
      assert.deepEqual({ accepted, refused }, { accepted: 60, refused: 20 });
    } finally {
      other.close();
    }
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("a window filled behind the process's back answers 429 and writes nothing", async () => {
  await using s = await setup();
  assert.equal((await read(s.env, s.cookie)).status, 200);
  const windowKey = (await Array.fromAsync(
    s.kv.list({ prefix: ["editor", "rate", "content"] }),
  ))[0]?.key;
  assert.ok(windowKey);
  const full = Array.from({ length: 60 }, () => Date.now());
  await s.kv.set(windowKey, full);
  const answer = await read(s.env, s.cookie);
  assert.equal(answer.status, 429);
  assert.deepEqual((await s.kv.get(windowKey)).value, full);
});
