/**
 * Fixes from the security review, each pinned by a test that fails without
 * it.
 */
import assert from "node:assert/strict";
import { createRouter } from "../../mod.ts";
import { clientTag, clientTagsKept } from "../../lib/http/client_address.ts";
import { CLIENT_TAGS_KEPT } from "../../lib/limits.ts";
import { hmacSha256Hex, sha256Hex } from "../../lib/digest.ts";
import { imageHeader } from "../../lib/images/image_header.ts";
import { HttpError } from "../../lib/http/http_error.ts";
import { hashKey, verificationCount } from "../../lib/access/site_key.ts";
import {
  answer,
  answered,
  cookieFrom,
  fastHash,
  from,
  logoutRequest,
  ORIGIN,
  postJson,
  readRequest,
  testEnv,
} from "../support/helpers.ts";
import { HOME, signedInSite } from "../support/site.ts";

const KEY = "security key";
const router = createRouter({ locales: ["en"] });

Deno.test("logins beyond two running and eight waiting key checks are refused at once with 429", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const env = testEnv(kv, {
      EDITOR_KEY_HASH: await hashKey(KEY, {
        memory: 16_384,
        iterations: 2,
        parallelism: 1,
      }),
    });
    const before = verificationCount();
    const results = await Promise.all(
      Array.from(
        { length: 30 },
        (_, i) =>
          router.handle(
            postJson("/api/auth", { key: "wrong" }),
            env,
            from(`198.18.0.${i + 1}`),
          )
            .then(answer),
      ),
    );
    const busy = results.filter((r) => r.status === 429);
    assert.equal(results.filter((r) => r.status === 401).length, 10);
    assert.equal(busy.length, 20);
    assert.equal(
      verificationCount() - before,
      10,
      "refused checks compute nothing",
    );
    for (const result of busy) {
      assert.deepEqual(result.body, {
        error: "Trop de tentatives. Réessayez dans 1 min.",
      });
      assert.equal(result.headers.get("retry-after"), "10");
    }
  } finally {
    kv.close();
  }
});

Deno.test("requests a cross-site page sends never spend an editor's rate budget", async () => {
  await using s = await signedInSite(router, KEY);
  const client = from("192.0.2.200");
  for (let i = 0; i < 12; i++) {
    const login = await router.handle(
      postJson("/api/auth", { key: KEY }, { "sec-fetch-site": "cross-site" }),
      s.env,
      client,
    );
    assert.equal(login.status, 401);
    await login.body?.cancel();
  }
  for (let i = 0; i < 70; i++) {
    const read = await router.handle(
      new Request(`${ORIGIN}/api/content?path=${HOME}`, {
        headers: { cookie: s.cookie, origin: "https://evil.example" },
      }),
      s.env,
      client,
    );
    assert.equal(read.status, 401);
    await read.body?.cancel();
  }
  const login = await router.handle(
    postJson("/api/auth", { key: KEY }),
    s.env,
    client,
  );
  assert.equal(
    login.status,
    200,
    "the editor's own login still has its budget",
  );
  await login.body?.cancel();
  const read = await router.handle(
    readRequest(HOME, s.cookie),
    s.env,
    client,
  );
  assert.equal(read.status, 200, "and so do its reads");
  await read.body?.cancel();
});

Deno.test("a plain http Origin is cross-site unless it is loopback", async () => {
  await using s = await signedInSite(router, KEY);
  const read = async (origin: string, url = ORIGIN) =>
    (await router.handle(
      new Request(`${url}/api/content?path=${HOME}`, {
        headers: { cookie: s.cookie, origin },
      }),
      s.env,
      s.nextClient(),
    )).status;
  assert.equal(
    await read("http://site.example"),
    401,
    "a network attacker's plain http page",
  );
  assert.equal(await read("https://site.example"), 200);
  assert.equal(
    await read("http://127.0.0.1:8787", "http://127.0.0.1:8787"),
    200,
  );
  assert.equal(
    await read("http://localhost:8787", "http://localhost:8787"),
    200,
  );
});

Deno.test("a session cookie planted beside the real one neither blocks it nor survives logout", async () => {
  await using s = await signedInSite(router, KEY);
  const real =
    s.cookie.split("; ").find((c) => c.startsWith("editor_session="))?.slice(
      15,
    ) ?? "";
  const planted = `editor_session=${"P".repeat(43)}; editor_session=${real}`;
  const read = async (cookie: string) =>
    (await router.handle(
      readRequest(HOME, cookie),
      s.env,
      s.nextClient(),
    )).status;
  assert.equal(await read(planted), 200);
  const logout = await router.handle(logoutRequest(planted), s.env);
  assert.equal(logout.status, 200);
  await logout.body?.cancel();
  assert.equal(
    await read(`editor_session=${real}`),
    401,
    "the real session ended too",
  );
});

Deno.test("a cross-site DELETE clears the cookies without touching KV", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    let deletes = 0;
    const counting = new Proxy(kv, {
      get(target, name) {
        if (name === "delete") {
          return (key: Deno.KvKey) => (deletes++, target.delete(key));
        }
        const value = Reflect.get(target, name);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const env = testEnv(counting);
    const cookie = `editor_session=${"Q".repeat(43)}`;
    for (
      const headers of [{ cookie, "sec-fetch-site": "cross-site" }, {
        cookie,
        origin: "https://evil.example",
      }]
    ) {
      const response = await router.handle(
        new Request(`${ORIGIN}/api/auth`, { method: "DELETE", headers }),
        env,
      );
      assert.equal(response.status, 200);
      assert.equal(response.headers.getSetCookie().length, 2);
      await response.body?.cancel();
    }
    assert.equal(deletes, 0);
    // A same-site logout deletes the session its cookie names.
    await kv.set(
      ["editor", "session", await sha256Hex("Q".repeat(43))],
      { expiresAt: Date.now() + 60_000, key: "k" },
    );
    await (await router.handle(logoutRequest(cookie), env)).body?.cancel();
    assert.equal(deletes, 1, "a same-site logout deletes the session");
  } finally {
    kv.close();
  }
});

Deno.test("client tags are keyed: not a plain hash of the address, and different per deployment", async () => {
  const request = new Request(ORIGIN);
  const info = from("198.51.100.42");
  const one = await clientTag(request, {
    EDITOR_KEY_HASH: await fastHash("one"),
  }, info);
  const again = await clientTag(request, {
    EDITOR_KEY_HASH: await fastHash("one"),
  }, info);
  const two = await clientTag(request, {
    EDITOR_KEY_HASH: await fastHash("two"),
  }, info);
  assert.match(one, /^[0-9a-f]{16}$/);
  assert.equal(one, again);
  assert.notEqual(one, two);
  for (const guess of ["198.51.100.42", "inpage-editor client 198.51.100.42"]) {
    assert.notEqual(one, (await sha256Hex(guess)).slice(0, 16));
  }
});

Deno.test("a client's tag stays its keyed hash after more clients than the tags kept, and the tags kept stay bounded", async () => {
  const env = { EDITOR_KEY_HASH: await fastHash("kept") };
  const request = new Request(ORIGIN);
  const expected = (address: string) =>
    hmacSha256Hex(`inpage-editor client ${env.EDITOR_KEY_HASH}`, address)
      .slice(0, 16);
  const first = clientTag(request, env, from("203.0.113.1"));
  assert.equal(first, expected("203.0.113.1"));
  for (let i = 0; i < 5_000; i++) {
    const address = `10.${i >> 8}.${i & 255}.9`;
    assert.equal(clientTag(request, env, from(address)), expected(address));
  }
  assert.equal(clientTag(request, env, from("203.0.113.1")), first);
  assert.equal(clientTagsKept(), CLIENT_TAGS_KEPT);
});

Deno.test("an ftyp box is read for its first 64 brands only, whatever size it claims", () => {
  const brands = (count: number) =>
    new TextEncoder().encode("junk".repeat(count));
  const ftyp = (compatible: Uint8Array) => {
    const size = 16 + compatible.length;
    const out = new Uint8Array(size);
    new DataView(out.buffer).setUint32(0, size);
    out.set(new TextEncoder().encode("ftypmif1\0\0\0\0"), 4);
    out.set(compatible, 16);
    return out;
  };
  const kind = (bytes: Uint8Array) => {
    try {
      imageHeader(bytes);
    } catch (thrown) {
      const error = answered(thrown);
      assert.ok(error instanceof HttpError);
      return error.body.kind;
    }
    throw new Error("accepted");
  };
  const avif = new TextEncoder().encode("avif");
  assert.equal(kind(ftyp(new Uint8Array([...brands(63), ...avif]))), "avif");
  assert.equal(
    kind(ftyp(new Uint8Array([...brands(64), ...avif]))),
    "heic",
    "the 65th brand is not read",
  );
  assert.equal(kind(ftyp(brands(5_000_000))), "heic", "a 20 MB box of brands");
});

Deno.test("no secret reaches a response or log line across the security cases", async () => {
  await using s = await signedInSite(router, KEY);
  const response = await router.handle(
    postJson("/api/auth", { key: KEY }),
    s.env,
    s.nextClient(),
  );
  const cookie = cookieFrom(response);
  const token = cookie.split("; ")[0]?.slice(15) ?? "";
  const texts = [
    ...s.env.logs,
    JSON.stringify([...response.headers].filter(([n]) => n !== "set-cookie")),
  ];
  for (const line of texts) {
    for (const secret of [KEY, s.env.EDITOR_KEY_HASH ?? "", token]) {
      assert.ok(!line.includes(secret));
    }
  }
});
