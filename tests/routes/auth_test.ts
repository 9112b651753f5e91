import assert from "node:assert/strict";
import { createRouter, type Env } from "../../mod.ts";
import { hasSession } from "../../lib/access/session.ts";
import {
  DEFAULT_KEY_PARAMS,
  hashKey,
  lastVerificationCost,
  verificationCount,
} from "../../lib/access/site_key.ts";
import {
  answer,
  assertNoSecrets,
  cookieFrom,
  fastHash,
  from,
  LOCALES,
  logoutRequest,
  manualClock,
  ORIGIN,
  postJson,
  testEnv,
} from "../support/helpers.ts";

const KEY = "correct horse battery staple";
const WRONG = { error: "clé incorrecte" };
const router = createRouter({ locales: [...LOCALES] });

async function setup(extra = {}) {
  const kv = await Deno.openKv(":memory:");
  const env = testEnv(kv, { EDITOR_KEY_HASH: await fastHash(KEY), ...extra });
  return { kv, env, [Symbol.dispose]: () => kv.close() };
}

/** Sends a key to the auth route from a client address. */
function sendKey(
  key: string,
  env: Env,
  client: string,
): Promise<Response> {
  return router.handle(postJson("/api/auth", { key }), env, from(client));
}

function attributes(
  cookie: string,
): { name: string; value: string; attrs: string[] } {
  const [pair = "", ...attrs] = cookie.split(";").map((part) => part.trim());
  const at = pair.indexOf("=");
  return {
    name: pair.slice(0, at),
    value: pair.slice(at + 1),
    attrs: attrs.sort(),
  };
}

Deno.test("auth answers 200 with both cookies and every attribute for the right key", async () => {
  using s = await setup();
  const response = await sendKey(KEY, s.env, "192.0.2.1");
  const { status, body, headers } = await answer(response);
  assert.equal(status, 200);
  assert.deepEqual(body, { ok: true });
  const cookies = headers.getSetCookie().map(attributes);
  assert.equal(cookies.length, 2);
  const [session, edit] = cookies;
  assert.equal(session?.name, "editor_session");
  assert.match(session?.value ?? "", /^[A-Za-z0-9_-]{43}$/);
  assert.deepEqual(session?.attrs, [
    "HttpOnly",
    "Max-Age=28800",
    "Path=/",
    "SameSite=Strict",
    "Secure",
  ]);
  assert.equal(edit?.name, "editor_edit");
  assert.equal(edit?.value, "1");
  assert.deepEqual(edit?.attrs, [
    "Max-Age=28800",
    "Path=/",
    "SameSite=Strict",
    "Secure",
  ]);
});

Deno.test("auth answers 401 with the same message for a wrong key", async () => {
  using s = await setup();
  const response = await sendKey("nope", s.env, "192.0.2.1");
  const { status, body, headers } = await answer(response);
  assert.equal(status, 401);
  assert.deepEqual(body, WRONG);
  assert.deepEqual(headers.getSetCookie(), []);
});

Deno.test("auth answers the same 401 for every unusable body, computing nothing", async (t) => {
  using s = await setup();
  const cases: [string, Request][] = [
    ["a missing key", postJson("/api/auth", {})],
    ["an empty key", postJson("/api/auth", { key: "" })],
    ["a key that is not a string", postJson("/api/auth", { key: 12345678 })],
    ["a null key", postJson("/api/auth", { key: null })],
    ["an array body", postJson("/api/auth", [KEY])],
    ["a string body", postJson("/api/auth", JSON.stringify(KEY))],
    ["an unreadable body", postJson("/api/auth", "{key:")],
    ["an empty body", postJson("/api/auth", "")],
    [
      "a key over 256 characters",
      postJson("/api/auth", { key: "k".repeat(257) }),
    ],
    ["a key of 257 emoji", postJson("/api/auth", { key: "😀".repeat(257) })],
    [
      "a body declared over 2,000 bytes",
      postJson("/api/auth", { key: KEY, pad: "x".repeat(2_000) }),
    ],
    [
      "a form body",
      new Request(ORIGIN + "/api/auth", {
        method: "POST",
        body: new URLSearchParams({ key: KEY }),
      }),
    ],
    [
      "a text body",
      new Request(ORIGIN + "/api/auth", {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: JSON.stringify({ key: KEY }),
      }),
    ],
    [
      "invalid UTF-8",
      new Request(ORIGIN + "/api/auth", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: new Uint8Array([
          0x7b,
          0x22,
          0x6b,
          0x65,
          0x79,
          0x22,
          0x3a,
          0x22,
          0xff,
          0x22,
          0x7d,
        ]),
      }),
    ],
  ];
  for (const [name, request] of cases) {
    await t.step(name, async () => {
      const before = verificationCount();
      // Each case from its own client: the budget is 5 per client.
      const response = await router.handle(
        request,
        s.env,
        from(`198.51.100.${cases.findIndex(([n]) => n === name) + 1}`),
      );
      const { status, body } = await answer(response);
      assert.equal(status, 401);
      assert.deepEqual(body, WRONG);
      assert.equal(verificationCount(), before, "no key verification may run");
    });
  }
});

Deno.test("auth refuses a streamed body over 2,000 bytes without a declared length, computing nothing", async () => {
  using s = await setup();
  const chunk = new TextEncoder().encode(" ".repeat(500));
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= 10) return controller.close();
      sent++;
      controller.enqueue(
        sent === 1 ? new TextEncoder().encode(`{"key":"${KEY}"`) : chunk,
      );
    },
  });
  const request = new Request(ORIGIN + "/api/auth", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  assert.equal(request.headers.get("content-length"), null);
  const before = verificationCount();
  const { status, body: json } = await answer(
    await router.handle(request, s.env, from("192.0.2.9")),
  );
  assert.equal(status, 401);
  assert.deepEqual(json, WRONG);
  assert.equal(verificationCount(), before);
  assert.ok(sent < 10, "the body must not be read past the cap");
});

Deno.test("auth accepts a key of exactly 256 characters and a body of exactly 2,000 bytes", async () => {
  const key = "é".repeat(256);
  using s = await setup({ EDITOR_KEY_HASH: await fastHash(key) });
  const text = JSON.stringify({ key });
  const padded = text.slice(0, -1) + "," + JSON.stringify("p") + ":" +
    JSON.stringify(
      "x".repeat(2_000 - new TextEncoder().encode(text).length - 7),
    ) + "}";
  assert.equal(new TextEncoder().encode(padded).length, 2_000);
  const response = await router.handle(
    postJson("/api/auth", padded),
    s.env,
    from("192.0.2.1"),
  );
  assert.equal(response.status, 200);
  await response.body?.cancel();
});

Deno.test("auth answers a missing or unreadable key hash like a wrong key, after the same work", async (t) => {
  const hashes: [string, string | undefined][] = [
    ["missing", undefined],
    ["empty", ""],
    ["garbage", "not a hash"],
    [
      "argon2i",
      "$argon2i$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA",
    ],
    [
      "version 16",
      "$argon2id$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
    ],
    [
      "memory over 1 GiB",
      "$argon2id$v=19$m=2097152,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
    ],
    [
      "iterations over 20",
      "$argon2id$v=19$m=65536,t=21,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
    ],
  ];
  const real = await hashKey("some other key");
  const kv = await Deno.openKv(":memory:");
  try {
    // The same work: one verification at the cost a real default hash has.
    const refused = async (hash: string | undefined) => {
      const env = testEnv(kv, { EDITOR_KEY_HASH: hash });
      const before = verificationCount();
      const { status, body } = await answer(
        await sendKey(KEY, env, `203.0.113.${Math.floor(Math.random() * 250)}`),
      );
      assert.equal(status, 401);
      assert.deepEqual(body, WRONG);
      assert.equal(
        verificationCount(),
        before + 1,
        "one verification must run",
      );
      return lastVerificationCost();
    };
    assert.deepEqual(await refused(real), { ...DEFAULT_KEY_PARAMS });
    for (const [name, hash] of hashes) {
      await t.step(name, async () => {
        assert.deepEqual(await refused(hash), { ...DEFAULT_KEY_PARAMS });
      });
    }
  } finally {
    kv.close();
  }
});

Deno.test("auth answers 429 with retry-after after 5 attempts in 15 minutes, exactly", async () => {
  const clock = manualClock();
  using s = await setup({ EDITOR_CLOCK: clock.now });
  const attempt = async () => await sendKey("wrong", s.env, "192.0.2.7");
  for (let i = 0; i < 5; i++) {
    assert.equal((await answer(await attempt())).status, 401);
    clock.advance(60_000);
  }
  const refused = await answer(await attempt());
  assert.equal(refused.status, 429);
  const error = (refused.body as { error: string }).error;
  assert.ok(error.startsWith("Trop de tentatives"), error);
  assert.equal(error, "Trop de tentatives. Réessayez dans 10 min.");
  // The first attempt was 5 minutes ago: it leaves the window in 10 minutes.
  assert.equal(refused.headers.get("retry-after"), "600");
  clock.advance(600_000 - 1);
  assert.equal((await attempt()).status, 429);
  clock.advance(1);
  assert.equal(
    (await attempt()).status,
    401,
    "one slot frees when the oldest attempt leaves",
  );
  assert.equal((await attempt()).status, 429, "and only one");
});

Deno.test("auth answers 429 to a client over budget even with an oversized body", async () => {
  using s = await setup();
  for (let i = 0; i < 5; i++) {
    await (await sendKey("x", s.env, "192.0.2.8")).body?.cancel();
  }
  const big = postJson("/api/auth", { key: "x".repeat(1_000_000) });
  const { status, headers } = await answer(
    await router.handle(big, s.env, from("192.0.2.8")),
  );
  assert.equal(status, 429);
  assert.ok(Number(headers.get("retry-after")) > 0);
});

Deno.test("auth lets 20 concurrent wrong keys from one client reach the key check exactly 5 times", async () => {
  using s = await setup();
  const before = verificationCount();
  const responses = await Promise.all(
    Array.from(
      { length: 20 },
      () => sendKey("wrong", s.env, "192.0.2.20"),
    ),
  );
  const statuses = await Promise.all(
    responses.map(async (r) => (await answer(r)).status),
  );
  assert.equal(statuses.filter((code) => code === 401).length, 5);
  assert.equal(statuses.filter((code) => code === 429).length, 15);
  assert.equal(verificationCount() - before, 5);
  for (const response of responses.filter((r) => r.status === 429)) {
    assert.ok(Number(response.headers.get("retry-after")) >= 1);
  }
});

Deno.test("auth budgets are per client, IPv6 grouped by /64, behind a proxy by its header", async () => {
  using s = await setup({ EDITOR_CLIENT_IP_HEADER: "x-real-ip" });
  const hit = async (address: string, header?: string) =>
    (await router.handle(
      postJson(
        "/api/auth",
        { key: "wrong" },
        header ? { "x-real-ip": header } : {},
      ),
      s.env,
      from(address),
    )).status;
  for (let i = 0; i < 5; i++) {
    assert.equal(await hit(`2001:db8:1:2::${i + 1}`), 401);
  }
  assert.equal(await hit("2001:db8:1:2:ffff::9"), 429, "same /64");
  assert.equal(await hit("2001:db8:1:3::1"), 401, "another /64");
  for (let i = 0; i < 5; i++) {
    assert.equal(await hit("10.0.0.1", "192.0.2.50"), 401);
  }
  assert.equal(
    await hit("10.0.0.2", "192.0.2.50"),
    429,
    "the proxy's header decides, not the peer",
  );
  assert.equal(
    await hit("10.0.0.1", "203.0.113.66, 192.0.2.50"),
    429,
    "a forged first entry does not escape the budget",
  );
  assert.equal(await hit("10.0.0.1", "192.0.2.50, 192.0.2.51"), 401);
});

Deno.test("auth DELETE clears both cookies, ends the session and is never limited", async () => {
  using s = await setup();
  const login = await sendKey(KEY, s.env, "192.0.2.30");
  const cookie = cookieFrom(login);
  const withCookie = new Request(ORIGIN + "/api/content", {
    headers: { cookie },
  });
  assert.equal(await hasSession(s.kv, withCookie, s.env), true);
  for (let i = 0; i < 8; i++) {
    const response = await router.handle(
      logoutRequest(cookie),
      s.env,
      from("192.0.2.30"),
    );
    const { status, body, headers } = await answer(response);
    assert.equal(status, 200);
    assert.deepEqual(body, { ok: true });
    assert.deepEqual(headers.getSetCookie().map(attributes), [
      {
        name: "editor_session",
        value: "",
        attrs: ["HttpOnly", "Max-Age=0", "Path=/", "SameSite=Strict", "Secure"],
      },
      {
        name: "editor_edit",
        value: "",
        attrs: ["Max-Age=0", "Path=/", "SameSite=Strict", "Secure"],
      },
    ]);
  }
  assert.equal(await hasSession(s.kv, withCookie, s.env), false);
});

Deno.test("auth DELETE answers 200 without a cookie and without a KV", async () => {
  const env = testEnv(undefined);
  const { status, body } = await answer(
    await router.handle(
      new Request(ORIGIN + "/api/auth", { method: "DELETE" }),
      env,
    ),
  );
  assert.equal(status, 200);
  assert.deepEqual(body, { ok: true });
});

Deno.test("a session stops working for good when the key hash changes, and when its expiry has passed", async () => {
  const clock = manualClock();
  using s = await setup({ EDITOR_CLOCK: clock.now });
  const cookie = cookieFrom(
    await sendKey(KEY, s.env, "192.0.2.31"),
  );
  const request = new Request(ORIGIN + "/api/content", { headers: { cookie } });
  assert.equal(await hasSession(s.kv, request, s.env), true);
  // No key configured: no session is valid, and none ends.
  assert.equal(
    await hasSession(s.kv, request, { ...s.env, EDITOR_KEY_HASH: undefined }),
    false,
  );
  assert.equal(await hasSession(s.kv, request, s.env), true);
  // Another key hash ends the session, for good.
  const rotated = new Request(ORIGIN + "/api/content", {
    headers: {
      cookie: cookieFrom(await sendKey(KEY, s.env, "192.0.2.32")),
    },
  });
  assert.equal(
    await hasSession(s.kv, rotated, {
      ...s.env,
      EDITOR_KEY_HASH: await fastHash("a new key"),
    }),
    false,
  );
  assert.equal(await hasSession(s.kv, rotated, s.env), false);
  clock.advance(28_800_000 - 1);
  assert.equal(await hasSession(s.kv, request, s.env), true);
  clock.advance(1);
  assert.equal(
    await hasSession(s.kv, request, s.env),
    false,
    "expired at 8 hours even if KV still holds it",
  );
  const forged = new Request(ORIGIN + "/api/content", {
    headers: { cookie: "editor_session=" + "A".repeat(43) },
  });
  assert.equal(await hasSession(s.kv, forged, s.env), false);
});

Deno.test("auth refuses a cross-site login with the same 401, and a cross-site request carries no session", async () => {
  using s = await setup();
  const cases: Record<string, string>[] = [
    { "sec-fetch-site": "cross-site" },
    { origin: "https://evil.example" },
    { origin: "null" },
    { origin: "https://site.example:8443" },
  ];
  for (const [index, headers] of cases.entries()) {
    const { status, body } = await answer(
      await router.handle(
        postJson("/api/auth", { key: KEY }, headers),
        s.env,
        from(`192.0.2.${40 + index}`),
      ),
    );
    assert.equal(status, 401, JSON.stringify(headers));
    assert.deepEqual(body, WRONG);
  }
  const same = await router.handle(
    postJson("/api/auth", { key: KEY }, {
      origin: ORIGIN,
      "sec-fetch-site": "same-origin",
    }),
    s.env,
    from("192.0.2.49"),
  );
  assert.equal(same.status, 200);
  const cookie = cookieFrom(same);
  const crossRead = new Request(ORIGIN + "/api/content", {
    headers: { cookie, "sec-fetch-site": "cross-site" },
  });
  assert.equal(await hasSession(s.kv, crossRead, s.env), false);
});

Deno.test("auth answers 405 with allow for GET, PUT, PATCH, HEAD and OPTIONS", async () => {
  using s = await setup();
  for (const method of ["GET", "PUT", "PATCH", "HEAD", "OPTIONS"]) {
    const response = await router.handle(
      new Request(ORIGIN + "/api/auth", { method }),
      s.env,
    );
    const { status, body, headers } = await answer(response);
    assert.equal(status, 405, method);
    assert.deepEqual(body, { error: "method_not_allowed" });
    assert.equal(headers.get("allow"), "POST, DELETE");
  }
});

Deno.test("auth fails closed with 503 when RATE_LIMIT is missing", async () => {
  const env = testEnv(undefined, { EDITOR_KEY_HASH: await fastHash(KEY) });
  const { status, body } = await answer(
    await router.handle(postJson("/api/auth", { key: KEY }), env),
  );
  assert.equal(status, 503);
  assert.deepEqual(body, { error: "unavailable" });
  assert.match(env.logs.join("\n"), /RATE_LIMIT is missing/);
});

Deno.test("a failing KV answers 503 unavailable with a generic body, its detail in the log only", async () => {
  const broken = {
    get: () => Promise.reject(new Error("disk on fire at /var/secret/path")),
    set: () => Promise.resolve(),
    delete: () => Promise.resolve(),
    atomic: () => {
      throw new Error("unreachable");
    },
  };
  const env = testEnv(undefined, {
    RATE_LIMIT: broken,
    EDITOR_KEY_HASH: await fastHash(KEY),
  });
  const response = await router.handle(
    postJson("/api/auth", { key: KEY }),
    env,
  );
  const text = await response.clone().text();
  const { status, body } = await answer(response);
  assert.equal(status, 503);
  assert.deepEqual(body, { error: "unavailable" });
  assert.ok(!text.includes("disk on fire"));
  assert.match(env.logs.join("\n"), /disk on fire/);
});

Deno.test("auth writes one JSON log line per request, and no secret in any answer or log line", async () => {
  using s = await setup();
  const texts: string[] = [];
  const record = async (response: Response) => {
    const headers = [...response.headers].filter(([name]) =>
      name !== "set-cookie"
    );
    texts.push(JSON.stringify(headers), await response.text());
    return response;
  };
  const login = await sendKey(KEY, s.env, "192.0.2.60");
  const cookie = cookieFrom(login);
  await record(login);
  await record(
    await sendKey(KEY + "!", s.env, "192.0.2.60"),
  );
  await record(
    await router.handle(
      new Request(ORIGIN + "/api/auth", {
        method: "DELETE",
        headers: { cookie },
      }),
      s.env,
      from("192.0.2.60"),
    ),
  );
  await record(
    await router.handle(
      new Request(ORIGIN + "/api/auth", { method: "GET", headers: { cookie } }),
      s.env,
      from("192.0.2.60"),
    ),
  );
  assert.equal(s.env.logs.length, 4);
  for (const line of s.env.logs) {
    const fields = JSON.parse(line);
    assert.deepEqual(
      Object.keys(fields).filter((k) =>
        !["code", "detail", "editor"].includes(k)
      ).sort(),
      ["client", "method", "ms", "route", "status", "time"],
    );
    assert.equal(fields.route, "/api/auth");
    assert.match(fields.client, /^[0-9a-f]{16}$/);
    assert.ok(!line.includes("192.0.2.60"), "the client address is hashed");
  }
  assert.deepEqual(s.env.logs.map((l) => JSON.parse(l).status), [
    200,
    401,
    200,
    405,
  ]);
  assert.equal(JSON.parse(s.env.logs[1] ?? "").code, "wrong_key");
  // The editor's id (never the key) on the login that opened a session.
  assert.deepEqual(s.env.logs.map((l) => JSON.parse(l).editor), [
    "editor",
    undefined,
    undefined,
    undefined,
  ]);
  const token = cookie.split(";")[0]?.split("=")[1] ?? "";
  assertNoSecrets([...texts, ...s.env.logs], [
    KEY,
    s.env.EDITOR_KEY_HASH ?? "",
    token,
    cookie,
  ]);
});

Deno.test("a login without EDITOR_KEY_HASH writes one log line that says why", async () => {
  using s = await setup({ EDITOR_KEY_HASH: undefined });
  const response = await sendKey(KEY, s.env, "192.0.2.90");
  assert.equal(response.status, 401);
  await response.body?.cancel();
  assert.equal(s.env.logs.length, 1);
  assert.match(
    JSON.parse(s.env.logs[0] ?? "{}").detail,
    /EDITOR_KEY_HASH is not set/,
  );
});
