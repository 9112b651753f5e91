/**
 * GitHub reads are conditional: the `ETag` of the last answer for a path is
 * sent back as `If-None-Match` (kept in the process and in the KV), a 304
 * is served from what was kept and costs no budget, and every GitHub call
 * writes a log line with GitHub's remaining budget, never the token.
 */
import assert from "node:assert/strict";
import { createGitHubRepository } from "../../lib/repository/github.ts";
import { forgetKeptAnswers } from "../../lib/repository/github_etags.ts";
import { createRouter } from "../../mod.ts";
import {
  type GitHubDouble,
  githubSignedIn,
  startGitHubDouble,
} from "../support/github_double.ts";
import {
  answer,
  assertNoSecrets,
  from,
  postJson,
  readRequest,
} from "../support/helpers.ts";
import { uploadRequest } from "../support/upload.ts";

const HOME = "src/content/pages/en/home.json";
const HOME_TEXT = JSON.stringify({ title: "Home", body: "x".repeat(5000) });
const PNG = await Deno.readFile(
  new URL(
    "../../../shared/corpora/images/pngsuite/basn6a08.png",
    import.meta.url,
  ),
);

function repositoryOn(double: GitHubDouble, kv?: Deno.Kv, logs?: string[]) {
  return createGitHubRepository({
    token: double.token,
    repository: double.repository,
    apiUrl: double.url,
    cache: kv,
    ...(logs ? { log: (line: string) => void logs.push(line) } : {}),
  });
}

const reads = (double: GitHubDouble) =>
  double.requests.filter((request) => request.path.includes("/contents/"));

Deno.test("the second read of an unchanged page is a conditional request answered 304, served from what was kept", async () => {
  await using double = startGitHubDouble({ files: { [HOME]: HOME_TEXT } });
  const logs: string[] = [];
  const repository = repositoryOn(double, undefined, logs);
  const first = await repository.read(HOME);
  const second = await repository.read(HOME);
  assert.deepEqual(second, first);
  assert.equal(new TextDecoder().decode(second!.content), HOME_TEXT);
  const [one, two] = reads(double);
  assert.equal(one!.headers["if-none-match"], undefined);
  assert.equal(one!.status, 200);
  assert.match(two!.headers["if-none-match"] ?? "", /^W\/"[0-9a-f]{64}"$/);
  assert.equal(two!.status, 304);
  // The 304 cost nothing: GitHub's remaining budget is the same after it.
  const lines = logs.map((line) => JSON.parse(line));
  assert.deepEqual(lines.map((line) => line.status), [200, 304]);
  assert.equal(lines[1].remaining, lines[0].remaining);
  assert.equal(typeof lines[0].remaining, "number");
  assert.match(lines[0].github, /^GET \/repos\/octo\/site\/contents\/src\//);
  assertNoSecrets(logs, [double.token]);
});

Deno.test("a page changed meanwhile is read in full again, and its new ETag kept", async () => {
  await using double = startGitHubDouble({ files: { [HOME]: HOME_TEXT } });
  const repository = repositoryOn(double);
  await repository.read(HOME);
  double.publishElsewhere({ [HOME]: '{"title":"Changed"}' });
  const changed = await repository.read(HOME);
  assert.equal(
    new TextDecoder().decode(changed!.content),
    '{"title":"Changed"}',
  );
  const again = await repository.read(HOME);
  assert.deepEqual(again, changed);
  assert.deepEqual(reads(double).map((request) => request.status), [
    200,
    200,
    304,
  ]);
});

Deno.test("the ETag is kept in the KV: a process that never read the page sends it and is answered 304", async () => {
  await using double = startGitHubDouble({ files: { [HOME]: HOME_TEXT } });
  await using kv = await Deno.openKv(":memory:");
  await repositoryOn(double, kv).read(HOME);
  forgetKeptAnswers(); // another process: nothing in memory
  const fresh = await repositoryOn(double, kv).read(HOME);
  assert.equal(new TextDecoder().decode(fresh!.content), HOME_TEXT);
  assert.deepEqual(reads(double).map((request) => request.status), [200, 304]);
  // A KV entry whose parts do not match its digest is not served.
  forgetKeptAnswers();
  for await (
    const entry of kv.list({ prefix: ["editor", "github-etag-part"] })
  ) {
    await kv.set(entry.key, new Uint8Array([1, 2, 3]));
  }
  const guarded = await repositoryOn(double, kv).read(HOME);
  assert.equal(new TextDecoder().decode(guarded!.content), HOME_TEXT);
  assert.equal(reads(double).at(-1)!.headers["if-none-match"], undefined);
});

Deno.test("through the router: the second read of an unchanged page is a 304 at GitHub, and a publish with a staged image checks the page with a 304 too", async () => {
  const router = createRouter({ locales: ["en"] });
  await using s = await githubSignedIn(router, "etag key", {
    [HOME]: HOME_TEXT,
  });
  const read = async () =>
    await answer(
      await router.handle(readRequest(HOME, s.cookie), s.env, from("10.9.0.1")),
    );
  const first = await read();
  const second = await read();
  assert.deepEqual(second.body, first.body);
  assert.deepEqual(reads(s.github).map((request) => request.status), [
    200,
    304,
  ]);
  const lines = s.env.logs.map((line) => JSON.parse(line));
  const calls = lines.filter((line) => "github" in line);
  assert.equal(calls.length, 2);
  assert.ok(calls.every((line) => typeof line.remaining === "number"));
  assertNoSecrets(s.env.logs, [s.github.token]);
  const version = (first.body as { version: string }).version;
  const image = (await answer(
    await router.handle(
      await uploadRequest(PNG, { name: "Sea", cookie: s.cookie, staged: true }),
      s.env,
      from("10.9.0.2"),
    ),
  )).body as { src: string };
  const before = s.github.requests.length;
  const saved = await answer(
    await router.handle(
      postJson("/api/save", {
        path: HOME,
        content: JSON.stringify({ title: "New", hero: { src: image.src } }),
        version,
      }, { cookie: s.cookie }),
      s.env,
      from("10.9.0.3"),
    ),
  );
  assert.equal(saved.status, 200);
  const check = s.github.requests.slice(before).filter((request) =>
    request.path.includes("/contents/")
  );
  assert.deepEqual(check.map((request) => request.status), [304]);
  assert.equal(s.github.commits.length, 2);
});
