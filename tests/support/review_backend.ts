/**
 * The two repositories reviews are shown on, behind one interface: a local
 * checkout (real git) and the GitHub double, each with a KV, a manual
 * clock, a preview secret, and three editors: the plain site key (a
 * publisher), Alice (a publisher) and Bob and Carol (authors).
 *
 * @module
 */

import assert from "node:assert/strict";
import { createRouter } from "../../mod.ts";
import type { Env } from "../../mod.ts";
import { sha256Hex } from "../../lib/digest.ts";
import { type GitHubDouble, githubSignedIn } from "./github_double.ts";
import {
  answer,
  fastHash,
  from,
  login,
  manualClock,
  ORIGIN,
  postJson,
  type TestEnv,
} from "./helpers.ts";
import { HOME, HOME_TEXT, siteEnv, type TempSite } from "./site.ts";
import { uploadRequest } from "./upload.ts";

/** The router of the review tests. */
export const router: ReturnType<typeof createRouter> = createRouter({
  locales: ["en", "fr"],
});

/** The plain site key (a publisher). */
export const KEY = "review plain key";
/** Alice's key: a publisher. */
export const ALICE = "alice.review-publisher-horse";
/** Bob's key: an author. */
export const BOB = "bob.review-author-river";
/** Carol's key: an author. */
export const CAROL = "carol.review-author-lantern";
/** The preview secret of the tests. */
export const SECRET = "a preview secret of the review tests, 48 characters";
/** The about page, which the tests create. */
export const ABOUT = "src/content/pages/en/about.json";

/** A branch's head commit: its id, its parent, its author, the paths it changed. */
export interface BranchCommit {
  commit: string;
  parent: string;
  author: string;
  paths: string[];
}

/** A repository with editors, and how to look into it. */
export interface ReviewBackend extends AsyncDisposable {
  /** `a local checkout` or `the GitHub double`. */
  where: string;
  env: TestEnv;
  clock: ReturnType<typeof manualClock>;
  /** Cookie headers of the plain key, Alice, Bob and Carol. */
  cookies: { plain: string; alice: string; bob: string; carol: string };
  /** The site branch's head and its commit count. */
  site(): Promise<{ head: string; count: number }>;
  /** A file on the site branch, as text, or `undefined`. */
  siteFile(path: string): Promise<string | undefined>;
  /** A branch's head commit, or `undefined` when there is no such branch. */
  branch(name: string): Promise<BranchCommit | undefined>;
  /** A file at a branch's head, as bytes, or `undefined`. */
  branchFile(name: string, path: string): Promise<Uint8Array | undefined>;
  /** Throws unless the work tree is clean and holds the site branch's files. */
  workTreeUntouched(): Promise<void>;
  /** Someone else publishes a file on the site branch. */
  publishElsewhere(path: string, text: string): Promise<void>;
  /** The names of the review branches that exist. */
  reviewBranches(): Promise<string[]>;
  /** Makes a branch at the site head (to be collided with). */
  makeBranch(name: string): Promise<string>;
  /** The double, on GitHub. */
  github?: GitHubDouble | undefined;
}

async function editorKeys(): Promise<string> {
  const entry = async (key: string, name: string, role?: string) => ({
    hash: await fastHash(key),
    name,
    email: `${key.split(".")[0]}@example.com`,
    ...(role ? { role } : {}),
  });
  return JSON.stringify({
    alice: await entry(ALICE, "Alice Martin"),
    bob: await entry(BOB, "Bob Stone", "author"),
    carol: await entry(CAROL, "Carol Reed", "author"),
  });
}

let clients = 0;

/**
 * A new client address each call, so the tests stay under the budgets.
 *
 * @returns the connection info
 */
export function nextClient(): { remoteAddr: { hostname: string } } {
  const n = clients++;
  return from(`10.${60 + ((n >> 16) & 63)}.${(n >> 8) & 255}.${n & 255}`);
}

async function cookiesOf(env: Env, plain: string) {
  return {
    plain,
    alice: await login(
      router.handle,
      env,
      ALICE,
      nextClient().remoteAddr.hostname,
    ),
    bob: await login(router.handle, env, BOB, nextClient().remoteAddr.hostname),
    carol: await login(
      router.handle,
      env,
      CAROL,
      nextClient().remoteAddr.hostname,
    ),
  };
}

async function localBackend(extra: Env = {}): Promise<ReviewBackend> {
  const clock = manualClock(Date.now());
  const s = await siteEnv(KEY, {
    extra: {
      EDITOR_CLOCK: clock.now,
      EDITOR_KEYS: await editorKeys(),
      EDITOR_PREVIEW_SECRET: SECRET,
      ...extra,
    },
  });
  const site: TempSite = s.site;
  const plain = await login(
    router.handle,
    s.env,
    KEY,
    nextClient().remoteAddr.hostname,
  );
  const show = async (rev: string, path: string) => {
    const output = await new Deno.Command("git", {
      args: ["-C", site.root, "show", `${rev}:${path}`],
      stdout: "piped",
      stderr: "null",
    }).output();
    return output.success ? output.stdout : undefined;
  };
  return {
    where: "a local checkout",
    env: s.env,
    clock,
    cookies: await cookiesOf(s.env, plain),
    site: async () => ({
      head: (await site.git("rev-parse", "HEAD")).trim(),
      count: await site.commitCount(),
    }),
    siteFile: (path) => site.read(path),
    branch: async (name) => {
      const found = await new Deno.Command("git", {
        args: ["-C", site.root, "rev-parse", "--verify", "--quiet", name],
        stdout: "piped",
        stderr: "null",
      }).output();
      if (!found.success) return undefined;
      const commit = new TextDecoder().decode(found.stdout).trim();
      const [parent = "", author = ""] = (await site.git(
        "show",
        "-s",
        "--format=%P%n%an <%ae>",
        commit,
      )).trim().split("\n");
      const paths = (await site.git(
        "show",
        "--name-only",
        "--format=",
        commit,
      )).trim().split("\n").sort();
      return { commit, parent, author, paths };
    },
    branchFile: (name, path) => show(name, path),
    workTreeUntouched: async () => {
      assert.equal(await site.git("status", "--porcelain"), "");
      for (const path of [HOME, ABOUT]) {
        const committed = await show("HEAD", path);
        const onDisk = await site.read(path);
        assert.equal(
          onDisk,
          committed === undefined
            ? undefined
            : new TextDecoder().decode(committed),
          path,
        );
      }
    },
    publishElsewhere: async (path, text) => {
      const repository = s.env.REPOSITORY!;
      const current = await repository.read(path);
      await repository.write(
        path,
        new TextEncoder().encode(text),
        current?.version ?? "",
        "Published elsewhere",
      );
    },
    reviewBranches: async () =>
      (await site.git(
        "for-each-ref",
        "--format=%(refname:short)",
        "refs/heads/inpage/review/",
      )).split("\n").filter(Boolean),
    makeBranch: async (name) => {
      await site.git("branch", name);
      return (await site.git("rev-parse", name)).trim();
    },
    [Symbol.asyncDispose]: () => s[Symbol.asyncDispose](),
  };
}

async function githubBackend(extra: Env = {}): Promise<ReviewBackend> {
  const clock = manualClock(Date.now());
  const signed = await githubSignedIn(router, KEY, { [HOME]: HOME_TEXT }, {
    EDITOR_CLOCK: clock.now,
    EDITOR_KEYS: await editorKeys(),
    EDITOR_PREVIEW_SECRET: SECRET,
    ...extra,
  });
  const { github } = signed;
  const commitOf = (sha: string) => github.objects.commits.get(sha);
  return {
    where: "the GitHub double",
    env: signed.env,
    clock,
    cookies: await cookiesOf(signed.env, signed.cookie),
    github,
    site: () =>
      Promise.resolve({
        head: github.commits.at(-1)!.sha,
        count: github.commits.length,
      }),
    siteFile: (path) => {
      const bytes = github.files.get(path);
      return Promise.resolve(
        bytes === undefined ? undefined : new TextDecoder().decode(bytes),
      );
    },
    branch: (name) => {
      const sha = github.refs.get(name);
      if (sha === undefined) return Promise.resolve(undefined);
      const commit = commitOf(sha)!;
      const before = commit.parent === null
        ? new Map<string, Uint8Array>()
        : commitOf(commit.parent)!.files;
      const paths = new Set([...before.keys(), ...commit.files.keys()]);
      return Promise.resolve({
        commit: sha,
        parent: commit.parent ?? "",
        author: `${commit.author.name} <${commit.author.email}>`,
        paths: [...paths].filter((path) =>
          sha256Hex(before.get(path) ?? new Uint8Array([1])) !==
            sha256Hex(commit.files.get(path) ?? new Uint8Array([1]))
        ).sort(),
      });
    },
    branchFile: (name, path) => {
      const sha = github.refs.get(name);
      return Promise.resolve(
        sha === undefined ? undefined : commitOf(sha)?.files.get(path),
      );
    },
    workTreeUntouched: () => Promise.resolve(),
    publishElsewhere: (path, text) => {
      github.publishElsewhere({ [path]: text });
      return Promise.resolve();
    },
    reviewBranches: () =>
      Promise.resolve(
        [...github.refs.keys()].filter((name) =>
          name.startsWith("inpage/review/")
        ),
      ),
    makeBranch: (name) => {
      const head = github.commits.at(-1)!.sha;
      github.refs.set(name, head);
      return Promise.resolve(head);
    },
    [Symbol.asyncDispose]: () => signed[Symbol.asyncDispose](),
  };
}

/** Both backends, by name. */
export const BACKENDS: readonly [
  string,
  (extra?: Env) => Promise<ReviewBackend>,
][] = [
  ["a local checkout", localBackend],
  ["the GitHub double", githubBackend],
];

/** A route's answer: status, body, headers (the common ones checked). */
export type Answer = Awaited<ReturnType<typeof answer>>;

/**
 * A JSON POST to a review route, from a new client.
 *
 * @param b the backend
 * @param path the route
 * @param body the body
 * @param cookie the session
 * @param via the router (by default the tests' own, which allows template
 *   syntax)
 * @returns the answer
 */
export async function post(
  b: ReviewBackend,
  path: string,
  body: unknown,
  cookie: string,
  via: { handle: typeof router.handle } = router,
): Promise<Answer> {
  return await answer(
    await via.handle(postJson(path, body, { cookie }), b.env, nextClient()),
  );
}

/**
 * A GET or DELETE of `/api/reviews`, from a new client.
 *
 * @param b the backend
 * @param query the query string, without `?`
 * @param cookie the session, or `""`
 * @param method `GET` or `DELETE`
 * @returns the answer
 */
export async function call(
  b: ReviewBackend,
  query: string,
  cookie: string,
  method = "GET",
): Promise<Answer> {
  return await answer(
    await router.handle(
      new Request(`${ORIGIN}/api/reviews${query ? `?${query}` : ""}`, {
        method,
        headers: cookie ? { cookie } : {},
      }),
      b.env,
      nextClient(),
    ),
  );
}

/**
 * A staged upload, from a new client.
 *
 * @param b the backend
 * @param bytes the image
 * @param name its name
 * @param cookie the session
 * @returns the stored name
 */
export async function stage(
  b: ReviewBackend,
  bytes: Uint8Array<ArrayBuffer>,
  name: string,
  cookie: string,
): Promise<{ src: string; width: number; height: number }> {
  const uploaded = await answer(
    await router.handle(
      await uploadRequest(bytes, { name, cookie, staged: true }),
      b.env,
      nextClient(),
    ),
  );
  assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body));
  return uploaded.body as { src: string; width: number; height: number };
}
