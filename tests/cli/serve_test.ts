import assert from "node:assert/strict";
import { join } from "node:path";
import {
  assertHelpMentions,
  runCli,
  serveCheckout,
  startServeProcess,
} from "../support/cli.ts";
import { gitHashObject, HOME, HOME_TEXT, tempSite } from "../support/site.ts";
import {
  assertNoSecrets,
  assertPublishedOver,
  fastHash,
  logInOver,
} from "../support/helpers.ts";

const KEY = "serve key";

/** A KV file in a temporary folder, removed when disposed. */
async function kvFile(): Promise<AsyncDisposable & { path: string }> {
  const folder = await Deno.makeTempDir({ prefix: "editor-kv-" });
  return {
    path: join(folder, "kv.sqlite3"),
    [Symbol.asyncDispose]: () => Deno.remove(folder, { recursive: true }),
  };
}

Deno.test("editor serve runs the whole flow over a git checkout: log in, read, publish, conflict, log out", async () => {
  await using site = await tempSite();
  const hash = await fastHash(KEY);
  await using kv = await kvFile();
  await using server = await serveCheckout(site.root, {
    kv: kv.path,
    env: { EDITOR_KEY_HASH: hash },
  });
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
  const cookie = await logInOver(server.url, KEY);
  const read = async () => {
    const response = await fetch(`${server.url}api/content?path=${HOME}`, {
      headers: { cookie },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("cache-control"), "no-store");
    return await response.json() as { content: string; version: string };
  };
  const publish = async (
    content: unknown,
    version: string,
    message: string,
  ) => {
    const response = await fetch(`${server.url}api/save`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({
        path: HOME,
        content: JSON.stringify(content),
        version,
        message,
      }),
    });
    return { status: response.status, body: await response.json() };
  };
  const first = await read();
  assert.deepEqual(first, {
    content: HOME_TEXT,
    version: await gitHashObject(HOME_TEXT),
  });
  const one = await publish(
    { title: "One" },
    first.version,
    "Publish one\nwith a second line",
  );
  assert.equal(one.status, 200);
  const second = await read();
  assert.equal(
    second.content,
    JSON.stringify({ title: "One" }, null, 2) + "\n",
  );
  assert.equal(second.version, one.body.version);
  const stale = await publish({ title: "Late" }, first.version, "Too late");
  assert.deepEqual(stale, { status: 409, body: { error: "conflict" } });
  const two = await publish(
    { title: "Two" },
    second.version,
    "Publish\ttwo\u0007",
  );
  assert.equal(two.status, 200);
  const logout = await fetch(`${server.url}api/auth`, {
    method: "DELETE",
    headers: { cookie },
  });
  assert.equal(logout.status, 200);
  await logout.body?.cancel();
  const after = await fetch(`${server.url}api/content?path=${HOME}`, {
    headers: { cookie },
  });
  assert.equal(after.status, 401);
  await after.body?.cancel();
  assert.equal(await server.stop("SIGTERM"), 0);
  assert.deepEqual(
    (await site.git("log", "--format=%s")).trim().split("\n"),
    ["Publish two", "Publish one with a second line", "Initial"],
  );
  const logs = server.stdout().trim().split("\n").slice(1).map((line) =>
    JSON.parse(line)
  );
  assert.deepEqual(logs.map((l) => l.status), [
    200,
    200,
    200,
    200,
    409,
    200,
    200,
    401,
  ]);
  const token = cookie.split("; ")[0]?.split("=")[1] ?? "";
  assertNoSecrets([server.stdout(), server.stderr()], [KEY, hash, token]);
});

Deno.test("editor serve prints a random key once when EDITOR_KEY_HASH is not set, and stops on SIGINT", async () => {
  await using site = await tempSite();
  await using kv = await kvFile();
  await using server = await serveCheckout(site.root, {
    kv: kv.path,
    env: { EDITOR_KEY_HASH: "" },
  });
  const key = /site key for this run is (\S+)/.exec(server.stderr())?.[1];
  assert.ok(key, server.stderr());
  await logInOver(server.url, key);
  assert.equal(await server.stop("SIGINT"), 0);
  assert.equal(
    server.stderr().split(key).length - 1,
    1,
    "printed exactly once",
  );
  assert.ok(!server.stdout().includes(key));
});

Deno.test("editor serve --no-commit writes without committing", async () => {
  await using site = await tempSite();
  await using kv = await kvFile();
  await using server = await serveCheckout(site.root, {
    kv: kv.path,
    args: ["--no-commit"],
    env: { EDITOR_KEY_HASH: await fastHash(KEY) },
  });
  assert.match(server.stdout(), /no commits/);
  const cookie = await logInOver(server.url, KEY);
  await assertPublishedOver(server.url, cookie, {
    path: HOME,
    content: '{"title":"x"}',
    version: await gitHashObject(HOME_TEXT),
  });
  assert.equal(await site.commitCount(), 1);
  assert.equal(await site.read(HOME), '{\n  "title": "x"\n}\n');
  await server.stop();
});

Deno.test("editor serve --demo serves a demo site from a temporary repository and removes it when stopped", async () => {
  await using kv = await kvFile();
  await using server = await startServeProcess([
    "--demo",
    "--port",
    "0",
    "--kv",
    kv.path,
  ], { EDITOR_KEY_HASH: "" });
  const folder = /Demo site: (\S+)/.exec(server.stderr())?.[1] ?? "";
  const key = /site key for this run is (\S+)/.exec(server.stderr())?.[1] ?? "";
  assert.match(server.stdout(), /locales en, fr/);
  const cookie = await logInOver(server.url, key);
  const response = await fetch(
    `${server.url}api/content?path=src/content/pages/fr/accueil.json`,
    {
      headers: { cookie },
    },
  );
  assert.equal(response.status, 200);
  assert.match((await response.json()).content, /Bienvenue/);
  assert.ok((await Deno.stat(folder)).isDirectory);
  assert.equal(await server.stop(), 0);
  await assert.rejects(() => Deno.stat(folder), Deno.errors.NotFound);
});

Deno.test("editor serve refuses a folder without src/content/pages with one line and exit 1", async () => {
  const empty = await Deno.makeTempDir();
  const run = await runCli(["serve", "--repo", empty, "--port", "0"]);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /has no src\/content\/pages folder/);
  assert.equal(run.stderr.trim().split("\n").length, 1);
  await Deno.remove(empty);
});

Deno.test("editor serve refuses a bad EDITOR_KEY_HASH, bad locales and a port in use", async () => {
  await using site = await tempSite();
  const bad = await runCli(["serve", "--repo", site.root, "--port", "0"], "", {
    EDITOR_KEY_HASH: "plaintext",
  });
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /EDITOR_KEY_HASH is not an argon2id hash/);
  assert.ok(!bad.stderr.includes("plaintext"));
  const locales = await runCli(
    ["serve", "--repo", site.root, "--port", "0", "--locales", "en,../x"],
    "",
    {
      EDITOR_KEY_HASH: await fastHash(KEY),
    },
  );
  assert.equal(locales.code, 1);
  assert.match(locales.stderr, /not a language code/);
  await using kv = await kvFile();
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const busy = await runCli(
    [
      "serve",
      "--repo",
      site.root,
      "--port",
      String(port),
      "--kv",
      kv.path,
    ],
    "",
    {
      EDITOR_KEY_HASH: await fastHash(KEY),
    },
  );
  listener.close();
  assert.equal(busy.code, 1);
  assert.match(busy.stderr, new RegExp(`Port ${port} is in use`));
});

Deno.test("editor serve takes its locales from the folders under src/content/pages", async () => {
  await using site = await tempSite({
    "src/content/pages/de/start.json": "{}\n",
  });
  await using kv = await kvFile();
  await using server = await serveCheckout(site.root, {
    kv: kv.path,
    env: { EDITOR_KEY_HASH: await fastHash(KEY) },
  });
  assert.match(server.stdout(), /locales de, en, fr/);
  await server.stop();
});

Deno.test("editor serve refuses an unusable KV file with one line, before printing any key", async () => {
  await using site = await tempSite();
  for (const kv of ["/dev/null/kv.sqlite3", site.root]) {
    const run = await runCli(
      ["serve", "--repo", site.root, "--port", "0", "--kv", kv],
      "",
      { EDITOR_KEY_HASH: "" },
    );
    assert.equal(run.code, 1, kv);
    assert.match(run.stderr, /^editor: Cannot open the KV file /);
    assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
    assert.ok(
      !run.stderr.includes("site key"),
      "no key is shown for a server that never ran",
    );
  }
});

Deno.test("editor serve --help documents every option", async () => {
  await assertHelpMentions("serve", [
    "--repo <dir>",
    "--port <port>",
    "--hostname <address>",
    "--locales <list>",
    "--kv <file>",
    "--no-commit",
    "--demo",
    "--site <dir>",
    "--proxy <url>",
    "/_inpage/loader.js",
    "EDITOR_KEY_HASH",
    "EDITOR_KEYS",
    "editor hash-key --name",
    "to remove one, delete their entry",
    "EDITOR_PREVIEW_SECRET",
    "scheduled",
  ]);
});

Deno.test("editor serve stores an upload in the checkout with identical bytes and one commit", async () => {
  await using site = await tempSite();
  await using kv = await kvFile();
  await using server = await serveCheckout(site.root, {
    kv: kv.path,
    env: { EDITOR_KEY_HASH: await fastHash(KEY) },
  });
  const cookie = await logInOver(server.url, KEY);
  const bytes = await Deno.readFile(
    new URL(
      "../../../shared/corpora/images/image-size/valid/jpg/large.jpg",
      import.meta.url,
    ),
  );
  const form = new FormData();
  form.append("file", new Blob([bytes], { type: "image/jpeg" }), "large.jpg");
  form.append("name", "Large photo");
  const response = await fetch(`${server.url}api/upload`, {
    method: "POST",
    headers: { cookie },
    body: form,
  });
  assert.equal(response.status, 200);
  const { src, width, height } = await response.json();
  assert.match(src, /^large-photo-[0-9a-f]{12}\.jpg$/);
  assert.deepEqual([width, height], [1600, 1200]);
  assert.deepEqual(
    await Deno.readFile(join(site.root, "public/images", src)),
    bytes,
  );
  assert.equal(await site.commitCount(), 2);
  assert.equal(
    (await site.git("log", "-1", "--format=%s")).trim(),
    `Add image ${src}`,
  );
  assert.equal(
    (await site.git("show", "--name-only", "--format=", "HEAD")).trim(),
    `public/images/${src}`,
  );
  assert.equal(await server.stop(), 0);
});

Deno.test("editor serve reads EDITOR_KEYS: a named editor logs in and publishes under their name, without a random key", async () => {
  await using site = await tempSite();
  const key = "alice.serve-secret";
  const editors = JSON.stringify({
    alice: {
      hash: await fastHash(key),
      name: "Alice Martin",
      email: "alice@example.com",
    },
  });
  await using server = await serveCheckout(site.root, {
    env: { EDITOR_KEY_HASH: "", EDITOR_KEYS: editors },
  });
  const cookie = await logInOver(server.url, key);
  const me = await fetch(`${server.url}api/session`, { headers: { cookie } });
  assert.deepEqual(await me.json(), {
    editor: { id: "alice", name: "Alice Martin", role: "publisher" },
  });
  await assertPublishedOver(server.url, cookie, {
    path: HOME,
    content: JSON.stringify({ title: "By Alice" }),
    version: await gitHashObject(HOME_TEXT),
    message: "Alice's title",
  });
  assert.equal(
    (await site.git("log", "-1", "--format=%an <%ae>")).trim(),
    "Alice Martin <alice@example.com>",
  );
});

Deno.test("editor serve refuses a malformed EDITOR_KEYS with one line and exit 1", async () => {
  await using site = await tempSite();
  const run = await runCli(["serve", "--repo", site.root, "--port", "0"], "", {
    EDITOR_KEY_HASH: await fastHash(KEY),
    EDITOR_KEYS: '{"alice": {"hash": "plaintext"}}',
  });
  assert.equal(run.code, 1);
  assert.match(run.stderr, /EDITOR_KEYS: the hash of "alice"/);
  assert.ok(!run.stderr.includes("plaintext"));
  assert.equal(run.stderr.trim().split("\n").length, 1);
});

Deno.test("editor serve refuses an EDITOR_KEYS entry with an unknown role with one line and exit 1", async () => {
  await using site = await tempSite();
  const run = await runCli(["serve", "--repo", site.root, "--port", "0"], "", {
    EDITOR_KEY_HASH: await fastHash(KEY),
    EDITOR_KEYS: JSON.stringify({
      alice: {
        hash: await fastHash("alice.k"),
        name: "Alice",
        email: "alice@example.com",
        role: "admin",
      },
    }),
  });
  assert.equal(run.code, 1);
  assert.match(
    run.stderr,
    /EDITOR_KEYS: the role of "alice" must be "publisher" or "author"/,
  );
  assert.equal(run.stderr.trim().split("\n").length, 1);
});

Deno.test("editor serve publishes a scheduled review itself, and signs preview links with a secret of its own when none is set", async () => {
  await using site = await tempSite();
  const keys = {
    alice: ["alice.serve-publisher", "Alice Martin", undefined],
    bob: ["bob.serve-author", "Bob Stone", "author"],
  } as const;
  const editors: Record<string, unknown> = {};
  for (const [id, [key, name, role]] of Object.entries(keys)) {
    editors[id] = {
      hash: await fastHash(key),
      name,
      email: `${id}@example.com`,
      ...(role ? { role } : {}),
    };
  }
  await using server = await serveCheckout(site.root, {
    env: {
      EDITOR_KEY_HASH: "",
      EDITOR_KEYS: JSON.stringify(editors),
      EDITOR_PREVIEW_SECRET: "",
      EDITOR_SCHEDULE_EVERY_MS: "100",
    },
  });
  const bob = await logInOver(server.url, keys.bob[0]);
  const alice = await logInOver(server.url, keys.alice[0]);
  const post = async (path: string, body: unknown, cookie: string) => {
    const response = await fetch(new URL(path, server.url), {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };
  const sent = await post("api/reviews", {
    message: "Scheduled from serve",
    pages: [{
      path: HOME,
      content: JSON.stringify({ title: "On time" }),
      version: await gitHashObject(HOME_TEXT),
    }],
  }, bob);
  assert.equal(sent.status, 201, JSON.stringify(sent.body));
  const { id, branch } = sent.body as { id: string; branch: string };
  const link = await post("api/reviews/link", { id, hours: 1 }, bob);
  assert.equal(link.status, 200, "a secret was made for this run");
  const preview = await fetch(
    new URL(
      link.body.url.replace(
        "/en/?inpage-preview=",
        "/api/reviews?token=",
      ),
      server.url,
    ),
  );
  assert.equal(preview.status, 200);
  await preview.body?.cancel();
  const before = await site.commitCount();
  const scheduled = await post("api/reviews/schedule", {
    id,
    at: new Date().toISOString(),
  }, alice);
  assert.equal(scheduled.status, 200);
  // The run logs once it is over: commit, branch deleted, review closed.
  const done = new RegExp(
    `review ${id} published as scheduled in [0-9a-f]{40}`,
  );
  const deadline = Date.now() + 20_000;
  while (!done.test(server.stdout()) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.match(server.stdout(), done);
  assert.equal(await site.commitCount(), before + 1, "published by serve");
  assert.equal(JSON.parse((await site.read(HOME))!).title, "On time");
  assert.equal(
    (await site.git("log", "-1", "--format=%an|%s")).trim(),
    "Bob Stone|Scheduled from serve",
  );
  assert.equal(
    (await site.git("branch", "--list", branch)).trim(),
    "",
    "the review's branch is deleted",
  );
  assert.equal(await site.git("status", "--porcelain"), "");
});

Deno.test("editor serve refuses an EDITOR_PREVIEW_SECRET shorter than 32 characters with one line", async () => {
  await using site = await tempSite();
  const run = await runCli(["serve", "--repo", site.root, "--port", "0"], "", {
    EDITOR_KEY_HASH: await fastHash(KEY),
    EDITOR_PREVIEW_SECRET: "short secret",
  });
  assert.equal(run.code, 1);
  assert.match(
    run.stderr,
    /EDITOR_PREVIEW_SECRET is shorter than 32 characters/,
  );
  assert.ok(!run.stderr.includes("short secret"));
  assert.equal(run.stderr.trim().split("\n").length, 1);
});

Deno.test("editor serve refuses an EDITOR_KEYS name or email holding a control or line-breaking character (ESC, C1, U+2028) with one line and exit 1", async () => {
  await using site = await tempSite();
  const hash = await fastHash("alice.serve-secret");
  for (
    const [entry, problem] of [
      [
        { hash, name: "Alice\u001b[2J", email: "a@x.org" },
        /the name of "alice"/,
      ],
      [{ hash, name: "Alice\u009b", email: "a@x.org" }, /the name of "alice"/],
      [{ hash, name: "Alice", email: "a\u2028@x.org" }, /the email of "alice"/],
      [{ hash, name: "Alice", email: "a@x.org\u0085" }, /the email of "alice"/],
    ] as const
  ) {
    const run = await runCli(
      ["serve", "--repo", site.root, "--port", "0"],
      "",
      {
        EDITOR_KEY_HASH: await fastHash(KEY),
        EDITOR_KEYS: JSON.stringify({ alice: entry }),
      },
      30_000,
    );
    assert.equal(run.code, 1);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, problem);
    assert.equal(run.stderr.trim().split("\n").length, 1);
    // deno-lint-ignore no-control-regex
    assert.doesNotMatch(run.stderr, /[\u001b\u0085\u009b\u2028]/);
  }
});
