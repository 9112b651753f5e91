/**
 * The whole router against a local double of GitHub's contents API,
 * configured the production way: from the GITHUB_* variables.
 */
import assert from "node:assert/strict";
import { createRouter } from "../../mod.ts";
import type { Env } from "../../mod.ts";
import { type GitHubFault, githubSignedIn } from "../support/github_double.ts";
import {
  answer,
  assertNoSecrets,
  from,
  postJson,
  readRequest,
  signedInEnv,
} from "../support/helpers.ts";
import { gitHashObject, HOME, HOME_TEXT } from "../support/site.ts";

const KEY = "github key";
const router = createRouter({ locales: ["en", "fr"] });

async function setup(
  files: Record<string, string> = { [HOME]: HOME_TEXT },
  extra: Env = {},
) {
  const signed = await githubSignedIn(router, KEY, files, extra);
  const { github, env, cookie } = signed;
  const texts: string[] = [];
  let clients = 0;
  const record = async (response: Response) => {
    texts.push(
      JSON.stringify([...response.headers]),
      await response.clone().text(),
    );
    return await answer(response);
  };
  return {
    github,
    env,
    cookie,
    texts,
    read: async (path = HOME) =>
      await record(
        await router.handle(
          readRequest(path, cookie),
          env,
          from(`10.20.0.${clients++ % 250}`),
        ),
      ),
    save: async (body: unknown) =>
      await record(
        await router.handle(
          postJson("/api/save", body, { cookie }),
          env,
          from(`10.21.0.${clients++ % 250}`),
        ),
      ),
    [Symbol.asyncDispose]: () => signed[Symbol.asyncDispose](),
  };
}

const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);

Deno.test("through GitHub: read, publish, read again, conflicting publish, create", async () => {
  await using s = await setup();
  const first = await s.read();
  assert.deepEqual(first, {
    status: 200,
    body: { content: HOME_TEXT, version: await gitHashObject(HOME_TEXT) },
    headers: first.headers,
  });
  const version = (first.body as { version: string }).version;
  const published = await s.save({
    path: HOME,
    content: '{"title":"Via GitHub"}',
    version,
    message: "Edit\nfrom the page",
  });
  assert.equal(published.status, 200);
  const written = '{\n  "title": "Via GitHub"\n}\n';
  assert.equal(text(s.github.files.get(HOME)), written);
  assert.deepEqual(published.body, { version: await gitHashObject(written) });
  const put = s.github.requests.findLast((r) => r.method === "PUT");
  assert.equal(put?.body?.message, "Edit from the page");
  assert.equal(put?.body?.branch, "main");
  assert.equal(put?.body?.sha, version);
  assert.equal(put?.headers["x-github-api-version"], "2022-11-28");
  assert.equal(put?.headers["accept"], "application/vnd.github+json");
  assert.equal(put?.headers["authorization"], "[redacted]");
  assert.ok(put?.authorized);
  assert.match(put?.headers["user-agent"] ?? "", /inpage-editor/);
  const again = await s.read();
  assert.equal((again.body as { content: string }).content, written);
  const stale = await s.save({
    path: HOME,
    content: '{"title":"Late"}',
    version,
  });
  assert.deepEqual([stale.status, stale.body], [409, { error: "conflict" }]);
  const overwrite = await s.save({
    path: HOME,
    content: '{"title":"Blind"}',
    version: "",
  });
  assert.deepEqual([overwrite.status, overwrite.body], [409, {
    error: "conflict",
  }], "GitHub's 422 without sha");
  const absent = await s.read("src/content/pages/fr/nouvelle.json");
  assert.deepEqual([absent.status, absent.body], [404, { error: "not_found" }]);
  const created = await s.save({
    path: "src/content/pages/fr/nouvelle.json",
    content: '{"title":"Nouvelle"}',
    version: "",
  });
  assert.equal(created.status, 200);
  assert.equal(
    text(s.github.files.get("src/content/pages/fr/nouvelle.json")),
    '{\n  "title": "Nouvelle"\n}\n',
  );
  const create = s.github.requests.findLast((r) => r.method === "PUT");
  assert.equal(create?.body?.sha, undefined, "no sha when creating");
  assert.match(
    s.github.requests.find((r) => r.method === "GET")?.search ?? "",
    /^\?ref=main$/,
  );
  assertNoSecrets([...s.texts, ...s.env.logs], [s.github.token]);
});

Deno.test("through GitHub: each failure maps to its documented answer", async () => {
  await using s = await setup();
  const version = await gitHashObject(HOME_TEXT);
  const rateLimited = {
    "x-ratelimit-remaining": "0",
    "x-ratelimit-reset": "1900000000",
  };
  const forbidden = JSON.stringify({
    message: "Resource not accessible by personal access token",
    status: "403",
  });
  const cases: [string, GitHubFault, "read" | "save", number, unknown][] = [
    ["read 401", { kind: "status", status: 401 }, "read", 502, {
      error: "unauthorized",
    }],
    [
      "read 403",
      { kind: "status", status: 403, body: forbidden },
      "read",
      502,
      { error: "unauthorized" },
    ],
    [
      "read 403 rate limit",
      { kind: "status", status: 403, headers: rateLimited },
      "read",
      502,
      { error: "unavailable" },
    ],
    [
      "read 429 retry-after",
      { kind: "status", status: 429, headers: { "retry-after": "60" } },
      "read",
      502,
      { error: "unavailable" },
    ],
    ["read 500 twice", { kind: "status", status: 500, times: 2 }, "read", 502, {
      error: "unavailable",
    }],
    ["read malformed", { kind: "malformed" }, "read", 502, {
      error: "unavailable",
    }],
    ["write 409", { kind: "status", status: 409, method: "PUT" }, "save", 409, {
      error: "conflict",
    }],
    [
      "write 422 sha",
      {
        kind: "status",
        status: 422,
        method: "PUT",
        body: JSON.stringify({ message: '"sha" wasn\'t supplied.' }),
      },
      "save",
      409,
      { error: "conflict" },
    ],
    ["write 401", { kind: "status", status: 401, method: "PUT" }, "save", 502, {
      error: "unauthorized",
    }],
    [
      "write 403",
      { kind: "status", status: 403, method: "PUT", body: forbidden },
      "save",
      502,
      { error: "unauthorized" },
    ],
    [
      "write 403 rate limit",
      { kind: "status", status: 403, method: "PUT", headers: rateLimited },
      "save",
      502,
      { error: "unavailable" },
    ],
    ["write 404", { kind: "status", status: 404, method: "PUT" }, "save", 502, {
      error: "not_found",
    }],
    ["write 503", { kind: "status", status: 503, method: "PUT" }, "save", 502, {
      error: "unavailable",
    }],
    ["write malformed", { kind: "malformed", method: "PUT" }, "save", 502, {
      error: "unavailable",
    }],
  ];
  for (const [name, fault, route, status, body] of cases) {
    s.github.setFault(fault);
    const result = route === "read"
      ? await s.read()
      : await s.save({ path: HOME, content: '{"title":"x"}', version });
    assert.equal(result.status, status, name);
    assert.deepEqual(result.body, body, name);
  }
  s.github.setFault(null);
  assert.equal(
    text(s.github.files.get(HOME)),
    HOME_TEXT,
    "no failed write changed the file",
  );
  assertNoSecrets([...s.texts, ...s.env.logs], [s.github.token]);
});

Deno.test("through GitHub: a read is retried once on 5xx, a write never", async () => {
  await using s = await setup();
  s.github.setFault({ kind: "status", status: 502, times: 1 });
  const before = s.github.requests.length;
  const read = await s.read();
  assert.equal(read.status, 200);
  assert.equal(s.github.requests.length - before, 2);
  s.github.setFault({ kind: "status", status: 502, times: 1, method: "PUT" });
  const writes = s.github.requests.filter((r) => r.method === "PUT").length;
  const saved = await s.save({
    path: HOME,
    content: "{}",
    version: await gitHashObject(HOME_TEXT),
  });
  assert.deepEqual(saved.body, { error: "unavailable" });
  assert.equal(
    s.github.requests.filter((r) => r.method === "PUT").length - writes,
    1,
  );
});

Deno.test("through GitHub: two racing publishes give one 200 and one 409, the double holds the winner", async () => {
  await using s = await setup();
  const version = await gitHashObject(HOME_TEXT);
  const results = await Promise.all(
    ["A", "B"].map((who) =>
      s.save({ path: HOME, content: JSON.stringify({ title: who }), version })
    ),
  );
  assert.deepEqual(results.map((r) => r.status).sort(), [200, 409]);
  const winner = results[0]?.status === 200 ? "A" : "B";
  assert.equal(
    text(s.github.files.get(HOME)),
    JSON.stringify({ title: winner }, null, 2) + "\n",
  );
});

Deno.test("through GitHub: an unreachable API answers 502 unavailable", async () => {
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (closed.addr as Deno.NetAddr).port;
  closed.close();
  await using s = await setup(undefined, {
    GITHUB_API_URL: `http://127.0.0.1:${port}`,
  });
  const { status, body } = await s.read();
  assert.deepEqual([status, body], [502, { error: "unavailable" }]);
});

Deno.test("through GitHub: a double that never answers gives 502 unavailable within the 10 s bound", async () => {
  await using s = await setup();
  s.github.setFault({ kind: "hang", times: Infinity });
  const started = performance.now();
  const [read, saved] = await Promise.all([
    s.read(),
    s.save({
      path: HOME,
      content: "{}",
      version: await gitHashObject(HOME_TEXT),
    }),
  ]);
  const elapsed = performance.now() - started;
  assert.deepEqual([read.status, read.body], [502, { error: "unavailable" }]);
  assert.deepEqual([saved.status, saved.body], [502, { error: "unavailable" }]);
  assert.ok(
    elapsed >= 9_500 && elapsed < 13_000,
    `answered after ${Math.round(elapsed)} ms`,
  );
});

Deno.test("without a repository the routes answer 502 unavailable and the log names what is missing", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const { env, cookie } = await signedInEnv(router, kv, KEY, {
      GITHUB_TOKEN: "ghp_secretvalue123456",
      GITHUB_REPOSITORY: "not a repo",
    });
    const { status, body } = await answer(
      await router.handle(
        readRequest(HOME, cookie),
        env,
      ),
    );
    assert.deepEqual([status, body], [502, { error: "unavailable" }]);
    const line = env.logs.at(-1) ?? "";
    assert.match(line, /GITHUB_REPOSITORY/);
    assert.ok(!line.includes("ghp_secretvalue123456"));
    assert.ok(
      !line.includes("not a repo"),
      "names the variable, never its value",
    );
  } finally {
    kv.close();
  }
});
