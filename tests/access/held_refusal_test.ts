/**
 * A client that keeps sending after a 429 gets its next 429s after a short
 * wait, at most a bounded number at once; the first 429 is sent at once.
 */
import assert from "node:assert/strict";
import { createRouter } from "../../mod.ts";
import { refusalsHeld } from "../../lib/access/admission.ts";
import { REFUSED_AGAIN_HELD_MAX } from "../../lib/limits.ts";
import { ORIGIN, signedInEnv, type TestEnv } from "../support/helpers.ts";
import { HOME, tempSite } from "../support/site.ts";

const router = createRouter({ locales: ["en", "fr"] });

async function read(env: TestEnv, cookie: string, client: string) {
  const response = await router.handle(
    new Request(`${ORIGIN}/api/content?path=${HOME}`, { headers: { cookie } }),
    env,
    { remoteAddr: { hostname: client } },
  );
  await response.body?.cancel();
  return response;
}

/** Polls until `done` settles; the most requests held seen meanwhile. */
async function mostHeldWhile(done: Promise<unknown>): Promise<number> {
  let settled = false;
  void done.finally(() => settled = true);
  let most = refusalsHeld();
  while (!settled) {
    await new Promise((resolve) => setTimeout(resolve, 1));
    most = Math.max(most, refusalsHeld());
  }
  return most;
}

Deno.test("a first 429 goes at once; the next ones to the same client wait", async () => {
  await using site = await tempSite();
  const kv = await Deno.openKv(":memory:");
  try {
    const { env, cookie } = await signedInEnv(router, kv, "held key", {
      REPOSITORY: await site.checkout({ commit: false }),
    });
    const client = "10.11.0.1";
    for (let i = 0; i < 60; i++) {
      assert.equal((await read(env, cookie, client)).status, 200);
    }
    const first = read(env, cookie, client);
    assert.equal(await mostHeldWhile(first), 0, "the first 429 waits");
    assert.equal((await first).status, 429);
    const again = Promise.all([1, 2, 3].map(() => read(env, cookie, client)));
    assert.equal(await mostHeldWhile(again), 3);
    for (const response of await again) {
      assert.equal(response.status, 429);
      assert.match(response.headers.get("retry-after") ?? "", /^\d+$/);
    }
    assert.equal(refusalsHeld(), 0);
    // Beyond the cap, a repeated 429 is sent at once.
    const many = Array.from(
      { length: REFUSED_AGAIN_HELD_MAX + 1 },
      () => read(env, cookie, client),
    );
    await Promise.race(many);
    assert.equal(refusalsHeld(), REFUSED_AGAIN_HELD_MAX);
    for (const response of await Promise.all(many)) {
      assert.equal(response.status, 429);
    }
    assert.equal(refusalsHeld(), 0);
  } finally {
    kv.close();
  }
});
