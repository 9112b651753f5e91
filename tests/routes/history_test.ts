import assert from "node:assert/strict";
import { createRouter, type Env, type Repository } from "../../mod.ts";
import {
  answer,
  cookieFrom,
  fastHash,
  from,
  LOCALES,
  ORIGIN,
  postJson,
} from "../support/helpers.ts";
import { HOME, HOME_TEXT, siteEnv } from "../support/site.ts";
import { uploadRequest } from "../support/upload.ts";
import { pngOfSize } from "../support/image_fixtures.ts";

const router = createRouter({ locales: [...LOCALES] });
const ALICE = "alice.correct-horse-battery";
const BOB = "bob.staple-river-lantern";
const SITE_KEY = "the plain site key";

async function team(): Promise<string> {
  return JSON.stringify({
    alice: {
      hash: await fastHash(ALICE),
      name: "Alice Martin",
      email: "alice@example.com",
    },
    bob: {
      hash: await fastHash(BOB),
      name: "Bob Stone",
      email: "bob@example.com",
    },
  });
}

let address = 0;
const client = () => from(`203.0.113.${(address++ % 250) + 1}`);

async function logIn(key: string, env: Env): Promise<string> {
  const response = await router.handle(
    postJson("/api/auth", { key }),
    env,
    client(),
  );
  assert.equal(response.status, 200);
  await response.body?.cancel();
  return cookieFrom(response);
}

async function publish(
  env: Env,
  cookie: string,
  content: string,
  version: string,
  message: string,
): Promise<string> {
  const response = await router.handle(
    postJson("/api/save", { path: HOME, content, version, message }, {
      cookie,
    }),
    env,
    client(),
  );
  const { status, body } = await answer(response);
  assert.equal(status, 200, JSON.stringify(body));
  return (body as { version: string }).version;
}

function get(env: Env, cookie: string, target: string): Promise<Response> {
  return router.handle(
    new Request(`${ORIGIN}${target}`, { headers: { cookie } }),
    env,
    client(),
  );
}

const page = (title: string) =>
  JSON.stringify({ title, sections: [] }, null, 2) + "\n";

interface Entry {
  commit: string;
  version: string;
  date: string;
  author: string;
  message: string;
}

Deno.test("a publish by alice is a commit authored by Alice Martin, an upload too, and the plain key's by editor", async () => {
  await using s = await siteEnv(SITE_KEY, {
    extra: { EDITOR_KEYS: await team() },
  });
  const alice = await logIn(ALICE, s.env);
  const start = await (await s.env.REPOSITORY!.read(HOME))!.version;
  const version = await publish(s.env, alice, page("A"), start, "By Alice");
  const author = await s.site.git("log", "-1", "--format=%an <%ae>|%s");
  assert.equal(author.trim(), "Alice Martin <alice@example.com>|By Alice");
  // The committer stays git's own identity.
  const committer = await s.site.git("log", "-1", "--format=%cn");
  assert.equal(committer.trim(), "Test");
  const plain = await logIn(SITE_KEY, s.env);
  await publish(s.env, plain, page("P"), version, "By the site key");
  assert.equal(
    (await s.site.git("log", "-1", "--format=%an <%ae>")).trim(),
    "editor <editor@inpage.invalid>",
  );
  const bob = await logIn(BOB, s.env);
  const uploaded = await router.handle(
    await uploadRequest(pngOfSize(200, 20, 10), { cookie: bob, name: "Team" }),
    s.env,
    client(),
  );
  assert.equal(uploaded.status, 200);
  await uploaded.body?.cancel();
  assert.equal(
    (await s.site.git("log", "-1", "--format=%an <%ae>|%s")).trim().replace(
      /team-[0-9a-f]+\.png/,
      "team.png",
    ),
    "Bob Stone <bob@example.com>|Add image team.png",
  );
  const log = s.env.logs.map((line) => JSON.parse(line)).filter((line) =>
    line.route === "/api/save" || line.route === "/api/upload"
  );
  assert.deepEqual(log.map((line) => line.editor), ["alice", "editor", "bob"]);
});

Deno.test("history lists three publishes by two editors, newest first, and content at each commit is that commit's bytes", async () => {
  await using s = await siteEnv(SITE_KEY, {
    extra: { EDITOR_KEYS: await team() },
  });
  const alice = await logIn(ALICE, s.env);
  const bob = await logIn(BOB, s.env);
  let version = (await s.env.REPOSITORY!.read(HOME))!.version;
  const texts = [page("One"), page("Two"), page("Three")];
  version = await publish(s.env, alice, texts[0]!, version, "First by Alice");
  version = await publish(s.env, bob, texts[1]!, version, "Then Bob");
  version = await publish(s.env, alice, texts[2]!, version, "Alice again");
  // An unrelated commit does not appear in the page's history.
  await s.site.git(
    "commit",
    "--quiet",
    "--allow-empty",
    "-m",
    "Unrelated",
  );
  const { status, body } = await answer(
    await get(s.env, alice, `/api/history?path=${HOME}`),
  );
  assert.equal(status, 200);
  const entries = (body as { entries: Entry[] }).entries;
  assert.deepEqual(
    entries.map(({ author, message }) => [author, message]),
    [
      ["Alice Martin", "Alice again"],
      ["Bob Stone", "Then Bob"],
      ["Alice Martin", "First by Alice"],
      ["Test", "Initial"],
    ],
  );
  const commits = (await s.site.git("log", "--format=%H", "--", HOME))
    .trim().split("\n");
  assert.deepEqual(entries.map((entry) => entry.commit), commits);
  assert.equal(entries[0]!.version, version);
  for (const entry of entries) {
    assert.match(entry.date, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-Z]/);
  }
  const expected = [...texts].reverse().concat(HOME_TEXT);
  for (const [index, entry] of entries.entries()) {
    const read = await answer(
      await get(s.env, bob, `/api/content?path=${HOME}&commit=${entry.commit}`),
    );
    assert.equal(read.status, 200);
    const shown = await s.site.git("show", `${entry.commit}:${HOME}`);
    assert.deepEqual(read.body, { content: shown, version: entry.version });
    assert.equal(shown, expected[index]);
  }
  // The unrelated commit did not touch the page: the page as it was then.
  const head = (await s.site.git("rev-parse", "HEAD")).trim();
  const atHead = await answer(
    await get(s.env, bob, `/api/content?path=${HOME}&commit=${head}`),
  );
  assert.deepEqual(atHead.body, { content: texts[2], version });
  // before pages back, the named commit left out.
  const older = await answer(
    await get(
      s.env,
      bob,
      `/api/history?path=${HOME}&before=${entries[1]!.commit}`,
    ),
  );
  assert.deepEqual(
    (older.body as { entries: Entry[] }).entries,
    entries.slice(2),
  );
});

Deno.test("history answers 30 entries a page, and before pages back through 65 publishes", async () => {
  await using s = await siteEnv(SITE_KEY);
  const cookie = await logIn(SITE_KEY, s.env);
  const repository = s.env.REPOSITORY!;
  let version = (await repository.read(HOME))!.version;
  for (let index = 0; index < 64; index++) {
    version = await repository.write(
      HOME,
      new TextEncoder().encode(page(`Title ${index}`)),
      version,
      `Publish ${index}`,
    );
  }
  const seen: Entry[] = [];
  let before = "";
  for (;;) {
    const { status, body } = await answer(
      await get(
        s.env,
        cookie,
        `/api/history?path=${HOME}${before ? `&before=${before}` : ""}`,
      ),
    );
    assert.equal(status, 200);
    const { entries } = body as { entries: Entry[] };
    assert.ok(entries.length <= 30);
    if (entries.length === 0) break;
    seen.push(...entries);
    before = entries.at(-1)!.commit;
  }
  assert.equal(seen.length, 65);
  assert.equal(seen[0]!.message, "Publish 63");
  assert.equal(seen.at(-1)!.message, "Initial");
  assert.equal(new Set(seen.map((entry) => entry.commit)).size, 65);
});

Deno.test("history and content at a commit answer the documented errors", async (t) => {
  await using s = await siteEnv(SITE_KEY);
  const cookie = await logIn(SITE_KEY, s.env);
  const head = (await s.site.git("rev-parse", "HEAD")).trim();
  const tree = (await s.site.git("rev-parse", "HEAD^{tree}")).trim();
  const unknown = "0123456789abcdef0123456789abcdef01234567";
  const cases: [string, string, number, unknown][] = [
    ["a path outside the rules", `/api/history?path=.git/config`, 400, {
      error: "bad_request",
    }],
    [
      "a traversal, percent-encoded",
      `/api/history?path=src/content/pages/en/%2e%2e/%2e%2e/x.json`,
      400,
      { error: "bad_request" },
    ],
    ["no path", `/api/history`, 400, { error: "bad_request" }],
    ["a malformed before", `/api/history?path=${HOME}&before=HEAD`, 400, {
      error: "bad_request",
    }],
    [
      "an option as before",
      `/api/history?path=${HOME}&before=--output=x`,
      400,
      { error: "bad_request" },
    ],
    ["an unknown before", `/api/history?path=${HOME}&before=${unknown}`, 404, {
      error: "not_found",
    }],
    [
      "a malformed commit",
      `/api/content?path=${HOME}&commit=${head.toUpperCase()}`,
      400,
      { error: "bad_request" },
    ],
    [
      "a short commit",
      `/api/content?path=${HOME}&commit=${head.slice(0, 12)}`,
      400,
      { error: "bad_request" },
    ],
    [
      "two commits",
      `/api/content?path=${HOME}&commit=${head}&commit=${head}`,
      400,
      { error: "bad_request" },
    ],
    [
      "an unknown commit",
      `/api/content?path=${HOME}&commit=${unknown}`,
      404,
      { error: "not_found" },
    ],
    [
      "a tree's id as the commit",
      `/api/content?path=${HOME}&commit=${tree}`,
      404,
      { error: "not_found" },
    ],
    [
      "a page that did not exist at that commit",
      `/api/content?path=src/content/pages/fr/home.json&commit=${head}`,
      404,
      { error: "not_found" },
    ],
    [
      "a path outside the rules with a commit",
      `/api/content?path=README.md&commit=${head}`,
      400,
      { error: "bad_request" },
    ],
  ];
  for (const [name, target, status, body] of cases) {
    await t.step(name, async () => {
      const got = await answer(await get(s.env, cookie, target));
      assert.equal(got.status, status);
      assert.deepEqual(got.body, body);
    });
  }
  await t.step("no session: 401 before anything", async () => {
    const got = await answer(
      await get(s.env, "", `/api/history?path=.git/config`),
    );
    assert.equal(got.status, 401);
    assert.deepEqual(got.body, { error: "unauthorized" });
  });
  assert.equal(
    (await s.site.git("status", "--porcelain")).trim(),
    "",
    "nothing written",
  );
});

Deno.test("history answers only the checked-out branch's own history: another branch's commit, an annotated tag's id and a page's past as a symbolic link are 404, never the link's target", async () => {
  await using s = await siteEnv(SITE_KEY);
  const cookie = await logIn(SITE_KEY, s.env);
  const git = (...args: string[]) => s.site.git(...args);
  const root = s.site.root;
  const head = async () => (await git("rev-parse", "HEAD")).trim();
  // A secret the page's past as a link named.
  await Deno.writeTextFile(`${root}/secret.txt`, "GITHUB_TOKEN=ghp_secret\n");
  await git("add", "secret.txt");
  await git("commit", "-q", "-m", "A file that is no page");
  await Deno.remove(`${root}/${HOME}`);
  await Deno.symlink("../../../../secret.txt", `${root}/${HOME}`);
  await git("add", "-A");
  await git("commit", "-q", "-m", "The page as a link");
  const linked = await head();
  await Deno.remove(`${root}/${HOME}`);
  await Deno.writeTextFile(`${root}/${HOME}`, HOME_TEXT);
  await git("add", "-A");
  await git("commit", "-q", "-m", "The page as a file again");
  const main = await head();
  // Another branch, not merged; then back.
  const branch = (await git("rev-parse", "--abbrev-ref", "HEAD")).trim();
  await git("checkout", "-q", "-b", "draft");
  await Deno.writeTextFile(`${root}/${HOME}`, page("Unmerged draft"));
  await git("commit", "-q", "-am", "Draft");
  const draft = await head();
  await git("checkout", "-q", branch);
  await git("tag", "-a", "v1", "-m", "A tag", main);
  const tag = (await git("rev-parse", "v1")).trim();
  assert.notEqual(tag, main);

  for (const [commit, name] of [[draft, "another branch"], [tag, "a tag"]]) {
    for (
      const target of [
        `/api/content?path=${HOME}&commit=${commit}`,
        `/api/history?path=${HOME}&before=${commit}`,
      ]
    ) {
      const got = await answer(await get(s.env, cookie, target));
      assert.equal(got.status, 404, `${name}: ${target}`);
      assert.deepEqual(got.body, { error: "not_found" });
    }
  }
  const past = await answer(
    await get(s.env, cookie, `/api/content?path=${HOME}&commit=${linked}`),
  );
  assert.equal(past.status, 404);
  assert.doesNotMatch(JSON.stringify(past.body), /secret/);
  const history = await answer(
    await get(s.env, cookie, `/api/history?path=${HOME}`),
  );
  const entries = (history.body as { entries: Entry[] }).entries;
  assert.equal(entries.find((entry) => entry.commit === linked)?.version, "");
  assert.ok(!entries.some((entry) => entry.commit === draft));
  // The branch's own commits are answered.
  const now = await answer(
    await get(s.env, cookie, `/api/content?path=${HOME}&commit=${main}`),
  );
  assert.equal(now.status, 200);
});

Deno.test("history and session have budgets of their own (30 and 120 per 5 minutes), apart from the content route's 60 reads", async () => {
  await using s = await siteEnv(SITE_KEY);
  const cookie = await logIn(SITE_KEY, s.env);
  const info = from("192.0.2.99");
  const send = async (target: string) => {
    const response = await router.handle(
      new Request(`${ORIGIN}${target}`, { headers: { cookie } }),
      s.env,
      info,
    );
    await response.body?.cancel();
    return response;
  };
  const read = `/api/content?path=${HOME}`;
  const history = `/api/history?path=${HOME}`;
  // The reads are all spent: history and session go on.
  for (let index = 0; index < 60; index++) {
    assert.equal((await send(read)).status, 200);
  }
  assert.equal((await send(read)).status, 429);
  for (let index = 0; index < 30; index++) {
    assert.equal((await send(history)).status, 200, `history ${index}`);
  }
  for (let index = 0; index < 120; index++) {
    assert.equal((await send("/api/session")).status, 200, `session ${index}`);
  }
  for (const target of [history, "/api/session", read]) {
    const refused = await send(target);
    assert.equal(refused.status, 429, target);
    assert.ok(refused.headers.has("retry-after"));
  }
});

Deno.test("a repository without history answers 502 unavailable to history and to a read at a commit", async () => {
  await using s = await siteEnv(SITE_KEY, {
    repository: (checkout) => ({
      read: (path) => checkout.read(path),
      write: (path, content, expected, message) =>
        checkout.write(path, content, expected, message),
    } satisfies Repository),
  });
  const cookie = await logIn(SITE_KEY, s.env);
  const head = (await s.site.git("rev-parse", "HEAD")).trim();
  for (
    const target of [
      `/api/history?path=${HOME}`,
      `/api/content?path=${HOME}&commit=${head}`,
    ]
  ) {
    const got = await answer(await get(s.env, cookie, target));
    assert.equal(got.status, 502);
    assert.deepEqual(got.body, { error: "unavailable" });
  }
  // A custom repository written before authors still publishes.
  const version = (await s.env.REPOSITORY!.read(HOME))!.version;
  await publish(s.env, cookie, page("Custom"), version, "Custom repository");
});

Deno.test("a checkout that does not commit answers 502 unavailable to history", async () => {
  await using s = await siteEnv(SITE_KEY, { commit: false });
  const cookie = await logIn(SITE_KEY, s.env);
  const got = await answer(
    await get(s.env, cookie, `/api/history?path=${HOME}`),
  );
  assert.equal(got.status, 502);
  assert.deepEqual(got.body, { error: "unavailable" });
});
