/**
 * The GitHub double against GitHub's documented shapes
 * (https://docs.github.com/rest/git, .../apps/apps#create-an-installation-
 * access-token-for-an-app, .../using-the-rest-api/best-practices-for-using-
 * the-rest-api#use-conditional-requests-if-appropriate): the Git Data API's
 * answers and refusals, trees under the object names real git gives them,
 * ETags and 304s that cost no budget, and installation tokens for a JWT
 * checked against the app's key.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { appJwt } from "../../lib/repository/github_app.ts";
import { pkcs8FromPem } from "../../lib/repository/private_key.ts";
import { decodeBase64, encodeBase64 } from "../../lib/encoding/bytes.ts";
import { gitBlobSha } from "../../lib/repository/repository.ts";
import { appKeys } from "../support/github_app_double.ts";
import {
  type GitHubDouble,
  startGitHubDouble,
} from "../support/github_double.ts";
import { gitIn } from "../support/git.ts";
import { manualClock } from "../support/helpers.ts";

const HOME = "src/content/pages/en/home.json";
const IMAGE = "public/images/sea-0123456789ab.png";
const PNG = Uint8Array.from({ length: 200 }, (_, index) => (index * 7) % 256);

function caller(double: GitHubDouble, token = double.token) {
  return async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const response = await fetch(`${double.url}${path}`, {
      method,
      headers: {
        "Accept": "application/vnd.github+json",
        "Authorization": `Bearer ${token}`,
        "User-Agent": "double-test",
        "X-GitHub-Api-Version": "2022-11-28",
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text === "" ? undefined : JSON.parse(text),
    };
  };
}

Deno.test("the double's trees carry the object names real git gives the same files", async () => {
  await using double = startGitHubDouble();
  const call = caller(double);
  const page = '{"title":"Home"}\n';
  const blob = await call("POST", "/repos/octo/site/git/blobs", {
    content: encodeBase64(PNG),
    encoding: "base64",
  });
  assert.equal(blob.status, 201);
  assert.deepEqual(Object.keys(blob.body).sort(), ["sha", "url"]);
  assert.equal(blob.body.sha, gitBlobSha(PNG));
  const tree = await call("POST", "/repos/octo/site/git/trees", {
    tree: [
      { path: HOME, mode: "100644", type: "blob", content: page },
      { path: IMAGE, mode: "100644", type: "blob", sha: blob.body.sha },
    ],
  });
  assert.equal(tree.status, 201);
  assert.deepEqual(Object.keys(tree.body).sort(), [
    "sha",
    "tree",
    "truncated",
    "url",
  ]);
  assert.deepEqual(
    tree.body.tree.map((entry: { path: string; type: string }) => [
      entry.path,
      entry.type,
    ]),
    [["public", "tree"], ["src", "tree"]],
  );
  const root = await Deno.makeTempDir({ prefix: "double-tree-" });
  try {
    const git = gitIn(root);
    await git("init", "--quiet");
    await Deno.mkdir(join(root, "src/content/pages/en"), { recursive: true });
    await Deno.mkdir(join(root, "public/images"), { recursive: true });
    await Deno.writeTextFile(join(root, HOME), page);
    await Deno.writeFile(join(root, IMAGE), PNG);
    await git("add", "--all");
    assert.equal((await git("write-tree")).trim(), tree.body.sha);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
  const read = await call("GET", `/repos/octo/site/git/blobs/${blob.body.sha}`);
  assert.equal(read.body.encoding, "base64");
  assert.deepEqual(decodeBase64(read.body.content), PNG);
});

Deno.test("commits and references: the documented answers, and a move that is not a fast forward refused 422", async () => {
  await using double = startGitHubDouble({ files: { [HOME]: "{}\n" } });
  const call = caller(double);
  const head = await call("GET", "/repos/octo/site/git/ref/heads/main");
  assert.equal(head.status, 200);
  assert.deepEqual(Object.keys(head.body).sort(), [
    "node_id",
    "object",
    "ref",
    "url",
  ]);
  assert.equal(head.body.ref, "refs/heads/main");
  assert.equal(head.body.object.type, "commit");
  const base = await call(
    "GET",
    `/repos/octo/site/git/commits/${head.body.object.sha}`,
  );
  const tree = await call("POST", "/repos/octo/site/git/trees", {
    base_tree: base.body.tree.sha,
    tree: [{ path: HOME, mode: "100644", type: "blob", content: "[]\n" }],
  });
  const commit = await call("POST", "/repos/octo/site/git/commits", {
    message: "Next",
    tree: tree.body.sha,
    parents: [head.body.object.sha],
    author: { name: "Alice", email: "alice@example.com" },
  });
  assert.equal(commit.status, 201);
  assert.deepEqual(Object.keys(commit.body).sort(), [
    "author",
    "committer",
    "html_url",
    "message",
    "node_id",
    "parents",
    "sha",
    "tree",
    "url",
    "verification",
  ]);
  assert.equal(commit.body.parents[0].sha, head.body.object.sha);
  const sideways = await call("POST", "/repos/octo/site/git/commits", {
    message: "Sideways",
    tree: tree.body.sha,
    parents: [],
  });
  const refused = await call("PATCH", "/repos/octo/site/git/refs/heads/main", {
    sha: sideways.body.sha,
    force: false,
  });
  assert.equal(refused.status, 422);
  assert.equal(refused.body.message, "Update is not a fast forward");
  const moved = await call("PATCH", "/repos/octo/site/git/refs/heads/main", {
    sha: commit.body.sha,
    force: false,
  });
  assert.equal(moved.status, 200);
  assert.equal(moved.body.object.sha, commit.body.sha);
  assert.equal(new TextDecoder().decode(double.files.get(HOME)), "[]\n");
  assert.equal(double.commits.at(-1)!.author.name, "Alice");
  const created = await call("POST", "/repos/octo/site/git/refs", {
    ref: "refs/heads/inpage/review/1",
    sha: sideways.body.sha,
  });
  assert.equal(created.status, 201);
  const again = await call("POST", "/repos/octo/site/git/refs", {
    ref: "refs/heads/inpage/review/1",
    sha: sideways.body.sha,
  });
  assert.deepEqual([again.status, again.body.message], [
    422,
    "Reference already exists",
  ]);
  const forced = await call(
    "PATCH",
    "/repos/octo/site/git/refs/heads/inpage/review/1",
    {
      sha: commit.body.sha,
      force: true,
    },
  );
  assert.equal(forced.status, 200);
  const deleted = await call(
    "DELETE",
    "/repos/octo/site/git/refs/heads/inpage/review/1",
  );
  assert.deepEqual([deleted.status, deleted.body], [204, undefined]);
  const gone = await call(
    "DELETE",
    "/repos/octo/site/git/refs/heads/inpage/review/1",
  );
  assert.deepEqual([gone.status, gone.body.message], [
    422,
    "Reference does not exist",
  ]);
  const bad = await call("POST", "/repos/octo/site/git/trees", {
    tree: [{ path: IMAGE, mode: "100644", type: "blob", sha: "f".repeat(40) }],
  });
  assert.equal(bad.status, 422);
});

Deno.test("a GET answers an ETag; sent back as If-None-Match it is a 304 without a body that leaves the budget as it was", async () => {
  await using double = startGitHubDouble({ files: { [HOME]: "{}\n" } });
  const call = caller(double);
  const path = `/repos/octo/site/contents/${HOME}`;
  const first = await call("GET", path);
  const etag = first.headers.get("etag")!;
  assert.match(etag, /^W\/"[0-9a-f]{64}"$/);
  const remaining = first.headers.get("x-ratelimit-remaining");
  const second = await call("GET", path, undefined, { "If-None-Match": etag });
  assert.deepEqual([second.status, second.body], [304, undefined]);
  assert.equal(second.headers.get("etag"), etag);
  assert.equal(second.headers.get("x-ratelimit-remaining"), remaining);
  double.publishElsewhere({ [HOME]: "[]\n" });
  const third = await call("GET", path, undefined, { "If-None-Match": etag });
  assert.equal(third.status, 200);
  assert.notEqual(third.headers.get("etag"), etag);
  assert.equal(
    Number(third.headers.get("x-ratelimit-remaining")),
    Number(remaining) - 1,
  );
});

Deno.test("installation tokens: the documented answer for a valid JWT, refusals for a wrong one, and a token that stops at its expiry", async () => {
  const clock = manualClock(Date.UTC(2026, 5, 1, 12));
  const keys = await appKeys();
  await using double = startGitHubDouble({
    files: { [HOME]: "{}\n" },
    app: { id: "4242", publicKey: keys.publicKey, installationId: "77" },
    clock: clock.now,
  });
  const key = await crypto.subtle.importKey(
    "pkcs8",
    pkcs8FromPem(keys.pkcs1) as Uint8Array<ArrayBuffer>,
    { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const exchange = async (jwt: string, installation = "77") =>
    await caller(double, jwt)(
      "POST",
      `/app/installations/${installation}/access_tokens`,
    );
  const granted = await exchange(await appJwt(key, "4242", clock.now()));
  assert.equal(granted.status, 201);
  assert.deepEqual(Object.keys(granted.body).sort(), [
    "expires_at",
    "permissions",
    "repository_selection",
    "token",
  ]);
  assert.match(granted.body.token, /^ghs_/);
  assert.equal(granted.body.expires_at, "2026-06-01T13:00:00Z");
  const early = await exchange(
    await appJwt(key, "4242", clock.now() + 120_000),
  );
  assert.match(early.body.message, /'Issued at' claim/);
  const late = await exchange(await appJwt(key, "4242", clock.now() - 600_000));
  assert.match(late.body.message, /'Expiration time' claim/);
  assert.equal(
    (await exchange(await appJwt(key, "1", clock.now()))).status,
    401,
  );
  assert.equal(
    (await exchange(await appJwt(key, "4242", clock.now()), "78")).status,
    404,
  );
  const read = caller(double, granted.body.token);
  const path = `/repos/octo/site/contents/${HOME}`;
  assert.equal((await read("GET", path)).status, 200);
  clock.advance(3_600_000);
  const expired = await read("GET", path);
  assert.deepEqual([expired.status, expired.body.message], [
    401,
    "Bad credentials",
  ]);
});
