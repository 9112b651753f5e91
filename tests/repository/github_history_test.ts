import assert from "node:assert/strict";
import { createGitHubRepository } from "../../lib/repository/github.ts";
import {
  gitBlobSha,
  type Repository,
  RepositoryError,
} from "../../lib/repository/repository.ts";
import { nextLink, retryAfterOf } from "../../lib/repository/github_history.ts";
import {
  type GitHubDouble,
  type GitHubDoubleOptions,
  startGitHubDouble,
} from "../support/github_double.ts";
import { createRouter } from "../../mod.ts";
import { answer, fastHash, from, LOCALES, ORIGIN } from "../support/helpers.ts";
import { githubSignedIn } from "../support/github_double.ts";

const PAGE = "src/content/pages/en/home.json";
const OTHER = "src/content/pages/en/about.json";
const encoder = new TextEncoder();
const page = (title: string) =>
  encoder.encode(JSON.stringify({ title }, null, 2) + "\n");
const ALICE = { name: "Alice Martin", email: "alice@example.com" };
const BOB = { name: "Bob Stone", email: "bob@example.com" };

async function withDouble(
  test: (
    double: GitHubDouble,
    repository: Required<Repository>,
  ) => Promise<void>,
  options: GitHubDoubleOptions = {},
): Promise<void> {
  const double = startGitHubDouble({
    files: { [PAGE]: page("Start"), [OTHER]: page("About") },
    ...options,
  });
  try {
    const repository = createGitHubRepository({
      token: double.token,
      repository: double.repository,
      apiUrl: double.url,
    }) as Required<Repository>;
    await test(double, repository);
  } finally {
    await double.close();
  }
}

/** Publishes titles in turn, alternating authors; returns the versions. */
async function publishAll(
  repository: Repository,
  titles: string[],
  authors = [ALICE, BOB],
): Promise<string[]> {
  let version = (await repository.read(PAGE))!.version;
  const versions: string[] = [];
  for (const [index, title] of titles.entries()) {
    version = await repository.write(
      PAGE,
      page(title),
      version,
      `Publish ${title}`,
      authors[index % authors.length],
    );
    versions.push(version);
  }
  return versions;
}

Deno.test("through GitHub: a write carries the editor as the contents API's author, the token's user stays committer", async () => {
  await withDouble(async (double, repository) => {
    await publishAll(repository, ["One"], [ALICE]);
    const put = double.requests.find((request) => request.method === "PUT");
    assert.deepEqual(put?.body?.author, ALICE);
    assert.equal(put?.body?.committer, undefined);
    const commit = double.commits.at(-1)!;
    assert.deepEqual(
      { name: commit.author.name, email: commit.author.email },
      ALICE,
    );
    assert.equal(commit.committer.name, "Double");
    // Without an author (a caller written before authors): none sent.
    const version = (await repository.read(PAGE))!.version;
    await repository.write(PAGE, page("Two"), version, "No author");
    const last = double.requests.filter((request) => request.method === "PUT")
      .at(-1);
    assert.equal(last?.body?.author, undefined);
  });
});

Deno.test("through GitHub: history lists the commits that changed the page, newest first, with the commits list's sha, path and per_page, and each version from the contents API with ref", async () => {
  await withDouble(async (double, repository) => {
    const versions = await publishAll(repository, ["One", "Two", "Three"]);
    // A commit to another page is not in this page's history.
    const about = (await repository.read(OTHER))!.version;
    await repository.write(OTHER, page("About 2"), about, "About", ALICE);
    double.requests.length = 0;
    const entries = (await repository.history(PAGE, { limit: 30 }))!;
    assert.deepEqual(
      entries.map(({ author, message, version }) => [author, message, version]),
      [
        ["Alice Martin", "Publish Three", versions[2]],
        ["Bob Stone", "Publish Two", versions[1]],
        ["Alice Martin", "Publish One", versions[0]],
        ["Double", "Initial", gitBlobSha(page("Start"))],
      ],
    );
    const list = double.requests[0]!;
    assert.match(list.path, /\/repos\/octo\/site\/commits$/);
    const query = new URLSearchParams(list.search);
    assert.equal(query.get("sha"), "main");
    assert.equal(query.get("path"), PAGE);
    assert.equal(query.get("per_page"), "30");
    const reads = double.requests.slice(1);
    assert.equal(reads.length, 4);
    for (const read of reads) {
      assert.match(
        read.path,
        /\/contents\/src\/content\/pages\/en\/home\.json$/,
      );
      const ref = new URLSearchParams(read.search).get("ref");
      assert.ok(entries.some((entry) => entry.commit === ref));
    }
    // Versions at a commit never change: asked again, only the list.
    double.requests.length = 0;
    assert.deepEqual(await repository.history(PAGE, { limit: 30 }), entries);
    assert.equal(double.requests.length, 1);
    // before pages back: from that commit, itself left out.
    const older = await repository.history(PAGE, {
      before: entries[1]!.commit,
      limit: 30,
    });
    assert.deepEqual(older, entries.slice(2));
    const last = new URLSearchParams(double.requests.at(-1)!.search);
    assert.equal(last.get("sha"), entries[1]!.commit);
    assert.equal(last.get("per_page"), "31");
  });
});

Deno.test("through GitHub: history follows the Link header while a page comes back short", async () => {
  await withDouble(async (double, repository) => {
    await publishAll(repository, Array.from({ length: 40 }, (_, i) => `T${i}`));
    double.requests.length = 0;
    const entries = (await repository.history(PAGE, { limit: 30 }))!;
    assert.equal(entries.length, 30);
    assert.equal(entries[0]!.message, "Publish T39");
    assert.equal(entries[29]!.message, "Publish T10");
    const lists = double.requests.filter((request) =>
      request.path.endsWith("/commits")
    );
    // The next pages as GitHub's Link header names them: by repository id.
    assert.match(lists[0]!.path, /\/repos\/octo\/site\/commits$/);
    assert.match(lists[1]!.path, /\/repositories\/1300192\/commits$/);
    assert.deepEqual(
      lists.map((request) => new URLSearchParams(request.search).get("page")),
      [null, "2", "3"],
    );
    for (const request of lists) assert.ok(request.authorized);
  }, { maxPerPage: 10 });
});

Deno.test("through GitHub: nextLink follows only a next link under the API root", () => {
  const prefix = "https://api.github.com/";
  const header = [
    `<${prefix}commits?page=1>; rel="prev"`,
    `<${prefix}commits?page=3>; rel="next"`,
    `<${prefix}commits?page=9>; rel="last"`,
  ].join(", ");
  assert.equal(nextLink(header, prefix), `${prefix}commits?page=3`);
  assert.equal(
    nextLink(`<${prefix}commits?page=9>; rel="last"`, prefix),
    undefined,
  );
  assert.equal(
    nextLink(
      '<http://api.github.com/repos/octo/site/commits?page=2>; rel="next"',
      prefix,
    ),
    undefined,
  );
  assert.equal(
    nextLink(
      '<https://api.github.com.evil.example/repos/octo/site/x>; rel="next"',
      prefix,
    ),
    undefined,
  );
  assert.equal(nextLink(null, prefix), undefined);
  assert.equal(nextLink("garbage", prefix), undefined);
  const ghes = "https://ghe.example.com/api/v3/";
  assert.equal(
    nextLink(`<${ghes}repositories/7/commits?page=2>; rel="next"`, ghes),
    `${ghes}repositories/7/commits?page=2`,
  );
  assert.equal(
    nextLink('<https://ghe.example.com/login?page=2>; rel="next"', ghes),
    undefined,
  );
});

Deno.test("through GitHub: readAt reads the page at a commit with ref; an unknown commit or a page absent then is null", async () => {
  await withDouble(async (double, repository) => {
    const versions = await publishAll(repository, ["One", "Two"]);
    const [two, one, initial] = (await repository.history(PAGE, {
      limit: 30,
    }))!;
    double.requests.length = 0;
    const at = await repository.readAt(PAGE, one!.commit);
    assert.deepEqual(at, { content: page("One"), version: versions[0] });
    assert.equal(
      new URLSearchParams(double.requests[0]!.search).get("ref"),
      one!.commit,
    );
    assert.deepEqual(
      (await repository.readAt(PAGE, two!.commit))?.content,
      page("Two"),
    );
    assert.deepEqual(
      (await repository.readAt(PAGE, initial!.commit))?.content,
      page("Start"),
    );
    const unknown = "0123456789abcdef0123456789abcdef01234567";
    assert.equal(await repository.readAt(PAGE, unknown), null);
    assert.equal(
      await repository.readAt("src/content/pages/fr/none.json", two!.commit),
      null,
    );
    assert.equal(
      await repository.history(PAGE, { before: unknown, limit: 30 }),
      null,
    );
  });
});

Deno.test("through GitHub: only the branch's own history is read: another branch's commit and an annotated tag's id are null, checked with the compare API; a commit of the branch not listed yet is read", async () => {
  await withDouble(async (double, repository) => {
    await publishAll(repository, ["One", "Two"]);
    const [, one] = double.commits.slice(-3).reverse();
    const off = await double.addOffBranchCommit({
      [PAGE]: JSON.stringify({ title: "Unmerged draft" }),
    });
    const tag = await double.addTag(one!.sha);
    for (const commit of [off, tag]) {
      assert.equal(await repository.readAt(PAGE, commit), null, commit);
      assert.equal(
        await repository.history(PAGE, { before: commit, limit: 30 }),
        null,
        commit,
      );
    }
    // A repository that has listed nothing yet asks GitHub to compare.
    const cold = createGitHubRepository({
      token: double.token,
      repository: double.repository,
      apiUrl: double.url,
    }) as Required<Repository>;
    double.requests.length = 0;
    assert.deepEqual(
      (await cold.readAt(PAGE, one!.sha))?.content,
      page("One"),
    );
    assert.equal(
      double.requests[0]!.path,
      `/repos/${double.repository}/compare/main...${one!.sha}`,
    );
    // Once known, not again.
    double.requests.length = 0;
    await cold.readAt(OTHER, one!.sha);
    assert.deepEqual(double.requests.map((request) => request.path), [
      `/repos/${double.repository}/contents/${OTHER}`,
    ]);
  });
});

Deno.test("through GitHub: a page's past as a symbolic link is null, whether GitHub follows it to a file or answers the link, and its history version is empty", async () => {
  const secret = "GITHUB_TOKEN=ghp_notForPages\n";
  await withDouble(async (double, repository) => {
    const followed = await double.addLink(PAGE, "../../../../secrets.txt");
    await repository.write(PAGE, page("Again"), "", "A file again");
    const dangling = await double.addLink(OTHER, "nowhere.json");
    for (const [path, commit] of [[PAGE, followed], [OTHER, dangling]]) {
      assert.equal(await repository.readAt(path!, commit!), null);
    }
    const entries = (await repository.history(PAGE, { limit: 30 }))!;
    const link = entries.find((entry) => entry.commit === followed);
    assert.equal(link?.version, "");
    // The file the link named is there all along.
    assert.deepEqual(
      (await repository.readAt("secrets.txt", followed))?.content,
      encoder.encode(secret),
    );
  }, {
    files: {
      [PAGE]: page("Start"),
      [OTHER]: page("About"),
      "secrets.txt": secret,
    },
  });
});

Deno.test("through GitHub: rate limits (403 secondary with retry-after, 429, 403 with x-ratelimit-reset) are unavailable with the time GitHub gives", async (t) => {
  await withDouble(async (double, repository) => {
    const cases: [
      string,
      number,
      Record<string, string>,
      number | undefined,
    ][] = [
      ["403 secondary rate limit with retry-after", 403, {
        "retry-after": "60",
      }, 60],
      ["429 with retry-after", 429, { "retry-after": "5" }, 5],
      ["429 without a time", 429, {}, undefined],
      [
        "403 primary limit with x-ratelimit-reset",
        403,
        {
          "x-ratelimit-remaining": "0",
          "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 120),
        },
        120,
      ],
    ];
    for (const [name, status, headers, wait] of cases) {
      await t.step(name, async () => {
        for (
          const call of [
            () => repository.history(PAGE, { limit: 30 }),
            () => repository.readAt(PAGE, double.commits[0]!.sha),
          ]
        ) {
          double.setFault({ kind: "status", status, headers });
          const error = await call().then(
            () => assert.fail("should refuse"),
            (error) => error,
          );
          assert.ok(error instanceof RepositoryError);
          assert.equal(error.code, "unavailable");
          if (wait === undefined) {
            assert.equal(error.retryAfterSeconds, undefined);
          } else assert.ok(Math.abs(error.retryAfterSeconds! - wait) <= 1);
          assert.ok(!error.message.includes(double.token));
        }
      });
    }
  });
  assert.equal(retryAfterOf(new Headers({ "retry-after": "999999" }), 0), 3600);
});

Deno.test("through GitHub via the router: history, content at a commit, and a 403 secondary rate limit answered 502 unavailable with retry-after", async () => {
  const router = createRouter({ locales: [...LOCALES] });
  const key = "alice.correct-horse-battery";
  await using s = await githubSignedIn(router, key, { [PAGE]: page("Start") }, {
    EDITOR_KEY_HASH: undefined,
    EDITOR_KEYS: JSON.stringify({
      alice: { hash: await fastHash(key), ...ALICE },
    }),
  });
  const get = (target: string) =>
    router.handle(
      new Request(`${ORIGIN}${target}`, { headers: { cookie: s.cookie } }),
      s.env,
      from("192.0.2.77"),
    );
  const start = (await answer(await get(`/api/content?path=${PAGE}`))).body as {
    version: string;
  };
  const saved = await router.handle(
    new Request(`${ORIGIN}/api/save`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: s.cookie },
      body: JSON.stringify({
        path: PAGE,
        content: JSON.stringify({ title: "By Alice" }),
        version: start.version,
        message: "Alice's title",
      }),
    }),
    s.env,
    from("192.0.2.77"),
  );
  assert.equal(saved.status, 200);
  await saved.body?.cancel();
  assert.deepEqual(
    s.github.requests.find((request) => request.method === "PUT")?.body?.author,
    ALICE,
  );
  const history = await answer(await get(`/api/history?path=${PAGE}`));
  assert.equal(history.status, 200);
  const entries = (history.body as {
    entries: { commit: string; author: string; message: string }[];
  }).entries;
  assert.deepEqual(entries.map((entry) => [entry.author, entry.message]), [
    ["Alice Martin", "Alice's title"],
    ["Double", "Initial"],
  ]);
  const old = await answer(
    await get(`/api/content?path=${PAGE}&commit=${entries[1]!.commit}`),
  );
  assert.deepEqual(old.body, {
    content: new TextDecoder().decode(page("Start")),
    version: gitBlobSha(page("Start")),
  });
  s.github.setFault({
    kind: "status",
    status: 403,
    headers: { "retry-after": "30" },
    body: JSON.stringify({
      message:
        "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
      documentation_url:
        "https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api",
    }),
  });
  const limited = await answer(await get(`/api/history?path=${PAGE}`));
  assert.equal(limited.status, 502);
  assert.deepEqual(limited.body, { error: "unavailable" });
  assert.equal(limited.headers.get("retry-after"), "30");
  s.github.setFault({ kind: "status", status: 429 });
  const again = await answer(
    await get(`/api/content?path=${PAGE}&commit=${entries[1]!.commit}`),
  );
  assert.equal(again.status, 502);
  assert.deepEqual(again.body, { error: "unavailable" });
});
