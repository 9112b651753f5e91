/**
 * The options of the GitHub repository, checked once when it is created:
 * which option is refused and why, without ever repeating a value.
 *
 * @module
 */

import { isLoopbackHost } from "../loopback.ts";
import {
  type GitHubAppCredentials,
  invalidAppCredentials,
} from "./github_app.ts";
import type { AnswerKv } from "./github_etags.ts";

export type { GitHubAppCredentials };

/** How to reach one GitHub repository. */
export interface GitHubOptions {
  /**
   * A token with contents read and write on the repository; required
   * unless `app` is given.
   */
  token?: string | undefined;
  /**
   * A GitHub App installation with contents read and write on the
   * repository, used instead of `token`: installation tokens are obtained
   * and renewed as needed.
   */
  app?: GitHubAppCredentials | undefined;
  /** The repository as `owner/name`. */
  repository: string;
  /** The branch read and written; default `main`. */
  branch?: string | undefined;
  /**
   * The REST API root; default `https://api.github.com`. A GitHub Enterprise
   * Server root such as `https://ghe.example/api/v3` works; `http:` is
   * accepted for a loopback host only.
   */
  apiUrl?: string | undefined;
  /** A bound on each repository call, retries included; default 10,000 ms. */
  timeoutMs?: number | undefined;
  /** The `fetch` to use; default the global one. */
  fetch?: typeof fetch | undefined;
  /**
   * A KV (Deno KV or the same API) where the answers of reads are kept
   * besides this process, so that every process reads conditionally.
   */
  cache?: AnswerKv | undefined;
  /**
   * Receives one JSON line per GitHub call (its status, time and
   * `x-ratelimit-remaining`, never a token); default none.
   */
  log?: ((line: string) => void) | undefined;
  /** The clock of installation tokens; default `Date.now`. */
  now?: (() => number) | undefined;
}

/** The name of a `GitHubOptions` field. */
export type GitHubOptionName = keyof GitHubOptions;

const DEFAULT_API_URL = "https://api.github.com";
const DEFAULT_BRANCH = "main";
const DEFAULT_TIMEOUT_MS = 10_000;
const MAX_TIMEOUT_MS = 2_147_483_647;
const OWNER = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,38})$/;
const NAME = /^[A-Za-z0-9._-]{1,100}$/;
const TOKEN = /^[\x21-\x7e]{1,1024}$/;
// Git refuses control characters, space and these in a branch name.
// deno-lint-ignore no-control-regex
const BRANCH_CHARS = /^[^\x00-\x20\x7f~^:?*[\\]{1,255}$/;
// One character class, no group: linear and without recursion on 27 MB.

/** The problem with one option, as the error to throw, or `undefined`. */
function optionProblem(
  name: GitHubOptionName,
  value: unknown,
): TypeError | RangeError | undefined {
  switch (name) {
    case "token":
      return typeof value === "string" && TOKEN.test(value)
        ? undefined
        : new TypeError(
          "GitHub token must be a non-empty string of visible ASCII characters",
        );
    case "app": {
      const invalid = invalidAppCredentials(
        (value ?? {}) as Record<string, unknown>,
      );
      return invalid.length === 0 ? undefined : new TypeError(
        `GitHub App credentials are malformed: ${invalid.join(", ")}`,
      );
    }
    case "cache":
      return value === undefined ||
          (typeof value === "object" && value !== null &&
            typeof (value as AnswerKv).get === "function" &&
            typeof (value as AnswerKv).atomic === "function")
        ? undefined
        : new TypeError("GitHub cache must be a KV");
    case "log":
    case "now":
      return value === undefined || typeof value === "function"
        ? undefined
        : new TypeError(`GitHub ${name} must be a function`);
    case "repository":
      return parseRepository(value)
        ? undefined
        : new TypeError("GitHub repository must be owner/name");
    case "branch":
      return value === undefined || isBranch(value)
        ? undefined
        : new TypeError("GitHub branch must be a valid branch name");
    case "apiUrl":
      return value === undefined || parseApiUrl(value) !== undefined
        ? undefined
        : new TypeError(
          "GitHub API URL must be an absolute https URL (http for a loopback host) without credentials, query or fragment",
        );
    case "timeoutMs":
      return value === undefined ||
          (typeof value === "number" && Number.isInteger(value) &&
            value >= 1 && value <= MAX_TIMEOUT_MS)
        ? undefined
        : new RangeError(
          `GitHub timeout must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`,
        );
    case "fetch":
      return value === undefined || typeof value === "function"
        ? undefined
        : new TypeError("GitHub fetch must be a function");
  }
}

const OPTION_NAMES: readonly GitHubOptionName[] = [
  "token",
  "app",
  "repository",
  "branch",
  "apiUrl",
  "timeoutMs",
  "fetch",
  "cache",
  "log",
  "now",
];

/** The options checked: `app` instead of `token` when an app is given. */
function checkedNames(
  options: { readonly [K in GitHubOptionName]?: unknown },
): GitHubOptionName[] {
  const skipped: GitHubOptionName = options.app === undefined ? "app" : "token";
  return OPTION_NAMES.filter((name) => name !== skipped);
}

/**
 * The names of the options that `createGitHubRepository` would refuse. No
 * value appears in the result.
 *
 * @param options candidate options, of any type
 * @returns the refused option names, in declaration order; empty when all are valid
 * @example
 * ```ts
 * import { invalidGitHubOptions } from "./github_options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(
 *   invalidGitHubOptions({ token: "", repository: "octo/site" }),
 *   ["token"],
 * );
 * ```
 */
export function invalidGitHubOptions(
  options: { readonly [K in GitHubOptionName]?: unknown },
): GitHubOptionName[] {
  return checkedNames(options).filter((name) =>
    optionProblem(name, options[name]) !== undefined
  );
}

function parseRepository(
  value: unknown,
): { owner: string; name: string } | undefined {
  if (typeof value !== "string") return undefined;
  const parts = value.split("/");
  if (parts.length !== 2) return undefined;
  const [owner = "", name = ""] = parts;
  if (!OWNER.test(owner) || !NAME.test(name)) return undefined;
  if (name === "." || name === "..") return undefined;
  return { owner, name };
}

function isBranch(value: unknown): value is string {
  return typeof value === "string" && BRANCH_CHARS.test(value) &&
    !value.startsWith("/") && !value.startsWith("-") &&
    !value.endsWith("/") && !value.endsWith(".") &&
    !value.endsWith(".lock") && !value.includes("..") &&
    !value.includes("//") && !value.includes("@{") && value !== "@";
}

/** The API root without a trailing slash, or `undefined` when refused. */
function parseApiUrl(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  const secure = url.protocol === "https:" ||
    (url.protocol === "http:" && isLoopbackHost(url.hostname));
  if (!secure || url.username || url.password || url.search || url.hash) {
    return undefined;
  }
  return url.origin + url.pathname.replace(/\/+$/, "");
}

/** The options once checked, with their defaults filled in. */
export interface ParsedGitHubOptions {
  /** The token, or `undefined` with `app`. */
  token: string | undefined;
  /** The GitHub App installation, or `undefined` with `token`. */
  app: GitHubAppCredentials | undefined;
  /** The repository's owner. */
  owner: string;
  /** The repository's name. */
  name: string;
  /** The branch read and written. */
  branch: string;
  /** The API root, without a trailing slash. */
  apiUrl: string;
  /** The bound on each repository call, in milliseconds. */
  timeoutMs: number;
  /** The `fetch` to use. */
  fetch: typeof fetch;
  /** Where read answers are kept besides this process, if anywhere. */
  cache: AnswerKv | undefined;
  /** The sink of the call log lines, if any. */
  log: ((line: string) => void) | undefined;
  /** The clock of installation tokens. */
  now: () => number;
}

/**
 * Checks the options and fills in the defaults.
 *
 * @param options the options as given, of any type
 * @returns the checked options
 * @throws {TypeError} when an option is malformed (the message never holds a value)
 * @throws {RangeError} when `timeoutMs` is out of range
 * @example
 * ```ts
 * import { parseGitHubOptions } from "./github_options.ts";
 * import assert from "node:assert/strict";
 *
 * const parsed = parseGitHubOptions({ token: "t", repository: "octo/site" });
 * assert.equal(parsed.branch, "main");
 * ```
 */
export function parseGitHubOptions(
  options: GitHubOptions,
): ParsedGitHubOptions {
  if (
    typeof options !== "object" || options === null || Array.isArray(options)
  ) {
    throw new TypeError("GitHub options must be an object");
  }
  for (const name of checkedNames(options)) {
    const problem = optionProblem(name, options[name]);
    if (problem) throw problem;
  }
  const { owner, name } = parseRepository(options.repository)!;
  const send = options.fetch;
  const app = options.app;
  return {
    token: app === undefined ? options.token : undefined,
    app: app === undefined ? undefined : {
      appId: app.appId,
      privateKey: app.privateKey,
      installationId: app.installationId,
    },
    owner,
    name,
    branch: options.branch ?? DEFAULT_BRANCH,
    apiUrl: parseApiUrl(options.apiUrl ?? DEFAULT_API_URL)!,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    fetch: send ?? ((input, init) => fetch(input, init)),
    cache: options.cache,
    log: options.log,
    now: options.now ?? Date.now,
  };
}
