/**
 * One commit per publish, through the router, on a local checkout and on
 * the GitHub double alike: a staged upload (`/api/upload?staged=1`) leaves
 * the tree and the history untouched; a save naming it makes exactly one
 * commit holding the page and the image; a 409 or a 422 after it leaves
 * nothing; an image staged and not named (or named after its hour, or
 * staged by another editor) never appears.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRouter, type Env } from "../../mod.ts";
import { sha256Hex } from "../../lib/digest.ts";
import { githubSignedIn } from "../support/github_double.ts";
import {
  answer,
  fastHash,
  from,
  login,
  manualClock,
  postJson,
  type TestEnv,
} from "../support/helpers.ts";
import { gitHashObject, HOME, HOME_TEXT, siteEnv } from "../support/site.ts";
import { uploadRequest } from "../support/upload.ts";

const KEY = "staged key";
const ALICE_KEY = "alice.staged-horse-battery";
const router = createRouter({ locales: ["en", "fr"] });
const IMAGES = new URL("../../../shared/corpora/images/", import.meta.url);
const PNG = await Deno.readFile(new URL("pngsuite/basn6a08.png", IMAGES));
const JPEG = await Deno.readFile(
  new URL("image-size/valid/jpg/large.jpg", IMAGES),
);

/** What a backend's branch holds: its head, its commit count, its files. */
interface State {
  head: string;
  count: number;
  /** Every file of the head's tree with its version, sorted. */
  tree: string[];
}

/** A signed-in env over one repository, and how to look into it. */
interface Backend extends AsyncDisposable {
  env: TestEnv;
  cookie: string;
  clock: ReturnType<typeof manualClock>;
  state(): Promise<State>;
  /** The paths the head commit changed, sorted. */
  lastCommitPaths(): Promise<string[]>;
  /** A file of the head commit, or `undefined`. */
  atHead(path: string): Promise<Uint8Array | undefined>;
  /** What else the backend checks after a staged upload. */
  untouched(src: string): Promise<void>;
}

async function editorKeys(): Promise<string> {
  return JSON.stringify({
    alice: {
      hash: await fastHash(ALICE_KEY),
      name: "Alice Martin",
      email: "alice@example.com",
    },
  });
}

async function localBackend(): Promise<Backend> {
  const clock = manualClock(Date.now());
  const s = await siteEnv(KEY, {
    extra: { EDITOR_CLOCK: clock.now, EDITOR_KEYS: await editorKeys() },
  });
  const { site } = s;
  const cookie = await login(router.handle, s.env, KEY);
  return {
    env: s.env,
    cookie,
    clock,
    state: async () => ({
      head: (await site.git("rev-parse", "HEAD")).trim(),
      count: await site.commitCount(),
      tree: (await site.git("ls-tree", "-r", "HEAD")).trim().split("\n")
        .sort(),
    }),
    lastCommitPaths: async () =>
      (await site.git("show", "--name-only", "--format=", "HEAD")).trim()
        .split("\n").sort(),
    atHead: async (path) => {
      const output = await new Deno.Command("git", {
        args: ["-C", site.root, "show", `HEAD:${path}`],
        stdout: "piped",
        stderr: "null",
      }).output();
      return output.success ? output.stdout : undefined;
    },
    untouched: async (src) => {
      assert.equal(await site.git("status", "--porcelain"), "");
      await assert.rejects(
        Deno.lstat(join(site.root, "public/images", src)),
        Deno.errors.NotFound,
        "no file in the work tree",
      );
    },
    [Symbol.asyncDispose]: () => s[Symbol.asyncDispose](),
  };
}

async function githubBackend(): Promise<Backend> {
  const clock = manualClock(Date.now());
  const signed = await githubSignedIn(router, KEY, { [HOME]: HOME_TEXT }, {
    EDITOR_CLOCK: clock.now,
    EDITOR_KEYS: await editorKeys(),
  });
  const { github } = signed;
  let moves = 0;
  return {
    env: signed.env,
    cookie: signed.cookie,
    clock,
    state: () => {
      const head = github.commits.at(-1)!;
      return Promise.resolve({
        head: head.sha,
        count: github.commits.length,
        tree: [...head.files].map(([path, bytes]) =>
          `${path} ${sha256Hex(bytes)}`
        ).sort(),
      });
    },
    lastCommitPaths: () => {
      const [before, after] = github.commits.slice(-2).map((commit) =>
        commit.files
      );
      const paths = new Set([...before!.keys(), ...after!.keys()]);
      return Promise.resolve(
        [...paths].filter((path) => before!.get(path) !== after!.get(path))
          .sort(),
      );
    },
    atHead: (path) => Promise.resolve(github.files.get(path)),
    untouched: () => {
      // Since the last check, only blobs were made: no tree moved a branch.
      const moved = github.requests.slice(moves).filter((request) =>
        request.method !== "GET" &&
        request.path !== "/repos/octo/site/git/blobs"
      );
      moves = github.requests.length;
      assert.deepEqual(moved, []);
      return Promise.resolve();
    },
    [Symbol.asyncDispose]: () => signed[Symbol.asyncDispose](),
  };
}

const BACKENDS = [
  ["a local checkout", localBackend],
  ["the GitHub double", githubBackend],
] as const;

let clients = 0;
const nextClient = () =>
  from(`10.77.${(clients >> 8) & 255}.${clients++ & 255}`);

async function upload(
  b: Backend,
  bytes: Uint8Array<ArrayBuffer>,
  name: string,
  cookie = b.cookie,
) {
  return await answer(
    await router.handle(
      await uploadRequest(bytes, { name, cookie, staged: true }),
      b.env,
      nextClient(),
    ),
  );
}

async function save(b: Backend, body: unknown, cookie = b.cookie) {
  return await answer(
    await router.handle(
      postJson("/api/save", body, { cookie }),
      b.env,
      nextClient(),
    ),
  );
}

/** The home page naming images, as the overlay publishes it. */
function pageNaming(
  ...images: { src: string; width: number; height: number }[]
) {
  return JSON.stringify({
    title: "Home",
    gallery: images.map(({ src, width, height }) => ({
      src,
      width,
      height,
      alt: "A photo",
    })),
  });
}

type Staged = { src: string; width: number; height: number; staged: true };

for (const [where, open] of BACKENDS) {
  Deno.test(`on ${where}: a staged upload leaves the tree and the history untouched, and a save naming it makes one commit holding both files`, async () => {
    await using b = await open();
    const before = await b.state();
    const staged = await upload(b, PNG, "Team photo");
    assert.equal(staged.status, 200);
    const image = staged.body as Staged;
    assert.deepEqual(image, {
      src: `team-photo-${sha256Hex(PNG).slice(0, 12)}.png`,
      width: 32,
      height: 32,
      staged: true,
    });
    assert.deepEqual(await b.state(), before, "nothing committed");
    await b.untouched(image.src);

    const saved = await save(b, {
      path: HOME,
      content: pageNaming(image),
      version: await gitHashObject(HOME_TEXT),
      message: "New team photo",
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const after = await b.state();
    assert.equal(after.count, before.count + 1, "exactly one commit");
    assert.deepEqual(await b.lastCommitPaths(), [
      `public/images/${image.src}`,
      HOME,
    ]);
    assert.deepEqual(await b.atHead(`public/images/${image.src}`), PNG);
    const page = new TextDecoder().decode(await b.atHead(HOME));
    assert.deepEqual(JSON.parse(page).gallery[0].src, image.src);
    assert.equal(
      (saved.body as { version: string }).version,
      await gitHashObject(page),
    );
  });

  Deno.test(`on ${where}: a 409 or a 422 after a staged upload leaves nothing, and the image is published by the next save that succeeds`, async () => {
    await using b = await open();
    const image = (await upload(b, JPEG, "Hall")).body as Staged;
    const before = await b.state();
    const stale = await save(b, {
      path: HOME,
      content: pageNaming(image),
      version: await gitHashObject("{}\n"),
    });
    assert.deepEqual([stale.status, stale.body], [409, { error: "conflict" }]);
    assert.deepEqual(await b.state(), before, "no page, no image");
    await b.untouched(image.src);
    const hostile = await save(b, {
      path: HOME,
      content: JSON.stringify({
        title: "<script>alert(1)</script>",
        hero: image,
      }),
      version: await gitHashObject(HOME_TEXT),
    });
    assert.equal(hostile.status, 422);
    assert.deepEqual(await b.state(), before, "no page, no image");
    await b.untouched(image.src);
    const fixed = await save(b, {
      path: HOME,
      content: pageNaming(image),
      version: await gitHashObject(HOME_TEXT),
    });
    assert.equal(fixed.status, 200);
    assert.deepEqual(await b.lastCommitPaths(), [
      `public/images/${image.src}`,
      HOME,
    ]);
  });

  Deno.test(`on ${where}: a staged image no publish names never appears, nor one named after its hour, nor one another editor staged`, async () => {
    await using b = await open();
    const named = (await upload(b, PNG, "Named")).body as Staged;
    const unnamed = (await upload(b, JPEG, "Unnamed")).body as Staged;
    let version = await gitHashObject(HOME_TEXT);
    const first = await save(b, {
      path: HOME,
      content: pageNaming(named),
      version,
    });
    assert.equal(first.status, 200);
    version = (first.body as { version: string }).version;
    assert.deepEqual(await b.lastCommitPaths(), [
      `public/images/${named.src}`,
      HOME,
    ]);
    assert.equal(await b.atHead(`public/images/${unnamed.src}`), undefined);

    // An hour and a minute later the unnamed image is no longer staged: a
    // page naming it now is published alone.
    b.clock.advance(61 * 60_000);
    const late = await save(b, {
      path: HOME,
      content: pageNaming(named, unnamed),
      version,
    });
    assert.equal(late.status, 200);
    version = (late.body as { version: string }).version;
    assert.deepEqual(await b.lastCommitPaths(), [HOME]);
    assert.equal(await b.atHead(`public/images/${unnamed.src}`), undefined);

    // Staged by Alice, named by another editor's page: not theirs to publish.
    const alice = await login(router.handle, b.env, ALICE_KEY, "192.0.2.44");
    const hers = (await upload(b, PNG, "Hers", alice)).body as Staged;
    const other = await save(b, {
      path: HOME,
      content: pageNaming(hers),
      version,
    });
    assert.equal(other.status, 200);
    assert.deepEqual(await b.lastCommitPaths(), [HOME]);
    assert.equal(await b.atHead(`public/images/${hers.src}`), undefined);
    const mine = await save(b, {
      path: HOME,
      content: pageNaming(hers, named),
      version: (other.body as { version: string }).version,
    }, alice);
    assert.equal(mine.status, 200);
    assert.deepEqual(await b.lastCommitPaths(), [
      `public/images/${hers.src}`,
      HOME,
    ]);
  });
}

Deno.test("on a local checkout: an upload without staged keeps the reference's behaviour (stored at once, in a commit of its own, no staged field)", async () => {
  await using b = await localBackend();
  const before = await b.state();
  const stored = await answer(
    await router.handle(
      await uploadRequest(PNG, { name: "Plain", cookie: b.cookie }),
      b.env,
      nextClient(),
    ),
  );
  assert.deepEqual(stored.body, {
    src: `plain-${sha256Hex(PNG).slice(0, 12)}.png`,
    width: 32,
    height: 32,
  });
  assert.equal((await b.state()).count, before.count + 1);
  assert.deepEqual(await b.lastCommitPaths(), [
    `public/images/plain-${sha256Hex(PNG).slice(0, 12)}.png`,
  ]);
});

Deno.test("a REPOSITORY binding that cannot stage stores a staged upload at once and says so by leaving staged out", async () => {
  await using s = await siteEnv(KEY);
  const checkout = s.env.REPOSITORY!;
  const env: Env = {
    ...s.env,
    REPOSITORY: {
      read: (path) => checkout.read(path),
      write: (...args) => checkout.write(...args),
    },
  };
  const cookie = await login(router.handle, env, KEY);
  const before = await s.site.commitCount();
  const stored = await answer(
    await router.handle(
      await uploadRequest(PNG, { name: "Bound", cookie, staged: true }),
      env,
      nextClient(),
    ),
  );
  assert.equal(stored.status, 200);
  assert.equal((stored.body as { staged?: true }).staged, undefined);
  assert.equal(await s.site.commitCount(), before + 1);
});
