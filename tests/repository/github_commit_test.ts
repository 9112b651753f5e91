/**
 * The GitHub repository's staged blobs and many-file commits, against the
 * double's Git Data API: the calls and their bodies, a move refused
 * because another page was published meanwhile (rebuilt on the new head),
 * a conflict only for a file whose own version changed, a branch that
 * keeps moving, and commits on an `inpage/…` branch and its deletion.
 */
import assert from "node:assert/strict";
import { createGitHubRepository } from "../../lib/repository/github.ts";
import {
  ConflictError,
  gitBlobSha,
  type Repository,
  RepositoryError,
} from "../../lib/repository/repository.ts";
import {
  type GitHubDouble,
  startGitHubDouble,
} from "../support/github_double.ts";

const HOME = "src/content/pages/en/home.json";
const ABOUT = "src/content/pages/en/about.json";
const IMAGE = "public/images/sea-0123456789ab.webp";
const encoder = new TextEncoder();
const text = (value: unknown) =>
  encoder.encode(JSON.stringify(value, null, 2) + "\n");
const HOME_BYTES = text({ title: "Home" });
const BINARY = Uint8Array.from({ length: 300 }, (_, index) => index % 256);

async function withDouble(
  test: (double: GitHubDouble, repository: Repository) => Promise<void>,
): Promise<void> {
  const double = startGitHubDouble({ files: { [HOME]: HOME_BYTES } });
  try {
    await test(
      double,
      createGitHubRepository({
        token: double.token,
        repository: double.repository,
        apiUrl: double.url,
      }),
    );
  } finally {
    await double.close();
  }
}

const calls = (double: GitHubDouble, from = 0) =>
  double.requests.slice(from).map((request) =>
    `${request.method} ${
      request.path.replace("/repos/octo/site/", "")
    } ${request.status}`
  );

Deno.test("a staged blob is one POST git/blobs and moves no branch", async () => {
  await withDouble(async (double, repository) => {
    const blob = await repository.stage!(BINARY);
    assert.deepEqual(blob, { staged: gitBlobSha(BINARY) });
    assert.deepEqual(calls(double), ["POST git/blobs 201"]);
    assert.deepEqual(double.requests[0]!.body, {
      content: `<${Math.ceil(300 / 3) * 4} characters>`,
      encoding: "base64",
    });
    assert.equal(double.commits.length, 1);
    assert.deepEqual(double.objects.blobs.get(blob.staged), BINARY);
  });
});

Deno.test("a commit is one tree on the head's tree, one commit, and the branch moved with force: false", async () => {
  await withDouble(async (double, repository) => {
    const blob = await repository.stage!(BINARY);
    const before = double.requests.length;
    const page = text({
      title: "Home",
      hero: { src: "sea-0123456789ab.webp" },
    });
    const result = await repository.commit!([
      { path: HOME, content: page, expected: gitBlobSha(HOME_BYTES) },
      { path: IMAGE, content: blob, expected: null },
    ], {
      message: "New hero",
      author: { name: "Alice Martin", email: "alice@example.com" },
    });
    const head = double.commits.at(-1)!;
    assert.equal(result.commit, head.sha);
    assert.deepEqual(result.versions, {
      [HOME]: gitBlobSha(page),
      [IMAGE]: gitBlobSha(BINARY),
    });
    assert.deepEqual(calls(double, before), [
      "GET git/ref/heads/main 200",
      `GET contents/${HOME} 200`,
      `GET git/commits/${double.commits[0]!.sha} 200`,
      "POST git/trees 201",
      "POST git/commits 201",
      "PATCH git/refs/heads/main 200",
    ]);
    const [tree, commit, move] = double.requests.slice(-3).map((r) => r.body);
    assert.deepEqual(tree, {
      base_tree: double.commits[0]!.tree,
      tree: [
        {
          path: HOME,
          mode: "100644",
          type: "blob",
          content: `<${page.byteLength} characters>`,
        },
        { path: IMAGE, mode: "100644", type: "blob", sha: blob.staged },
      ],
    });
    assert.deepEqual(commit, {
      message: "New hero",
      tree: head.tree,
      parents: [double.commits[0]!.sha],
      author: { name: "Alice Martin", email: "alice@example.com" },
    });
    assert.deepEqual(move, { sha: head.sha, force: false });
    assert.equal(double.commits.length, 2, "one commit");
    assert.deepEqual(double.files.get(HOME), page);
    assert.deepEqual(double.files.get(IMAGE), BINARY);
    assert.equal(head.author.name, "Alice Martin");
  });
});

Deno.test("another page published between the commit and the move: rebuilt on the new head, both kept", async () => {
  await withDouble(async (double, repository) => {
    const blob = await repository.stage!(BINARY);
    const about = text({ title: "About" });
    double.setFault({
      kind: "call",
      method: "PATCH",
      run: () => void double.publishElsewhere({ [ABOUT]: about }),
    });
    const page = text({ title: "Home again" });
    await repository.commit!([
      { path: HOME, content: page, expected: gitBlobSha(HOME_BYTES) },
      { path: IMAGE, content: blob, expected: null },
    ], { message: "Mine" });
    assert.deepEqual(
      double.requests.filter((r) => r.method === "PATCH").map((r) => r.status),
      [422, 200],
    );
    const [initial, elsewhere, mine] = double.commits;
    assert.equal(double.commits.length, 3);
    assert.equal(elsewhere!.parent, initial!.sha);
    assert.equal(mine!.parent, elsewhere!.sha, "rebuilt on the new head");
    assert.deepEqual(double.files.get(ABOUT), about);
    assert.deepEqual(double.files.get(HOME), page);
    assert.deepEqual(double.files.get(IMAGE), BINARY);
  });
});

Deno.test("only a changed version of this page is a conflict, and it leaves nothing", async () => {
  await withDouble(async (double, repository) => {
    const blob = await repository.stage!(BINARY);
    const theirs = text({ title: "Theirs" });
    double.setFault({
      kind: "call",
      method: "PATCH",
      run: () => void double.publishElsewhere({ [HOME]: theirs }),
    });
    await assert.rejects(
      repository.commit!([
        {
          path: HOME,
          content: text({ title: "Mine" }),
          expected: gitBlobSha(HOME_BYTES),
        },
        { path: IMAGE, content: blob, expected: null },
      ], { message: "Mine" }),
      (error) => error instanceof ConflictError && error.path === HOME,
    );
    assert.equal(double.commits.length, 2, "theirs only");
    assert.deepEqual(double.files.get(HOME), theirs);
    assert.equal(double.files.has(IMAGE), false);
  });
});

Deno.test("a branch that keeps moving: unavailable after four refused moves, nothing of this commit on it", async () => {
  await withDouble(async (double, repository) => {
    let n = 0;
    double.setFault({
      kind: "call",
      method: "PATCH",
      times: Infinity,
      run: () => void double.publishElsewhere({ [ABOUT]: text({ n: n++ }) }),
    });
    await assert.rejects(
      repository.commit!([
        {
          path: HOME,
          content: text({ title: "Mine" }),
          expected: gitBlobSha(HOME_BYTES),
        },
      ], { message: "Mine" }),
      (error) =>
        error instanceof RepositoryError && error.code === "unavailable",
    );
    assert.equal(double.requests.filter((r) => r.method === "PATCH").length, 4);
    assert.deepEqual(double.files.get(HOME), HOME_BYTES);
  });
});

Deno.test("a staged blob GitHub does not hold is refused unavailable, and a commit that changes nothing makes none", async () => {
  await withDouble(async (double, repository) => {
    await assert.rejects(
      repository.commit!([
        { path: IMAGE, content: { staged: "f".repeat(40) }, expected: null },
      ], { message: "Lost" }),
      (error) =>
        error instanceof RepositoryError && error.code === "unavailable",
    );
    const same = await repository.commit!([
      { path: HOME, content: HOME_BYTES, expected: gitBlobSha(HOME_BYTES) },
    ], { message: "Same" });
    assert.equal(same.commit, double.commits[0]!.sha);
    assert.equal(double.commits.length, 1);
    assert.equal(double.requests.some((r) => r.method === "PATCH"), false);
  });
});

Deno.test("a commit on an inpage/ branch is made from the site branch's head, moves it alone, and the branch is deleted after", async () => {
  await withDouble(async (double, repository) => {
    const review = "inpage/review/2f6c";
    const first = await repository.commit!([
      {
        path: HOME,
        content: text({ title: "Proposed" }),
        expected: gitBlobSha(HOME_BYTES),
      },
      { path: IMAGE, content: BINARY, expected: null },
    ], { message: "Review", branch: review });
    assert.equal(double.commits.length, 1, "the site branch did not move");
    assert.equal(double.refs.get(review), first.commit);
    const made = double.objects.commits.get(first.commit)!;
    assert.equal(made.parent, double.commits[0]!.sha);
    assert.deepEqual(made.files.get(IMAGE), BINARY);
    assert.ok(
      double.requests.some((r) =>
        r.method === "POST" && r.path.endsWith("/git/refs") &&
        (r.body as { ref?: string }).ref === `refs/heads/${review}`
      ),
    );
    const second = await repository.commit!([
      { path: ABOUT, content: text({ title: "About" }), expected: "" },
    ], { message: "More", branch: review });
    assert.equal(
      double.objects.commits.get(second.commit)!.parent,
      first.commit,
    );
    assert.equal(await repository.deleteBranch!(review), true);
    assert.equal(double.refs.has(review), false);
    assert.equal(await repository.deleteBranch!(review), false);
    for (const refused of ["main", "feature", "inpage/../main"]) {
      await assert.rejects(
        repository.deleteBranch!(refused),
        (error) =>
          error instanceof RepositoryError && error.code === "unauthorized",
      );
      await assert.rejects(
        repository.commit!([{ path: ABOUT, content: BINARY, expected: null }], {
          message: "x",
          branch: refused === "main" ? "feature" : refused,
        }),
        (error) =>
          error instanceof RepositoryError && error.code === "unauthorized",
      );
    }
  });
});

Deno.test("a one-file write between two commits: the next commit starts from the head it made, no move refused", async () => {
  await withDouble(async (double, repository) => {
    const first = await repository.commit!([
      { path: IMAGE, content: BINARY, expected: null },
    ], { message: "Image" });
    const version = await repository.write(
      HOME,
      text({ title: "Written alone" }),
      gitBlobSha(HOME_BYTES),
      "Alone",
    );
    const before = double.requests.length;
    await repository.commit!([
      { path: HOME, content: text({ title: "Then both" }), expected: version },
      { path: ABOUT, content: text({ title: "About" }), expected: "" },
    ], { message: "Both" });
    assert.equal(double.commits.length, 4);
    assert.equal(double.commits[2]!.parent, first.commit);
    assert.deepEqual(
      double.requests.slice(before).filter((r) => r.method === "PATCH")
        .map((r) => r.status),
      [200],
    );
    assert.equal(
      double.requests.slice(before).some((r) =>
        r.path.endsWith("/git/ref/heads/main")
      ),
      false,
      "the head the write made was known",
    );
  });
});
