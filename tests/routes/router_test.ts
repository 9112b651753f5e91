import assert from "node:assert/strict";
import { createAuthRoute, createRouter } from "../../mod.ts";
import { answer, from, ORIGIN, postJson, testEnv } from "../support/helpers.ts";

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
      await router.handle(new Request(ORIGIN + path), env, from("192.0.2.1")),
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

Deno.test("a throwing log sink never changes an answer", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const router = createRouter({ locales: ["en"] });
    const env = {
      RATE_LIMIT: kv,
      EDITOR_LOG: () => {
        throw new Error("log sink down");
      },
    };
    const login = await answer(
      await router.handle(postJson("/api/auth", { key: "k" }), env),
    );
    assert.deepEqual([login.status, login.body], [401, {
      error: "clé incorrecte",
    }]);
    const failing = {
      ...env,
      RATE_LIMIT: {
        ...kv,
        delete: () => Promise.reject(new Error("KV down")),
      } as unknown as Deno.Kv,
    };
    const logout = await router.handle(
      new Request(ORIGIN + "/api/auth", {
        method: "DELETE",
        headers: { cookie: "editor_session=" + "D".repeat(43) },
      }),
      failing,
    );
    assert.equal(logout.status, 200);
    await logout.body?.cancel();
    assert.equal(
      (await router.handle(new Request(ORIGIN + "/nowhere"), env)).status,
      404,
    );
  } finally {
    kv.close();
  }
});

Deno.test("an unusable EDITOR_CLIENT_IP_HEADER falls back to the peer address", async () => {
  const router = createRouter({ locales: ["en"] });
  const env = testEnv(undefined, { EDITOR_CLIENT_IP_HEADER: "x forwarded" });
  for (
    const [path, method, status] of [["/api/auth", "GET", 405], [
      "/nope",
      "GET",
      404,
    ], ["/api/auth", "DELETE", 200]] as const
  ) {
    const { status: got } = await answer(
      await router.handle(new Request(ORIGIN + path, { method }), env, {
        remoteAddr: { hostname: "192.0.2.1" },
      }),
    );
    assert.equal(got, status, `${method} ${path}`);
  }
});

Deno.test("a thrown value that cannot be printed still answers 500 JSON", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const broken = {
      ...kv,
      get: () => Promise.reject(Object.create(null)),
      atomic: () => kv.atomic(),
    } as unknown as Deno.Kv;
    const router = createRouter({ locales: ["en"] });
    const { status, body } = await answer(
      await router.handle(postJson("/api/auth", { key: "k" }), testEnv(broken)),
    );
    assert.deepEqual([status, body], [500, { error: "internal" }]);
  } finally {
    kv.close();
  }
});

Deno.test("methods are case-sensitive on the wire: post is not POST", async () => {
  const router = createRouter({ locales: ["en"] });
  const env = testEnv(undefined);
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request, info) => router.handle(request, env, info),
  );
  try {
    const connection = await Deno.connect({
      hostname: "127.0.0.1",
      port: server.addr.port,
    });
    await connection.write(
      new TextEncoder().encode(
        "post /api/auth HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
      ),
    );
    let raw = "";
    for await (
      const chunk of connection.readable.pipeThrough(new TextDecoderStream())
    ) raw += chunk;
    assert.match(raw, /^HTTP\/1\.1 405 /);
    assert.match(raw, /allow: POST, DELETE/i);
    assert.match(raw, /\{"error":"method_not_allowed"\}/);
  } finally {
    await server.shutdown();
  }
});
