import assert from "node:assert/strict";
import { createAuthRoute, createRouter } from "../mod.ts";
import { answer, ORIGIN, testEnv } from "./support.ts";

Deno.test("the router answers 404 JSON for an unknown path", async () => {
  const router = createRouter({ locales: ["en"] });
  for (
    const path of [
      "/",
      "/api",
      "/api/auth/",
      "/api/AUTH",
      "/api/constructor",
      "/api/%2e%2e/auth",
      "/favicon.ico",
    ]
  ) {
    const env = testEnv(undefined);
    const { status, body } = await answer(
      await router.handle(new Request(ORIGIN + path), env),
    );
    assert.equal(status, 404, path);
    assert.deepEqual(body, { error: "not_found" });
    assert.equal(env.logs.length, 1);
    assert.equal(JSON.parse(env.logs[0] ?? "").status, 404);
  }
});

Deno.test("the router finds its routes by exact path only", () => {
  const router = createRouter({ locales: ["en"] });
  assert.equal(router.find("/api/auth"), router.routes["/api/auth"]);
  for (
    const path of [
      "constructor",
      "__proto__",
      "toString",
      "hasOwnProperty",
      "/api/auth/",
      "",
    ]
  ) {
    assert.equal(router.find(path), undefined, path);
  }
});

Deno.test("the router's routes are the exported factories' handlers", () => {
  const router = createRouter({ locales: ["en"] });
  const auth = createAuthRoute();
  assert.deepEqual(
    Object.keys(router.routes["/api/auth"]).sort(),
    Object.keys(auth).sort(),
  );
  assert.ok(Object.isFrozen(router.routes));
});

Deno.test("createRouter throws a TypeError on an empty or malformed locales list", () => {
  const bad: unknown[] = [
    undefined,
    null,
    {},
    { locales: [] },
    { locales: "en" },
    { locales: [""] },
    { locales: ["en/.."] },
    { locales: ["../x"] },
    { locales: ["en", "en"] },
    { locales: [1] },
    { locales: ["e"] },
    { locales: ["en"], github: "x" },
  ];
  for (const options of bad) {
    assert.throws(
      () => createRouter(options as { locales: string[] }),
      TypeError,
      JSON.stringify(options),
    );
  }
  for (const locales of [["en"], ["en", "fr"], ["pt-BR", "zh-Hant"], ["fil"]]) {
    assert.doesNotThrow(() => createRouter({ locales }));
  }
});
