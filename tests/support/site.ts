/**
 * Temporary site repositories for tests: real git, real files.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type LocalCheckoutFaults,
  openCheckout,
} from "../../lib/repository/local/checkout.ts";
import type { ClientInfo, Env, Repository, Router } from "../../mod.ts";
import { commitInitial, gitIn } from "./git.ts";
import { spawnWithInput } from "./process.ts";
import { fastHash, from, login, type TestEnv, testEnv } from "./helpers.ts";
import type {
  LocalCheckout,
  LocalCheckoutOptions,
} from "../../lib/repository/local/mod.ts";

/** A temporary site checkout. */
export interface TempSite extends AsyncDisposable {
  /** Its folder. */
  root: string;
  /** Runs git in it and returns standard output. */
  git: (...args: string[]) => Promise<string>;
  /** Reads a file of it as text, or `undefined` when absent. */
  read: (path: string) => Promise<string | undefined>;
  /** Opens the local checkout over it, with fault hooks if given. */
  checkout: (
    options?: Omit<LocalCheckoutOptions, "root"> & {
      faults?: LocalCheckoutFaults;
    },
  ) => Promise<LocalCheckout>;
  /** Number of commits on HEAD. */
  commitCount: () => Promise<number>;
}

/** The page every test site starts with. */
export const HOME = "src/content/pages/en/home.json";

/** Its content. */
export const HOME_TEXT = JSON.stringify(
  {
    title: "Home",
    sections: [{ id: "intro", body: "Hello <strong>world</strong>" }],
  },
  null,
  2,
) + "\n";

/**
 * Makes a git repository with `src/content/pages/{en,fr}` and one page.
 *
 * @param files more files to commit, by path
 * @returns the site, removed when disposed
 */
export async function tempSite(
  files: Record<string, string> = {},
): Promise<TempSite> {
  // The site sits in a folder of its own, so tests can watch what is beside it.
  const parent = await Deno.realPath(
    await Deno.makeTempDir({ prefix: "editor-site-" }),
  );
  const root = join(parent, "site");
  await Deno.mkdir(root);
  const git = gitIn(root);
  const all = {
    [HOME]: HOME_TEXT,
    "src/content/pages/fr/.gitkeep": "",
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    await Deno.mkdir(join(root, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  }
  await commitInitial(git, "Test", "test@localhost");
  return {
    root,
    git,
    read: (path) => Deno.readTextFile(join(root, path)).catch(() => undefined),
    checkout: ({ faults, ...options } = {}) =>
      openCheckout({ root, ...options }, faults),
    commitCount: async () =>
      Number((await git("rev-list", "--count", "HEAD")).trim()),
    [Symbol.asyncDispose]: () => Deno.remove(parent, { recursive: true }),
  };
}

/**
 * `git hash-object` of some text, by the real git.
 *
 * @param text the content
 * @returns the blob SHA-1
 */
export async function gitHashObject(
  text: string | Uint8Array,
): Promise<string> {
  const child = await spawnWithInput(
    new Deno.Command("git", {
      args: ["hash-object", "--stdin"],
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }),
    text,
  );
  const { code, stdout } = await child.output();
  assert.equal(code, 0, "git hash-object failed");
  return new TextDecoder().decode(stdout).trim();
}

/** A test site with a KV and an env over the site's checkout. */
export interface SiteEnv extends AsyncDisposable {
  /** The KV. */
  kv: Deno.Kv;
  /** The site's checkout. */
  site: TempSite;
  /** The env: KV, key hash, the checkout as `REPOSITORY`, log capture. */
  env: TestEnv;
}

/** What else a {@linkcode SiteEnv} is made of. */
export interface SiteEnvOptions {
  /** Env entries that replace the defaults. */
  extra?: Env;
  /** `false` for a checkout that writes without committing. */
  commit?: boolean;
  /** A KV file to open instead of a KV in memory. */
  kvPath?: string;
  /** The env's `RATE_LIMIT` made from the KV opened (the KV by default). */
  rateLimit?: (kv: Deno.Kv) => Deno.Kv;
  /** The env's `REPOSITORY` made from the checkout (the checkout by default). */
  repository?: (checkout: Repository) => Repository;
}

/**
 * Opens a KV and makes a site, with an env whose key hash is the key's.
 *
 * @param key the site key
 * @param options more env entries, the checkout's commits, the rate store
 * @returns the KV, the site and the env, closed and removed when disposed
 */
export async function siteEnv(
  key: string,
  options: SiteEnvOptions = {},
): Promise<SiteEnv> {
  const kv = await Deno.openKv(options.kvPath ?? ":memory:");
  const site = await tempSite();
  const env = testEnv(options.rateLimit?.(kv) ?? kv, {
    EDITOR_KEY_HASH: await fastHash(key),
    REPOSITORY: (options.repository ?? ((checkout) => checkout))(
      await site.checkout(options.commit === false ? { commit: false } : {}),
    ),
    ...options.extra,
  });
  return {
    kv,
    site,
    env,
    async [Symbol.asyncDispose]() {
      kv.close();
      await site[Symbol.asyncDispose]();
    },
  };
}

/** A test site with a KV, an env over the site's checkout, and a session. */
export interface SignedInSite extends SiteEnv {
  /** The cookie header of a session opened with the key. */
  cookie: string;
  /** A new client address each call, so tests stay under rate budgets. */
  nextClient: () => ClientInfo;
}

let clientCounter = 0;

/**
 * Opens a KV, makes a site, and logs in through the router.
 *
 * @param router the router under test
 * @param key the site key
 * @param extra env entries that replace the defaults
 * @returns the site and its session, closed and removed when disposed
 */
export async function signedInSite(
  router: Router,
  key: string,
  extra: Env = {},
): Promise<SignedInSite> {
  const signed = await siteEnv(key, { extra });
  return Object.assign(signed, {
    cookie: await login(router.handle, signed.env, key),
    nextClient: () => {
      const n = clientCounter++;
      return from(`10.${100 + ((n >> 16) & 127)}.${(n >> 8) & 255}.${n & 255}`);
    },
  });
}
