/**
 * A closed or failing `RATE_LIMIT` fails closed: every route but logout
 * answers 503 `unavailable` (never a 500, never a request served without its
 * rate check), logout still clears the cookies, and the next request on a
 * working KV is served.
 */
import assert from "node:assert/strict";
import { createRouter } from "../../mod.ts";
import type { KvStore } from "../../mod.ts";
import {
  answer,
  from,
  login,
  logoutRequest,
  ORIGIN,
  postJson,
  readRequest,
  testEnv,
} from "../support/helpers.ts";
import { HOME, siteEnv } from "../support/site.ts";

const router = createRouter({ locales: ["en", "fr"] });
const KEY = "kv key";

function requests(cookie: string): Request[] {
  return [
    postJson("/api/auth", { key: KEY }),
    readRequest(HOME, cookie),
    postJson("/api/save", { path: HOME, content: "{}", version: "" }, {
      cookie,
    }),
    new Request(`${ORIGIN}/api/upload`, {
      method: "POST",
      headers: {
        cookie,
        "content-type": "multipart/form-data; boundary=x",
      },
      body: "--x--\r\n",
    }),
  ];
}

/** A KV whose every operation fails, as a store that lost its backend. */
function failing(kv: Deno.Kv, failures: { count: number }): KvStore {
  const fail = () => {
    failures.count++;
    return Promise.reject(new Error("connection to the store lost"));
  };
  return {
    get: fail,
    getMany: fail,
    set: fail,
    delete: fail,
    atomic: () => {
      const op = kv.atomic();
      return {
        check: () => op as never,
        set: () => op as never,
        commit: fail,
      } as never;
    },
  } as KvStore;
}

Deno.test("a closed or failing RATE_LIMIT answers 503 on every route but logout, then a working KV serves again", async () => {
  await using s = await siteEnv(KEY);
  const { kv, site, env: working } = s;
  const cookie = await login(router.handle, working, KEY);
  const failures = { count: 0 };
  const closed = await Deno.openKv(":memory:");
  closed.close();
  for (const store of [closed, failing(kv, failures)]) {
    const env = testEnv(undefined, {
      RATE_LIMIT: store,
      EDITOR_KEY_HASH: working.EDITOR_KEY_HASH,
      REPOSITORY: await site.checkout(),
    });
    for (const request of requests(cookie)) {
      const { status, body } = await answer(
        await router.handle(request, env, from("192.0.2.9")),
      );
      assert.equal(status, 503, `${request.method} ${request.url}`);
      assert.deepEqual(body, { error: "unavailable" });
    }
    const logout = await router.handle(logoutRequest(cookie), env);
    assert.equal(logout.status, 200);
    assert.equal(logout.headers.getSetCookie().length, 2);
    await logout.body?.cancel();
    assert.ok(env.logs.every((line) => !line.includes('"status":500')));
  }
  assert.ok(failures.count > 0);
  assert.equal(await site.commitCount(), 1, "nothing written");
  // The same session, on the working KV: served.
  const read = await router.handle(
    readRequest(HOME, cookie),
    working,
    from("192.0.2.10"),
  );
  assert.equal(read.status, 200);
  await read.body?.cancel();
});
