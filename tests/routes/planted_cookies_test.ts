/**
 * A sibling subdomain can plant `editor_session` cookies that the browser
 * sends before the real one: every well-formed token in the cookie header is
 * tried, with `getMany` in batches of ten, so planted cookies cannot lock a
 * session out and the work per request stays bounded by the header.
 */
import assert from "node:assert/strict";
import { createRouter } from "../../mod.ts";
import { randomToken } from "../../lib/access/random_token.ts";
import { login, logoutRequest, readRequest } from "../support/helpers.ts";
import { HOME, siteEnv } from "../support/site.ts";
import { COOKIE_HEADER_MAX } from "../../lib/limits.ts";

const router = createRouter({ locales: ["en", "fr"] });
const KEY = "planted key";

/** A KV that counts the calls made to it. */
function counting(
  kv: Deno.Kv,
  calls: { get: number; getMany: number; getManyKeys: number; delete: number },
) {
  const store = new Proxy(kv, {
    get(target, name) {
      if (name === "get") {
        return (key: Deno.KvKey) => (calls.get++, target.get(key));
      }
      if (name === "getMany") {
        return (keys: Deno.KvKey[]) => {
          calls.getMany++;
          calls.getManyKeys += keys.length;
          return target.getMany(keys);
        };
      }
      if (name === "delete") {
        return (key: Deno.KvKey) => (calls.delete++, target.delete(key));
      }
      const value = Reflect.get(target, name);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return store;
}

async function setup() {
  const calls = { get: 0, getMany: 0, getManyKeys: 0, delete: 0 };
  const s = await siteEnv(KEY, {
    commit: false,
    rateLimit: (kv) => counting(kv, calls),
  });
  const { env } = s;
  const cookie = await login(router.handle, env, KEY);
  const real = /editor_session=([^;]+)/.exec(cookie)?.[1] ?? "";
  let n = 0;
  const read = async (header: string) => {
    const response = await router.handle(
      readRequest(HOME, header),
      env,
      { remoteAddr: { hostname: `10.7.${(n >> 8) & 255}.${n++ & 255}` } },
    );
    await response.body?.cancel();
    return response.status;
  };
  return {
    env,
    calls,
    real,
    read,
    [Symbol.asyncDispose]: () => s[Symbol.asyncDispose](),
  };
}

function planted(count: number): string[] {
  return Array.from(
    { length: count },
    () => `editor_session=${randomToken(32)}`,
  );
}

Deno.test("planted session cookies sent before the real one cannot lock it out: 4, 50 or 1,000 of them", async () => {
  await using s = await setup();
  for (const count of [4, 5, 50, 1_000]) {
    const header = [...planted(count), `editor_session=${s.real}`].join("; ");
    assert.ok(header.length < COOKIE_HEADER_MAX);
    assert.equal(await s.read(header), 200, `${count} planted`);
  }
  // Planted among other cookies and malformed values, in any order.
  const mixed = [
    "theme=dark",
    ...planted(20),
    "editor_session=short",
    `editor_session=${s.real}`,
    ...planted(20),
    "editor_edit=1",
  ].join("; ");
  assert.equal(await s.read(mixed), 200);
  assert.equal(await s.read(planted(30).join("; ")), 401);
});

Deno.test("the session check reads every token of a request once, with the rate window, by getMany in batches of ten", async () => {
  await using s = await setup();
  const tokens = planted(999);
  const header = [
    ...tokens,
    ...tokens.slice(0, 50),
    `editor_session=${s.real}`,
  ]
    .join("; ");
  const before = { ...s.calls };
  assert.equal(await s.read(header), 200);
  // The rate window and the 1,000 sessions, in one round trip of 101
  // batches; nothing read one key at a time.
  assert.equal(s.calls.getManyKeys - before.getManyKeys, 1_001);
  assert.equal(s.calls.getMany - before.getMany, 101);
  assert.equal(s.calls.get - before.get, 0);
});

Deno.test("only the first 64 KiB of the cookie header are read for tokens", async () => {
  await using s = await setup();
  const filler = planted(Math.ceil(COOKIE_HEADER_MAX / 58));
  const header = [...filler, `editor_session=${s.real}`].join("; ");
  assert.ok(header.indexOf(s.real) > COOKIE_HEADER_MAX);
  const before = { ...s.calls };
  assert.equal(await s.read(header), 401);
  assert.ok(s.calls.getManyKeys - before.getManyKeys <= 1_130);
});

Deno.test("logout with planted cookies ends the real session and deletes only what exists", async () => {
  await using s = await setup();
  const header = [...planted(200), `editor_session=${s.real}`].join("; ");
  assert.equal(await s.read(header), 200);
  const before = { ...s.calls };
  const response = await router.handle(logoutRequest(header), s.env);
  assert.equal(response.status, 200);
  await response.body?.cancel();
  assert.equal(s.calls.delete - before.delete, 1);
  assert.equal(await s.read(`editor_session=${s.real}`), 401);
});

Deno.test("a read with its one session cookie reads the rate window and the session in one getMany", async () => {
  await using s = await setup();
  const before = { ...s.calls };
  assert.equal(await s.read(`editor_session=${s.real}`), 200);
  assert.equal(s.calls.getMany - before.getMany, 1);
  assert.equal(s.calls.getManyKeys - before.getManyKeys, 2);
  assert.equal(s.calls.get - before.get, 0);
});
