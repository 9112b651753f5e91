/**
 * The browser client against the real router: a fetch that hands each
 * request to `router.handle` (with the cookies a browser would keep), a
 * real KV in memory, and a real git checkout. Every code of the routes is
 * produced for real and mapped to one `EditorError`.
 */
import assert from "node:assert/strict";
import {
  type Client,
  createClient,
  EditorError,
  type ErrorCode,
  failure as mapFailure,
  getPointer,
  type PageObject,
} from "../../client/mod.ts";
import { createRouter, type Env } from "../../mod.ts";
import { fastHash, from, testEnv } from "../support/helpers.ts";
import { pngOfSize } from "../support/image_fixtures.ts";
import { HOME, siteEnv } from "../support/site.ts";

const KEY = "client test key";
const ORIGIN = "https://site.example";
const router = createRouter({ locales: ["en", "fr"] });
let clients = 0;

/** A client whose fetch is the router, keeping cookies like a browser. */
function routerClient(env: Env): Client {
  const jar = new Map<string, string>();
  const address = `198.51.100.${++clients}`;
  return createClient({
    origin: ORIGIN,
    fetch: async (request) => {
      const headers = new Headers(request.headers);
      const body = request.body ? await request.arrayBuffer() : null;
      if (body) headers.set("content-length", String(body.byteLength));
      if (jar.size > 0) {
        headers.set(
          "cookie",
          [...jar].map(([name, value]) => `${name}=${value}`).join("; "),
        );
      }
      const response = await router.handle(
        new Request(request.url, { method: request.method, headers, body }),
        env,
        from(address),
      );
      for (const line of response.headers.getSetCookie()) {
        const [pair = ""] = line.split(";");
        const [name = "", value = ""] = pair.split("=");
        if (/Max-Age=0/i.test(line)) jar.delete(name);
        else jar.set(name, value);
      }
      return response;
    },
  });
}

async function failure(promise: Promise<unknown>): Promise<EditorError> {
  const error = await promise.then(
    () => assert.fail("expected a failure"),
    (error: unknown) => error,
  );
  assert.ok(error instanceof EditorError, String(error));
  return error;
}

function assertCode(
  error: EditorError,
  code: ErrorCode,
  status: number,
  details: Partial<
    Pick<EditorError, "at" | "reason" | "kind" | "repository">
  > = {},
): void {
  assert.equal(error.code, code);
  assert.equal(error.status, status);
  assert.equal(error.name, "EditorError");
  for (const [name, value] of Object.entries(details)) {
    assert.equal(error[name as keyof typeof details], value, name);
  }
}

async function signedIn() {
  const s = await siteEnv(KEY);
  const client = routerClient(s.env);
  await client.login(KEY);
  return Object.assign(s, { client });
}

Deno.test("the client logs in, reads, publishes, uploads and logs out through the router", async () => {
  await using s = await signedIn();
  const { content, version } = await s.client.read(HOME);
  const page = JSON.parse(content);
  assert.equal(getPointer(page, "/title"), "Home");
  const published = await s.client.publish({
    path: HOME,
    content: { ...page, title: "Welcome" },
    version,
    message: "New title",
  });
  assert.match(published.version, /^[0-9a-f]{40}$/);
  assert.equal(
    await s.site.read(HOME),
    JSON.stringify({ ...page, title: "Welcome" }, null, 2) + "\n",
  );
  assert.equal(
    (await s.site.git("log", "-1", "--format=%s")).trim(),
    "New title",
  );
  const image = await s.client.upload(
    new Blob([pngOfSize(200, 3, 2)], { type: "image/png" }),
    "Team photo",
  );
  assert.equal(image.width, 3);
  assert.equal(image.height, 2);
  assert.match(image.src, /^team-photo-[0-9a-f]{12}\.png$/);
  await s.client.logout();
  assertCode(await failure(s.client.read(HOME)), "unauthorized", 401);
});

Deno.test("the client's staged upload keeps the image aside, and the publish naming it commits both in one commit", async () => {
  await using s = await signedIn();
  const { content, version } = await s.client.read(HOME);
  const count = await s.site.commitCount();
  const image = await s.client.upload(
    new Blob([pngOfSize(200, 3, 2)], { type: "image/png" }),
    "Sea",
    { staged: true },
  );
  assert.equal(image.staged, true);
  assert.match(image.src, /^sea-[0-9a-f]{12}\.png$/);
  assert.equal(await s.site.commitCount(), count);
  const page: PageObject = {
    ...JSON.parse(content),
    hero: { src: image.src, width: image.width, height: image.height },
  };
  await s.client.publish({ path: HOME, content: page, version });
  assert.equal(await s.site.commitCount(), count + 1);
  assert.deepEqual(
    (await s.site.git("show", "--name-only", "--format=", "HEAD")).trim()
      .split("\n"),
    [`public/images/${image.src}`, HOME],
  );
  const plain = await s.client.upload(
    new Blob([pngOfSize(300, 4, 4)], { type: "image/png" }),
    "Plain",
    { staged: false },
  );
  assert.equal(plain.staged, undefined);
  assert.equal(await s.site.commitCount(), count + 2);
});

Deno.test("client errors: unauthorized without a session and for a wrong key", async () => {
  await using s = await signedIn();
  const stranger = routerClient(s.env);
  assertCode(await failure(stranger.read(HOME)), "unauthorized", 401);
  assertCode(
    await failure(stranger.publish({ path: HOME, content: "{}", version: "" })),
    "unauthorized",
    401,
  );
  assertCode(
    await failure(stranger.upload(new Blob([pngOfSize(200, 3, 2)]))),
    "unauthorized",
    401,
  );
  assertCode(await failure(stranger.login("wrong key")), "unauthorized", 401);
});

Deno.test("client errors: rate_limited carries retryAfter from retry-after", async () => {
  await using s = await signedIn();
  const stranger = routerClient(s.env);
  for (let attempt = 0; attempt < 5; attempt++) {
    await failure(stranger.login("wrong key"));
  }
  const error = await failure(stranger.login(KEY));
  assertCode(error, "rate_limited", 429);
  assert.ok(
    Number.isInteger(error.retryAfter) && (error.retryAfter ?? 0) > 0 &&
      (error.retryAfter ?? 0) <= 900,
    String(error.retryAfter),
  );
});

Deno.test("client errors: bad_request, not_found, conflict, too_large", async () => {
  await using s = await signedIn();
  assertCode(
    await failure(s.client.read("src/content/pages/de/home.json")),
    "bad_request",
    400,
  );
  assertCode(
    await failure(s.client.read("src/content/pages/en/missing.json")),
    "not_found",
    404,
  );
  const { version } = await s.client.read(HOME);
  await s.client.publish({ path: HOME, content: { title: "One" }, version });
  assertCode(
    await failure(
      s.client.publish({ path: HOME, content: { title: "Two" }, version }),
    ),
    "conflict",
    409,
  );
  const current = await s.client.read(HOME);
  assertCode(
    await failure(
      s.client.publish({
        path: HOME,
        content: { title: "x".repeat(100_001) },
        version: current.version,
      }),
    ),
    "too_large",
    413,
  );
  assert.equal(JSON.parse(await s.site.read(HOME) ?? "").title, "One");
});

Deno.test("client errors: invalid_content carries at and reason", async () => {
  await using s = await signedIn();
  const { content, version } = await s.client.read(HOME);
  const page = JSON.parse(content);
  const withBody = (body: string) => {
    const changed = structuredClone(page);
    changed.sections[0].body = body;
    return changed;
  };
  const cases: [PageObject, { at: string; reason: string }][] = [
    [
      { ...page, cta: { href: "javascript:alert(1)" } },
      { at: "/cta/href", reason: "link" },
    ],
    [
      withBody('<p><a href="javascript:alert(1)">x</a></p>'),
      { at: "/sections/0/body", reason: "link" },
    ],
    [
      withBody("<script>alert(1)</script>"),
      { at: "/sections/0/body", reason: "markup" },
    ],
  ];
  for (const [changed, details] of cases) {
    assertCode(
      await failure(
        s.client.publish({ path: HOME, content: changed, version }),
      ),
      "invalid_content",
      422,
      details,
    );
  }
});

Deno.test("client errors: problems lists every problem of a 422, or its at and reason alone", async () => {
  await using s = await signedIn();
  const { content, version } = await s.client.read(HOME);
  const page = JSON.parse(content);
  const refused = await failure(s.client.publish({
    path: HOME,
    content: { ...page, cta: { href: "javascript:alert(1)" } },
    version,
  }));
  assert.deepEqual(refused.problems[0], { at: "/cta/href", reason: "link" });
  const answering = (body: unknown) =>
    createClient({
      origin: ORIGIN,
      fetch: () => Promise.resolve(Response.json(body, { status: 422 })),
    });
  const listed = await failure(
    answering({
      error: "invalid_content",
      at: "/title",
      reason: "markup",
      problems: [
        { at: "/title", reason: "markup" },
        { at: "/cta/href", reason: "link" },
      ],
    }).read(HOME),
  );
  assert.deepEqual(listed.problems, [
    { at: "/title", reason: "markup" },
    { at: "/cta/href", reason: "link" },
  ]);
  const alone = await failure(
    answering({
      error: "invalid_content",
      at: "/title",
      reason: "markup",
    }).read(HOME),
  );
  assert.deepEqual(alone.problems, [{ at: "/title", reason: "markup" }]);
});

Deno.test("client errors: invalid_content carries every problem, at and reason", async () => {
  await using s = await signedIn();
  const { content, version } = await s.client.read(HOME);
  const page = JSON.parse(content);
  const error = await failure(
    s.client.publish({
      path: HOME,
      content: {
        ...page,
        cta: { link: "javascript:alert(1)" },
        z: "<h3>x</h3>",
      },
      version,
    }),
  );
  assert.equal(error.code, "invalid_content");
  assert.equal(error.at, "/cta/link");
  assert.deepEqual(error.problems, [
    { at: "/cta/link", reason: "link" },
    { at: "/z", reason: "markup" },
  ]);
});

Deno.test("client errors: unsupported_format carries kind", async () => {
  await using s = await signedIn();
  const gif = new Uint8Array([
    ...new TextEncoder().encode("GIF89a"),
    ...[2, 0, 2, 0, 0, 0, 0],
    ...new Uint8Array(64),
  ]);
  assertCode(
    await failure(s.client.upload(new Blob([gif]), "anim")),
    "unsupported_format",
    415,
    { kind: "gif" },
  );
});

Deno.test("client errors: unavailable for a missing repository (502) and a missing KV (503)", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const env = testEnv(kv, { EDITOR_KEY_HASH: await fastHash(KEY) });
    const client = routerClient(env);
    await client.login(KEY);
    assertCode(await failure(client.read(HOME)), "unavailable", 502, {
      repository: "unavailable",
    });
  } finally {
    kv.close();
  }
  const bare = routerClient(testEnv(undefined));
  assertCode(await failure(bare.read(HOME)), "unavailable", 503, {
    repository: undefined,
  });
});

Deno.test("client errors: method_not_allowed for an unserved method; internal for the documented 500", async () => {
  const put = await router.handle(
    new Request(`${ORIGIN}/api/save`, { method: "PUT" }),
    testEnv(undefined),
    from("198.51.100.250"),
  );
  assertCode(mapFailure(put, await put.json()), "method_not_allowed", 405);
  const internal = Response.json({ error: "internal" }, { status: 500 });
  assertCode(
    mapFailure(internal, await internal.json()),
    "internal",
    500,
  );
});

Deno.test("client errors: network when no answer comes, bad_answer for an undocumented shape", async () => {
  const down = createClient({
    origin: ORIGIN,
    fetch: () => Promise.reject(new TypeError("connection refused")),
  });
  const error = await failure(down.read(HOME));
  assertCode(error, "network", 0);
  assert.ok(error.cause instanceof TypeError);
  const odd = createClient({
    origin: ORIGIN,
    fetch: () => Promise.resolve(Response.json({ content: 1 })),
  });
  assertCode(await failure(odd.read(HOME)), "bad_answer", 200);
  const html = createClient({
    origin: ORIGIN,
    fetch: () =>
      Promise.resolve(new Response("<h1>Bad gateway</h1>", { status: 502 })),
  });
  assertCode(await failure(html.read(HOME)), "unavailable", 502, {
    repository: undefined,
  });
});

Deno.test("getPointer and setPointer follow RFC 6901, escapes included, without changing the original", async () => {
  const { setPointer } = await import("../../client/mod.ts");
  const page = { "a/b": { "m~n": [1, 2] }, list: [] as unknown[] };
  assert.equal(getPointer(page, "/a~1b/m~0n/1"), 2);
  assert.equal(getPointer(page, "/a~1b/m~0n/01"), undefined);
  assert.equal(getPointer(page, "/missing/x"), undefined);
  assert.equal(getPointer(page, ""), page);
  const next = setPointer(page, "/a~1b/m~0n/0", 9);
  assert.deepEqual(next["a/b"]["m~n"], [9, 2]);
  assert.deepEqual(page["a/b"]["m~n"], [1, 2]);
  assert.deepEqual(setPointer(page, "/list/-", "x").list, ["x"]);
  assert.throws(() => setPointer(page, "/list/5", 1), RangeError);
  assert.throws(() => getPointer(page, "no-slash"), SyntaxError);
});

Deno.test("the client asks who is logged in, lists a page's history and reads it at a commit", async () => {
  await using s = await signedIn();
  assert.deepEqual(await s.client.session(), {
    editor: { id: "editor", name: "editor", role: "publisher" },
  });
  const { content, version } = await s.client.read(HOME);
  const page = JSON.parse(content) as PageObject;
  await s.client.publish({
    path: HOME,
    content: { ...page, title: "Second" },
    version,
    message: "Second title",
  });
  const { entries } = await s.client.history(HOME);
  assert.deepEqual(entries.map((entry) => [entry.author, entry.message]), [
    ["editor", "Second title"],
    ["Test", "Initial"],
  ]);
  const then = await s.client.readAt(HOME, entries[1]!.commit);
  assert.deepEqual(then, { content, version });
  assert.deepEqual(await s.client.history(HOME, entries[0]!.commit), {
    entries: entries.slice(1),
  });
  assertCode(
    await failure(s.client.readAt(HOME, "0".repeat(40))),
    "not_found",
    404,
  );
  assertCode(
    await failure(s.client.history(HOME, "not-a-commit")),
    "bad_request",
    400,
  );
  await s.client.logout();
  assertCode(await failure(s.client.session()), "unauthorized", 401);
});
