/**
 * What a review needs of a repository, on a local checkout and on the
 * GitHub double: a branch made only when it does not exist yet
 * (`create`), whose commit names its parent; and on GitHub a pull request
 * opened from it, commented on and closed.
 */
import assert from "node:assert/strict";
import { createGitHubRepository } from "../../lib/repository/github.ts";
import {
  BranchExistsError,
  gitBlobSha,
  RepositoryError,
} from "../../lib/repository/repository.ts";
import { startGitHubDouble } from "../support/github_double.ts";
import { HOME, HOME_TEXT, tempSite } from "../support/site.ts";

const encoder = new TextEncoder();
const PAGE = encoder.encode('{\n  "title": "Reviewed"\n}\n');
const OTHER = encoder.encode('{\n  "title": "Another"\n}\n');
const BRANCH = "inpage/review/0123456789abcdef0123456789abcdef";

Deno.test("locally, create makes the branch from HEAD and names its parent; a branch that exists is refused and keeps its commit", async () => {
  await using site = await tempSite();
  const checkout = await site.checkout();
  const head = (await site.git("rev-parse", "HEAD")).trim();
  const made = await checkout.commit([
    { path: HOME, content: PAGE, expected: versionOf(HOME_TEXT) },
  ], { message: "Review", branch: BRANCH, create: true });
  assert.equal(made.parent, head);
  assert.equal((await site.git("rev-parse", BRANCH)).trim(), made.commit);
  assert.equal((await site.git("rev-parse", `${BRANCH}^`)).trim(), head);
  assert.equal((await site.git("rev-parse", "HEAD")).trim(), head);
  assert.equal(await site.read(HOME), HOME_TEXT);
  await assert.rejects(
    checkout.commit([{ path: HOME, content: OTHER, expected: null }], {
      message: "Another review",
      branch: BRANCH,
      create: true,
    }),
    BranchExistsError,
  );
  assert.equal((await site.git("rev-parse", BRANCH)).trim(), made.commit);
  // Without create, a commit goes on top of the branch, as before.
  const onTop = await checkout.commit(
    [{ path: HOME, content: OTHER, expected: null }],
    { message: "More", branch: BRANCH },
  );
  assert.equal(onTop.parent, made.commit);
});

function versionOf(text: string): string {
  return gitBlobSha(encoder.encode(text));
}

Deno.test("on GitHub, create makes the branch once, and a pull request is opened from it, commented on and closed", async () => {
  await using double = startGitHubDouble({ files: { [HOME]: HOME_TEXT } });
  const repository = createGitHubRepository({
    token: double.token,
    repository: double.repository,
    apiUrl: double.url,
  });
  const head = double.commits.at(-1)!.sha;
  const made = await repository.commit!([
    { path: HOME, content: PAGE, expected: versionOf(HOME_TEXT) },
  ], { message: "Review", branch: BRANCH, create: true });
  assert.equal(made.parent, head);
  assert.equal(double.refs.get(BRANCH), made.commit);
  assert.equal(
    double.commits.at(-1)!.sha,
    head,
    "the site branch is untouched",
  );
  await assert.rejects(
    repository.commit!([{ path: HOME, content: OTHER, expected: null }], {
      message: "Another",
      branch: BRANCH,
      create: true,
    }),
    BranchExistsError,
  );
  assert.equal(double.refs.get(BRANCH), made.commit);

  const number = await repository.openPullRequest!({
    branch: BRANCH,
    title: "New title for the home page",
    body: "- `src/content/pages/en/home.json`: `/title`",
  });
  assert.equal(number, 1);
  const opened = double.requests.findLast((r) => r.path.endsWith("/pulls"))!;
  assert.equal(opened.method, "POST");
  assert.deepEqual(opened.body, {
    title: "New title for the home page",
    head: BRANCH,
    base: "main",
    body: "- `src/content/pages/en/home.json`: `/title`",
  });
  assert.equal(double.pulls.get(1)?.state, "open");
  // A second pull request from the same branch: GitHub's 422.
  await assert.rejects(
    repository.openPullRequest!({ branch: BRANCH, title: "Again", body: "" }),
    (error) => error instanceof RepositoryError && error.code === "unavailable",
  );
  await repository.closePullRequest!(1, "Published in abc123.");
  assert.deepEqual(double.pulls.get(1)?.comments, ["Published in abc123."]);
  assert.equal(double.pulls.get(1)?.state, "closed");
  const [comment, close] = double.requests.slice(-2);
  assert.deepEqual(
    [comment!.method, comment!.path, comment!.body],
    ["POST", "/repos/octo/site/issues/1/comments", {
      body: "Published in abc123.",
    }],
  );
  assert.deepEqual(
    [close!.method, close!.path, close!.body],
    ["PATCH", "/repos/octo/site/pulls/1", { state: "closed" }],
  );
  await assert.rejects(
    repository.closePullRequest!(7, "No such pull request"),
    (error) => error instanceof RepositoryError && error.code === "not_found",
  );
  await assert.rejects(
    repository.openPullRequest!({ branch: "main", title: "x", body: "" }),
    (error) =>
      error instanceof RepositoryError && error.code === "unauthorized",
  );
});

Deno.test("on GitHub, create starts the branch from the site branch's head as it is now, not as this repository last saw it", async () => {
  await using double = startGitHubDouble({ files: { [HOME]: HOME_TEXT } });
  const repository = createGitHubRepository({
    token: double.token,
    repository: double.repository,
    apiUrl: double.url,
  });
  // This repository commits on the site branch, and knows its head…
  const first = await repository.commit!([
    { path: HOME, content: PAGE, expected: versionOf(HOME_TEXT) },
  ], { message: "Publish" });
  // …which another process (a scheduled publish) moves meanwhile.
  double.publishElsewhere({ [HOME]: new TextDecoder().decode(OTHER) });
  const moved = double.commits.at(-1)!.sha;
  assert.notEqual(moved, first.commit);
  const made = await repository.commit!([
    { path: HOME, content: PAGE, expected: gitBlobSha(OTHER) },
  ], { message: "Review", branch: BRANCH, create: true });
  assert.equal(made.parent, moved);
  assert.equal(double.refs.get(BRANCH), made.commit);
});

Deno.test("the double answers a pull request from a branch with nothing new, or from no branch, with GitHub's 422; deleting a head branch closes its pull request", async () => {
  await using double = startGitHubDouble({ files: { [HOME]: HOME_TEXT } });
  const headers = {
    authorization: `Bearer ${double.token}`,
    "user-agent": "test",
    "content-type": "application/json",
  };
  const post = (path: string, body: unknown, method = "POST") =>
    fetch(`${double.url}/repos/octo/site/${path}`, {
      method,
      headers,
      body: JSON.stringify(body),
    });
  double.refs.set("inpage/review/same", double.commits.at(-1)!.sha);
  let response = await post("pulls", {
    title: "t",
    head: "inpage/review/same",
    base: "main",
  });
  assert.equal(response.status, 422);
  assert.deepEqual((await response.json()).errors, [{
    resource: "PullRequest",
    code: "custom",
    message: "No commits between main and inpage/review/same",
  }]);
  response = await post("pulls", { title: "t", head: "nope", base: "main" });
  assert.equal(response.status, 422);
  assert.equal((await response.json()).errors[0].field, "head");
  const repository = createGitHubRepository({
    token: double.token,
    repository: double.repository,
    apiUrl: double.url,
  });
  await repository.commit!([{ path: HOME, content: PAGE, expected: null }], {
    message: "Review",
    branch: BRANCH,
    create: true,
  });
  const number = await repository.openPullRequest!({
    branch: BRANCH,
    title: "t",
    body: "",
  });
  assert.equal(await repository.deleteBranch!(BRANCH), true);
  assert.equal(double.pulls.get(number)?.state, "closed");
});
