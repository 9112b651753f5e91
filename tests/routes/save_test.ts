import assert from "node:assert/strict";
import { createRouter, createSaveRoute } from "../../mod.ts";
import type { Env } from "../../mod.ts";
import {
  githubEnv,
  type GitHubFault,
  startGitHubDouble,
} from "../support/github_double.ts";
import {
  answer,
  from,
  LOCALES,
  manualClock,
  ORIGIN,
  postJson,
} from "../support/helpers.ts";
import {
  gitHashObject,
  HOME,
  HOME_TEXT,
  signedInSite,
} from "../support/site.ts";

const KEY = "save key";
const router = createRouter({ locales: [...LOCALES] });
const PAGE = {
  title: "New title",
  sections: [{ id: "intro", body: "Hi <em>there</em>" }],
};
const written = (page: unknown) => JSON.stringify(page, null, 2) + "\n";

async function setup(extra: Env = {}) {
  const s = await signedInSite(router, KEY, extra);
  return Object.assign(s, {
    version: await gitHashObject(HOME_TEXT),
    save: (
      body: unknown,
      headers: Record<string, string> = {},
      client?: string,
    ) =>
      router.handle(
        postJson("/api/save", body, { cookie: s.cookie, ...headers }),
        s.env,
        client ? from(client) : s.nextClient(),
      ),
  });
}

Deno.test("save answers 200 with the new version, writes the sanitised page and commits it alone", async () => {
  await using s = await setup();
  const before = await s.site.commitCount();
  const { status, body } = await answer(
    await s.save({
      path: HOME,
      content: JSON.stringify(PAGE),
      version: s.version,
      message: "Edit the intro",
    }),
  );
  assert.equal(status, 200);
  const text = await s.site.read(HOME);
  assert.equal(text, written(PAGE));
  assert.deepEqual(body, { version: await gitHashObject(text ?? "") });
  assert.equal(await s.site.commitCount(), before + 1);
  assert.equal(
    (await s.site.git("log", "-1", "--format=%s")).trim(),
    "Edit the intro",
  );
  assert.equal(
    (await s.site.git("show", "--name-only", "--format=", "HEAD")).trim(),
    HOME,
  );
});

Deno.test("save keeps unknown keys and writes indented JSON built from the parsed object", async () => {
  await using s = await setup();
  const page = {
    anything: { nested: [1, 2.5, true, null, "x"] },
    "x-custom": "kept",
    title: "T",
  };
  const { status } = await answer(
    await s.save({
      path: HOME,
      content: JSON.stringify(page),
      version: s.version,
    }),
  );
  assert.equal(status, 200);
  assert.equal(await s.site.read(HOME), written(page));
});

Deno.test("save sanitises strings and keys before writing", async () => {
  await using s = await setup();
  const content =
    '{"title":"a\\r\\nb\\rc\\u0000d\\u007fe\\u0085f\\ud800g","caf\\u0065\\u0301":"Cafe\\u0301"}';
  const { status } = await answer(
    await s.save({ path: HOME, content, version: s.version }),
  );
  assert.equal(status, 200);
  assert.deepEqual(JSON.parse(await s.site.read(HOME) ?? ""), {
    title: "a\nb\ncdef\uFFFDg",
    "caf\u00e9": "Caf\u00e9",
  });
});

Deno.test("save creates a new file with an empty version", async () => {
  await using s = await setup();
  const path = "src/content/pages/fr/nouvelle/page.json";
  const { status, body } = await answer(
    await s.save({ path, content: JSON.stringify(PAGE), version: "" }),
  );
  assert.equal(status, 200);
  assert.equal(await s.site.read(path), written(PAGE));
  assert.deepEqual(body, { version: await gitHashObject(written(PAGE)) });
  assert.equal(
    (await s.site.git("log", "-1", "--format=%s")).trim(),
    `Update ${path}`,
  );
});

Deno.test("save answers 409 for a stale version, an empty version on an existing file and a version for an absent file", async () => {
  await using s = await setup();
  const first = await answer(
    await s.save({
      path: HOME,
      content: JSON.stringify(PAGE),
      version: s.version,
    }),
  );
  assert.equal(first.status, 200);
  const commits = await s.site.commitCount();
  const cases = [
    { path: HOME, version: s.version },
    { path: HOME, version: "" },
    { path: HOME, version: "0".repeat(40) },
    { path: "src/content/pages/en/absent.json", version: s.version },
  ];
  for (const { path, version } of cases) {
    const { status, body } = await answer(
      await s.save({ path, content: '{"title":"late"}', version }),
    );
    assert.equal(status, 409, `${path} ${version}`);
    assert.deepEqual(body, { error: "conflict" });
  }
  assert.equal(await s.site.read(HOME), written(PAGE));
  assert.equal(
    await s.site.read("src/content/pages/en/absent.json"),
    undefined,
  );
  assert.equal(await s.site.commitCount(), commits);
});

Deno.test("save reduces the commit message to one clean line of at most 120 characters", async () => {
  await using s = await setup();
  let version = s.version;
  const cases: [unknown, string][] = [
    ["First line\nsecond line\r\n\tthird", "First line second line third"],
    ["Bell\u0007 and\u0000 nul \u001b[31mred\u202e", "Bell and nul [31mred"],
    ["é".repeat(200), "é".repeat(120)],
    ["   ", `Update ${HOME}`],
    [undefined, `Update ${HOME}`],
    ["x".repeat(119) + "😀😀", "x".repeat(119) + "😀"],
  ];
  for (const [index, [message, expected]] of cases.entries()) {
    const body: Record<string, unknown> = {
      path: HOME,
      content: JSON.stringify({ title: `v${index}` }),
      version,
    };
    if (message !== undefined) body.message = message;
    const response = await answer(await s.save(body));
    assert.equal(response.status, 200);
    version = (response.body as { version: string }).version;
    const subject = (await s.site.git("log", "-1", "--format=%B")).replace(
      /\n+$/,
      "",
    );
    assert.equal(subject, expected);
    assert.ok([...subject].length <= 120);
  }
});

Deno.test("save answers 400 for an unreadable body, a missing field, a path outside the whitelist or a long version", async () => {
  await using s = await setup();
  const content = JSON.stringify(PAGE);
  const bodies: unknown[] = [
    "not json",
    "",
    "[]",
    "null",
    '"text"',
    { content, version: s.version },
    { path: HOME, version: s.version },
    { path: HOME, content },
    { path: HOME, content: PAGE, version: s.version },
    { path: HOME, content, version: 1 },
    { path: HOME, content, version: s.version, message: ["x"] },
    { path: "src/content/pages/de/home.json", content, version: "" },
    {
      path: "src/content/pages/en/../../../../etc/passwd.json",
      content,
      version: "",
    },
    { path: "public/images/x.png", content, version: "" },
    { path: HOME + " ", content, version: s.version },
    { path: HOME, content, version: "v".repeat(201) },
  ];
  for (const body of bodies) {
    const { status, body: json } = await answer(await s.save(body));
    assert.equal(status, 400, JSON.stringify(body).slice(0, 80));
    assert.deepEqual(json, { error: "bad_request" });
  }
  const wrongType = await answer(
    await s.save(JSON.stringify({ path: HOME, content, version: s.version }), {
      "content-type": "text/plain",
    }),
  );
  assert.equal(wrongType.status, 400);
  assert.equal(await s.site.read(HOME), HOME_TEXT);
});

Deno.test("save answers 401 without a valid session", async () => {
  await using s = await setup();
  for (
    const cookie of ["", "editor_edit=1", "editor_session=" + "B".repeat(43)]
  ) {
    const { status, body } = await answer(
      await s.save({ path: HOME, content: "{}", version: s.version }, {
        cookie,
      }),
    );
    assert.equal(status, 401);
    assert.deepEqual(body, { error: "unauthorized" });
  }
  const cross = await answer(
    await s.save({ path: HOME, content: "{}", version: s.version }, {
      origin: "https://evil.example",
    }),
  );
  assert.equal(cross.status, 401);
});

Deno.test("save answers 413 for content over 100,000 bytes and an envelope over 128,000 bytes, declared or received", async () => {
  await using s = await setup();
  const fill = (bytes: number) =>
    JSON.stringify({ title: "x".repeat(bytes - 12) });
  assert.equal(new TextEncoder().encode(fill(100_000)).length, 100_000);
  const over = await answer(
    await s.save({ path: HOME, content: fill(100_001), version: s.version }),
  );
  assert.equal(over.status, 413);
  assert.deepEqual(over.body, { error: "too_large" });
  const multibyte = JSON.stringify({ title: "é".repeat(50_000) });
  assert.equal(
    (await s.save({ path: HOME, content: multibyte, version: s.version }))
      .status,
    413,
    "bytes, not characters",
  );
  const declared = await answer(
    await s.save({ path: HOME, content: "{}", version: s.version }, {
      "content-length": "128001",
    }),
  );
  assert.equal(declared.status, 413);
  const envelope = JSON.stringify({
    path: HOME,
    content: "{}",
    version: s.version,
    pad: "p".repeat(128_000),
  });
  const streamed = new Request(`${ORIGIN}/api/save`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: s.cookie },
    body: new Blob([envelope]).stream(),
  });
  const received = await answer(
    await router.handle(streamed, s.env, from("10.9.9.9")),
  );
  assert.equal(received.status, 413);
  assert.deepEqual(received.body, { error: "too_large" });
  // Sent as it is written, so that the written page is 100,000 bytes too.
  const exact = await answer(
    await s.save({
      path: HOME,
      content: `{\n  "title": "${"x".repeat(100_000 - 18)}"\n}\n`,
      version: s.version,
    }),
  );
  assert.equal(exact.status, 200, "exactly 100,000 bytes is accepted");
});

Deno.test("save answers 422 invalid_content with a JSON Pointer for content that breaks the page rules", async () => {
  await using s = await setup();
  const cases: [string, string, string][] = [
    ["{", "", "json"],
    ["[1]", "", "shape"],
    ['"text"', "", "shape"],
    ['{"a":{"b":[1,{"c":"<script>alert(1)</script>"}]}}', "/a/b/1/c", "markup"],
    ['{"x":[{"id":"one"},{"id":"one"}]}', "/x/1/id", "duplicate_id"],
    ['{"hero":{"src":"../secret.png"}}', "/hero/src", "media"],
    ['{"hero":{"src":"a.jpg","width":0}}', "/hero/width", "media"],
    ['{"link":{"href":"javascript:alert(1)"}}', "/link/href", "link"],
    ['{"t":"<img src=x onerror=alert(1)>"}', "/t", "markup"],
    ['{"t":"<a href=\\"javascript:alert(1)\\">x</a>"}', "/t", "link"],
    ['{"t":"<a href=\\"/ok\\" onclick=\\"x()\\">x</a>"}', "/t", "markup"],
    ['{"a~b/c":"<iframe>"}', "/a~0b~1c", "markup"],
    ['{"__proto__":{"x":1}}', "/__proto__", "key"],
  ];
  for (const [content, at, reason] of cases) {
    const { status, body } = await answer(
      await s.save({ path: HOME, content, version: s.version }),
    );
    assert.equal(status, 422, content);
    assert.deepEqual(
      body,
      { error: "invalid_content", at, reason, problems: [{ at, reason }] },
      content,
    );
  }
  assert.equal(await s.site.read(HOME), HOME_TEXT, "nothing written");
});

Deno.test("save answers 422 with every problem of the page in document order, up to 50, each at and reason only", async () => {
  await using s = await setup();
  const content = JSON.stringify({
    title: "<h3>Features</h3>",
    hero: { src: "Banner.PNG", width: 1200.5, height: 630 },
    button: { link: "javascript:alert(1)", label: "Go" },
    body: "Read [this](javascript:alert(1))",
    sections: [{ id: "a" }, { id: "a" }],
  });
  const { status, body } = await answer(
    await s.save({ path: HOME, content, version: s.version }),
  );
  assert.equal(status, 422);
  assert.deepEqual(body, {
    error: "invalid_content",
    at: "/title",
    reason: "markup",
    problems: [
      { at: "/title", reason: "markup" },
      { at: "/hero/src", reason: "media" },
      { at: "/hero/width", reason: "shape" },
      { at: "/button/link", reason: "link" },
      { at: "/body", reason: "link" },
      { at: "/sections/1/id", reason: "duplicate_id" },
    ],
  });
  // A page with 80 problems: the first 50, in document order.
  const many = JSON.stringify({
    items: Array.from(
      { length: 80 },
      (_, index) => ({ id: `bad id ${index}` }),
    ),
  });
  const capped = await answer(
    await s.save({ path: HOME, content: many, version: s.version }),
  );
  assert.equal(capped.status, 422);
  assert.deepEqual(capped.body, {
    error: "invalid_content",
    at: "/items/0/id",
    reason: "id",
    problems: Array.from(
      { length: 50 },
      (_, index) => ({ at: `/items/${index}/id`, reason: "id" }),
    ),
  });
  assert.equal(await s.site.read(HOME), HOME_TEXT, "nothing written");
});

Deno.test("save answers 429 after 30 publishes in 5 minutes", async () => {
  const clock = manualClock();
  await using s = await setup({ EDITOR_CLOCK: clock.now });
  for (let i = 0; i < 30; i++) {
    const { status } = await answer(
      await s.save({ path: HOME, content: "{", version: "" }, {}, "192.0.2.5"),
    );
    assert.equal(status, 422);
  }
  const { status, body, headers } = await answer(
    await s.save(
      { path: HOME, content: "{}", version: s.version },
      {},
      "192.0.2.5",
    ),
  );
  assert.equal(status, 429);
  assert.deepEqual(body, { error: "Trop de requêtes. Réessayez dans 5 min." });
  assert.equal(headers.get("retry-after"), "300");
});

Deno.test("save checks in order: 429, declared 413, 401, received 413, 400, 422", async () => {
  const clock = manualClock();
  await using s = await setup({ EDITOR_CLOCK: clock.now });
  const client = "192.0.2.6";
  const send = async (body: unknown, headers: Record<string, string> = {}) =>
    (await answer(await s.save(body, headers, client))).status;
  const bad = { path: "nope", content: "{", version: "" };
  const huge = JSON.stringify({ ...bad, pad: "x".repeat(130_000) });
  // A 422 request passes every earlier check.
  assert.equal(await send({ path: HOME, content: "{", version: "" }), 422);
  // Shape beats business rules.
  assert.equal(await send(bad), 400);
  // Received size beats shape: a body sent without a declared length.
  const streamed = new Request(`${ORIGIN}/api/save`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: s.cookie },
    body: new Blob([huge]).stream(),
  });
  assert.equal(
    (await router.handle(streamed, s.env, from(client))).status,
    413,
  );
  // Identity beats received size.
  const anonymous = new Request(`${ORIGIN}/api/save`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: new Blob([huge]).stream(),
  });
  assert.equal(
    (await router.handle(anonymous, s.env, from(client))).status,
    401,
  );
  // Declared size beats identity.
  assert.equal(await send(huge, { cookie: "" }), 413);
  // Rate beats everything: spend the budget, then send the worst request.
  // Only requests past the identity check took slots: spend the rest.
  for (let i = 0; i < 30; i++) await send(bad);
  assert.equal(await send(huge, { cookie: "" }), 429);
});

Deno.test("save answers 502 with the repository's code when GitHub refuses the write", async () => {
  await using github = startGitHubDouble({ files: { [HOME]: HOME_TEXT } });
  await using s = await setup({ REPOSITORY: undefined, ...githubEnv(github) });
  const cases: [GitHubFault, string][] = [
    [{ kind: "status", status: 404, method: "PUT" }, "not_found"],
    [{ kind: "status", status: 401, method: "PUT" }, "unauthorized"],
    [{ kind: "status", status: 500, method: "PUT" }, "unavailable"],
    [{
      kind: "status",
      status: 429,
      method: "PUT",
      headers: { "retry-after": "30" },
    }, "unavailable"],
  ];
  for (const [fault, code] of cases) {
    github.setFault(fault);
    const { status, body } = await answer(
      await s.save({ path: HOME, content: "{}", version: s.version }),
    );
    assert.equal(status, 502, JSON.stringify(fault));
    assert.deepEqual(body, { error: code });
  }
  assert.equal(new TextDecoder().decode(github.files.get(HOME)), HOME_TEXT);
});

Deno.test("save answers 405 with allow POST for other methods", async () => {
  await using s = await setup();
  for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
    const { status, headers } = await answer(
      await router.handle(new Request(`${ORIGIN}/api/save`, { method }), s.env),
    );
    assert.equal(status, 405);
    assert.equal(headers.get("allow"), "POST");
  }
});

Deno.test("20 concurrent publishes with the same version: one 200, nineteen 409, one commit", async () => {
  await using s = await setup();
  const before = await s.site.commitCount();
  const responses = await Promise.all(
    Array.from(
      { length: 20 },
      (_, i) =>
        s.save({
          path: HOME,
          content: JSON.stringify({ title: `writer ${i}` }),
          version: s.version,
        }),
    ),
  );
  const results = await Promise.all(responses.map(answer));
  const winners = results.flatMap((r, i) => r.status === 200 ? [i] : []);
  assert.equal(winners.length, 1);
  assert.equal(results.filter((r) => r.status === 409).length, 19);
  assert.equal(await s.site.commitCount(), before + 1);
  assert.equal(
    await s.site.read(HOME),
    written({ title: `writer ${winners[0]}` }),
  );
});

Deno.test("a publish interrupted after the temporary write leaves the old file whole", async () => {
  await using s = await setup();
  const repository = await s.site.checkout({
    faults: {
      afterTempWrite: () => {
        throw new Error("power cut");
      },
    },
  });
  const env = { ...s.env, REPOSITORY: repository };
  const response = await router.handle(
    postJson("/api/save", {
      path: HOME,
      content: JSON.stringify(PAGE),
      version: s.version,
    }, { cookie: s.cookie }),
    env,
    from("10.7.7.7"),
  );
  const { status, body } = await answer(response);
  assert.equal(status, 502);
  assert.deepEqual(body, { error: "unavailable" });
  assert.equal(await s.site.read(HOME), HOME_TEXT);
  assert.equal(
    (await s.site.git("status", "--porcelain")).trim(),
    "",
    "no temporary file left behind",
  );
});

Deno.test("createSaveRoute checks its locales when it runs", () => {
  assert.throws(() => createSaveRoute({ locales: [] }), TypeError);
  assert.throws(() => createSaveRoute({ locales: ["en", "../x"] }), TypeError);
});
