/**
 * The local checkout's staged bytes and many-file commits: bytes kept in
 * git's object store (or a temporary folder outside git), never in the
 * work tree; several files committed together or not at all; commits on an
 * `inpage/…` branch without a checkout, and its deletion.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  ConflictError,
  gitBlobSha,
  RepositoryError,
} from "../../lib/repository/repository.ts";
import { stagingFolder } from "../../lib/repository/local/staging.ts";
import { HOME, HOME_TEXT, tempSite } from "../support/site.ts";

const IMAGE = "public/images/sea-0123456789ab.png";
const OTHER = "public/images/hall-ba9876543210.png";
const PNG = Uint8Array.from({ length: 4096 }, (_, index) => (index * 13) % 256);
const encoder = new TextEncoder();
const HOME_VERSION = gitBlobSha(encoder.encode(HOME_TEXT));

Deno.test("a staged blob goes to git's object store: the work tree, the index and the history are untouched", async () => {
  await using site = await tempSite();
  const checkout = await site.checkout();
  const head = await site.git("rev-parse", "HEAD");
  const blob = await checkout.stage(PNG);
  assert.equal(blob.staged, gitBlobSha(PNG));
  assert.equal(await site.git("cat-file", "-t", blob.staged), "blob\n");
  assert.equal(await site.git("status", "--porcelain", "--ignored"), "");
  assert.equal(await site.git("rev-parse", "HEAD"), head);
});

Deno.test("a commit of a page and a staged image: one commit holding both, the work tree and the index clean", async () => {
  await using site = await tempSite();
  const checkout = await site.checkout();
  const blob = await checkout.stage(PNG);
  const page = encoder.encode('{\n  "title": "New"\n}\n');
  const count = await site.commitCount();
  const result = await checkout.commit([
    { path: HOME, content: page, expected: HOME_VERSION },
    { path: IMAGE, content: blob, expected: null },
  ], {
    message: "Page and image",
    author: { name: "Alice Martin", email: "alice@example.com" },
  });
  assert.equal(await site.commitCount(), count + 1);
  assert.equal(result.commit, (await site.git("rev-parse", "HEAD")).trim());
  assert.deepEqual(result.versions, {
    [HOME]: gitBlobSha(page),
    [IMAGE]: blob.staged,
  });
  assert.deepEqual(
    (await site.git("show", "--name-only", "--format=%an|%s", "HEAD")).trim()
      .split("\n"),
    ["Alice Martin|Page and image", "", IMAGE, HOME],
  );
  assert.deepEqual(await Deno.readFile(join(site.root, IMAGE)), PNG);
  assert.equal(await site.git("status", "--porcelain"), "");
});

Deno.test("a stale version refuses the whole commit: no file written, no commit, no folder made", async () => {
  await using site = await tempSite();
  const checkout = await site.checkout();
  const blob = await checkout.stage(PNG);
  const count = await site.commitCount();
  await assert.rejects(
    checkout.commit([
      { path: IMAGE, content: blob, expected: null },
      { path: HOME, content: encoder.encode("{}\n"), expected: "" },
    ], { message: "Stale" }),
    (error) => error instanceof ConflictError && error.path === HOME,
  );
  assert.equal(await site.commitCount(), count);
  assert.equal(await site.read(HOME), HOME_TEXT);
  await assert.rejects(Deno.lstat(join(site.root, "public")));
  assert.equal(await site.git("status", "--porcelain"), "");
});

Deno.test("a write failing halfway puts every file back: the first file written is restored", async () => {
  await using site = await tempSite();
  let writes = 0;
  const checkout = await site.checkout({
    faults: {
      afterTempWrite: () => {
        if (++writes === 2) throw new Error("disk full");
      },
    },
  });
  await assert.rejects(
    checkout.commit([
      { path: HOME, content: encoder.encode("{}\n"), expected: HOME_VERSION },
      { path: IMAGE, content: PNG, expected: null },
    ], { message: "Half" }),
    (error) => error instanceof RepositoryError && error.code === "unavailable",
  );
  assert.equal(await site.read(HOME), HOME_TEXT);
  await assert.rejects(Deno.lstat(join(site.root, "public")));
  assert.equal(await site.git("status", "--porcelain"), "");
});

Deno.test("an image already there with the same bytes is left as it is, and a staged blob git no longer holds is refused", async () => {
  await using site = await tempSite();
  const checkout = await site.checkout();
  await checkout.write(IMAGE, PNG, "", "Add image");
  const count = await site.commitCount();
  const same = await checkout.commit([
    { path: IMAGE, content: await checkout.stage(PNG), expected: null },
  ], { message: "Same" });
  assert.equal(await site.commitCount(), count);
  assert.equal(same.commit, (await site.git("rev-parse", "HEAD")).trim());
  await assert.rejects(
    checkout.commit([
      { path: OTHER, content: { staged: "e".repeat(40) }, expected: null },
    ], { message: "Lost" }),
    (error) => error instanceof RepositoryError && error.code === "unavailable",
  );
  assert.equal(await site.commitCount(), count);
});

Deno.test("a commit on an inpage/ branch is made from HEAD without touching the work tree, HEAD or the index; the branch is deleted after", async () => {
  await using site = await tempSite();
  const checkout = await site.checkout();
  await Deno.writeTextFile(join(site.root, "notes.txt"), "the user's own work");
  await site.git("add", "notes.txt");
  const head = (await site.git("rev-parse", "HEAD")).trim();
  const status = await site.git("status", "--porcelain");
  const review = "inpage/review/2f6c";
  const first = await checkout.commit([
    { path: HOME, content: encoder.encode("{}\n"), expected: HOME_VERSION },
    { path: IMAGE, content: await checkout.stage(PNG), expected: null },
  ], {
    message: "Review",
    author: { name: "Alice Martin", email: "alice@example.com" },
    branch: review,
  });
  assert.equal((await site.git("rev-parse", "HEAD")).trim(), head);
  assert.equal(await site.git("status", "--porcelain"), status);
  assert.equal(await site.read(HOME), HOME_TEXT);
  assert.equal((await site.git("rev-parse", review)).trim(), first.commit);
  assert.equal((await site.git("rev-parse", `${review}^`)).trim(), head);
  assert.equal(await site.git("show", `${review}:${HOME}`), "{}\n");
  assert.equal(
    (await site.git("log", "-1", "--format=%an", review)).trim(),
    "Alice Martin",
  );
  assert.equal(await site.git("ls-tree", review, "--", "notes.txt"), "");
  await assert.rejects(
    checkout.commit([
      { path: HOME, content: encoder.encode("[]\n"), expected: HOME_VERSION },
    ], { message: "Stale on the branch", branch: review }),
    (error) => error instanceof ConflictError && error.path === HOME,
  );
  const second = await checkout.commit([
    {
      path: HOME,
      content: encoder.encode("[]\n"),
      expected: gitBlobSha(encoder.encode("{}\n")),
    },
  ], { message: "More", branch: review });
  assert.equal(
    (await site.git("rev-parse", `${review}^`)).trim(),
    first.commit,
  );
  assert.equal((await site.git("rev-parse", review)).trim(), second.commit);
  assert.equal(await checkout.deleteBranch(review), true);
  assert.equal(await checkout.deleteBranch(review), false);
  assert.equal(await site.git("branch", "--list", "inpage/*"), "");
  for (const refused of ["main", "feature", "inpage/../x", "inpage/a.lock"]) {
    await assert.rejects(
      checkout.commit([{ path: HOME, content: PNG, expected: null }], {
        message: "x",
        branch: refused === "main" ? "feature" : refused,
      }),
      (error) =>
        error instanceof RepositoryError && error.code === "unauthorized",
    );
    await assert.rejects(
      checkout.deleteBranch(refused),
      (error) =>
        error instanceof RepositoryError && error.code === "unauthorized",
    );
  }
});

Deno.test("outside git, staged bytes wait in a temporary folder of their own, and a commit writes both files", async () => {
  await using site = await tempSite();
  await Deno.remove(join(site.root, ".git"), { recursive: true });
  const checkout = await site.checkout();
  assert.equal(checkout.commits, false);
  const blob = await checkout.stage(PNG);
  const folder = stagingFolder(checkout.root);
  assert.ok(!folder.startsWith(checkout.root));
  assert.deepEqual(await Deno.readFile(join(folder, blob.staged)), PNG);
  await assert.rejects(Deno.lstat(join(site.root, "public")));
  const result = await checkout.commit([
    { path: HOME, content: encoder.encode("{}\n"), expected: HOME_VERSION },
    { path: IMAGE, content: blob, expected: null },
  ], { message: "No git" });
  assert.equal(result.commit, "");
  assert.deepEqual(await Deno.readFile(join(site.root, IMAGE)), PNG);
  await assert.rejects(
    checkout.commit([{ path: HOME, content: PNG, expected: null }], {
      message: "x",
      branch: "inpage/review/1",
    }),
    (error) => error instanceof RepositoryError && error.code === "unavailable",
  );
  await Deno.remove(folder, { recursive: true });
});

Deno.test("a note of a commit of several files left by a killed process is committed whole when the checkout opens", async () => {
  await using site = await tempSite();
  await Deno.mkdir(join(site.root, "public/images"), { recursive: true });
  await Deno.writeFile(join(site.root, IMAGE), PNG);
  await Deno.writeTextFile(join(site.root, HOME), "{}\n");
  await Deno.writeTextFile(
    join(site.root, ".git", "inpage-editor.pending"),
    JSON.stringify({ paths: [HOME, IMAGE], message: "Interrupted" }),
  );
  const count = await site.commitCount();
  await site.checkout();
  assert.equal(await site.commitCount(), count + 1);
  assert.equal(await site.git("status", "--porcelain"), "");
  assert.deepEqual(
    (await site.git("show", "--name-only", "--format=%s", "HEAD")).trim()
      .split("\n"),
    ["Interrupted", "", IMAGE, HOME],
  );
});
