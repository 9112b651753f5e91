import assert from "node:assert/strict";
import { createContentRoute, createRouter } from "../../mod.ts";
import type { Env } from "../../mod.ts";
import {
  githubEnv,
  type GitHubFault,
  startGitHubDouble,
} from "../support/github_double.ts";
import {
  answer,
  assertNoSecrets,
  fastHash,
  from,
  LOCALES,
  manualClock,
  ORIGIN,
  readRequest,
  testEnv,
} from "../support/helpers.ts";
import {
  gitHashObject,
  HOME,
  HOME_TEXT,
  signedInSite,
} from "../support/site.ts";

const KEY = "content key";
const router = createRouter({ locales: [...LOCALES] });

async function setup(extra: Env = {}) {
  const s = await signedInSite(router, KEY, extra);
  return Object.assign(s, {
    get: (
      query: string,
      headers: Record<string, string> = {},
      client = "192.0.2.1",
    ) =>
      router.handle(
        new Request(`${ORIGIN}/api/content${query}`, {
          headers: { cookie: s.cookie, ...headers },
        }),
        s.env,
        from(client),
      ),
  });
}

Deno.test("content answers 200 with the whole file as text and its git blob version", async () => {
  await using s = await setup();
  const { status, body } = await answer(await s.get(`?path=${HOME}`));
  assert.equal(status, 200);
  assert.deepEqual(body, {
    content: HOME_TEXT,
    version: await gitHashObject(HOME_TEXT),
  });
});

Deno.test("content returns the whole file, a byte order mark included", async () => {
  await using s = await setup();
  const path = "src/content/pages/en/bom.json";
  const bytes = new Uint8Array([
    0xef,
    0xbb,
    0xbf,
    ...new TextEncoder().encode('{"a":1}\n'),
  ]);
  await Deno.writeFile(`${s.site.root}/${path}`, bytes);
  const { status, body } = await answer(await s.get(`?path=${path}`));
  assert.equal(status, 200);
  assert.deepEqual(body, {
    content: '\ufeff{"a":1}\n',
    version: await gitHashObject(bytes),
  });
});

Deno.test("content answers 400 for a missing, repeated or non-whitelisted path", async () => {
  await using s = await setup();
  const queries = [
    "",
    "?path=",
    "?pth=" + HOME,
    `?path=${HOME}&path=${HOME}`,
    "?path=src/content/pages/de/home.json",
    "?path=src/content/pages/en/Home.json",
    "?path=src/content/pages/en/home.JSON",
    "?path=src/content/pages/en/home",
    "?path=src/content/pages/en/home.json/",
    "?path=/src/content/pages/en/home.json",
    "?path=./src/content/pages/en/home.json",
    "?path=src/content/pages/en/../en/home.json",
    "?path=src/content/pages/en/a/b/c/d/e.json",
    "?path=src/content/pages/en/a--b.json",
    "?path=src/content/pages/en/-a.json",
    "?path=src/content/pages/en/a_b.json",
    "?path=src%2Fcontent%2Fpages%2Fen%2F..%2F..%2F..%2Fdeno.json",
    "?path=src/content/pages/en/home.json%00.png",
    "?path=src/content/pages/en/" +
    "a".repeat(120 - "src/content/pages/en/.json".length + 1) + ".json",
  ];
  for (const query of queries) {
    const { status, body } = await answer(await s.get(query));
    assert.equal(status, 400, query);
    assert.deepEqual(body, { error: "bad_request" });
  }
  const longest = "src/content/pages/en/" +
    "a".repeat(120 - "src/content/pages/en/.json".length) + ".json";
  assert.equal(longest.length, 120);
  assert.equal(
    (await s.get(`?path=${longest}`)).status,
    404,
    "120 characters is allowed",
  );
});

Deno.test("content answers 401 without a valid session, before looking at the path", async () => {
  await using s = await setup();
  const cases: Record<string, string>[] = [
    { cookie: "" },
    { cookie: "editor_edit=1" },
    { cookie: "editor_session=forged" },
    { cookie: "editor_session=" + "A".repeat(43) },
    { "sec-fetch-site": "cross-site" },
    { origin: "https://evil.example" },
  ];
  for (const headers of cases) {
    for (const query of [`?path=${HOME}`, "?path=../../etc/passwd"]) {
      const { status, body } = await answer(await s.get(query, headers));
      assert.equal(status, 401, JSON.stringify(headers));
      assert.deepEqual(body, { error: "unauthorized" });
    }
  }
});

Deno.test("content answers 404 when the file does not exist", async () => {
  await using s = await setup();
  const { status, body } = await answer(
    await s.get("?path=src/content/pages/fr/accueil.json"),
  );
  assert.equal(status, 404);
  assert.deepEqual(body, { error: "not_found" });
});

Deno.test("content answers 429 after 60 reads in 5 minutes, even without a session", async () => {
  const clock = manualClock();
  await using s = await setup({ EDITOR_CLOCK: clock.now });
  for (let i = 0; i < 60; i++) {
    assert.equal((await s.get(`?path=${HOME}`, {}, "192.0.2.99")).status, 200);
  }
  const { status, body, headers } = await answer(
    await s.get(`?path=${HOME}`, { cookie: "" }, "192.0.2.99"),
  );
  assert.equal(status, 429);
  assert.deepEqual(body, { error: "Trop de requêtes. Réessayez dans 5 min." });
  assert.equal(headers.get("retry-after"), "300");
  assert.equal(
    (await s.get(`?path=${HOME}`, {}, "192.0.2.98")).status,
    200,
    "another client",
  );
  clock.advance(300_000);
  assert.equal((await s.get(`?path=${HOME}`, {}, "192.0.2.99")).status, 200);
});

Deno.test("content answers 502 with the repository's code when GitHub refuses or fails", async () => {
  await using github = startGitHubDouble({ files: { [HOME]: HOME_TEXT } });
  const cases: [GitHubFault, string][] = [
    [{ kind: "status", status: 401 }, "unauthorized"],
    [{
      kind: "status",
      status: 403,
      body: JSON.stringify({
        message: "Resource not accessible by personal access token",
        documentation_url: "https://docs.github.com/rest/repos/contents",
        status: "403",
      }),
    }, "unauthorized"],
    [
      {
        kind: "status",
        status: 403,
        headers: { "x-ratelimit-remaining": "0" },
      },
      "unavailable",
    ],
    [
      { kind: "status", status: 429, headers: { "retry-after": "60" } },
      "unavailable",
    ],
    [{ kind: "status", status: 503, times: 2 }, "unavailable"],
    [{ kind: "malformed" }, "unavailable"],
  ];
  await using s = await setup({ REPOSITORY: undefined, ...githubEnv(github) });
  assert.equal((await s.get(`?path=${HOME}`)).status, 200);
  for (const [fault, code] of cases) {
    github.setFault(fault);
    const { status, body } = await answer(await s.get(`?path=${HOME}`));
    assert.equal(status, 502, JSON.stringify(fault));
    assert.deepEqual(body, { error: code });
  }
  github.setFault(null);
  assert.equal((await s.get(`?path=${HOME}`)).status, 200);
  assertNoSecrets(s.env.logs, [github.token]);
});

Deno.test("content answers 502 unavailable and logs what is missing without a repository", async () => {
  await using s = await setup();
  const env = testEnv(s.kv, {
    EDITOR_KEY_HASH: s.env.EDITOR_KEY_HASH,
    GITHUB_REPOSITORY: "octo/site",
  });
  const response = await router.handle(
    readRequest(HOME, s.cookie),
    env,
  );
  const { status, body } = await answer(response);
  assert.equal(status, 502);
  assert.deepEqual(body, { error: "unavailable" });
  assert.match(env.logs.at(-1) ?? "", /GITHUB_TOKEN/);
});

Deno.test("content answers 405 with allow GET for other methods", async () => {
  await using s = await setup();
  for (const method of ["POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]) {
    const { status, body, headers } = await answer(
      await router.handle(
        new Request(`${ORIGIN}/api/content?path=${HOME}`, { method }),
        s.env,
      ),
    );
    assert.equal(status, 405, method);
    assert.deepEqual(body, { error: "method_not_allowed" });
    assert.equal(headers.get("allow"), "GET");
  }
});

Deno.test("a session stops working on content after DELETE and after the key hash changes", async () => {
  await using s = await setup();
  assert.equal((await s.get(`?path=${HOME}`)).status, 200);
  const rotated = { ...s.env, EDITOR_KEY_HASH: await fastHash("rotated key") };
  const request = readRequest(HOME, s.cookie);
  assert.equal((await router.handle(request, rotated)).status, 401);
  await router.handle(
    new Request(`${ORIGIN}/api/auth`, {
      method: "DELETE",
      headers: { cookie: s.cookie },
    }),
    s.env,
  );
  assert.equal((await s.get(`?path=${HOME}`)).status, 401);
});

Deno.test("a session expires on content after 8 hours", async () => {
  const clock = manualClock();
  await using s = await setup({ EDITOR_CLOCK: clock.now });
  clock.advance(8 * 3600_000 - 1000);
  assert.equal((await s.get(`?path=${HOME}`)).status, 200);
  clock.advance(1000);
  assert.equal((await s.get(`?path=${HOME}`)).status, 401);
});

Deno.test("createContentRoute is the router's route, usable alone", async () => {
  await using s = await setup();
  const route = createContentRoute({ locales: ["en"] });
  const response = await route.onRequestGet({
    request: readRequest(HOME, s.cookie),
    env: s.env,
  });
  assert.equal(response.status, 200);
  await response.body?.cancel();
  assert.throws(() => createContentRoute({ locales: [] }), TypeError);
});
