/**
 * The GitHub variables of a host read and checked, without the GitHub
 * client: which of them are missing or malformed, and the options they
 * make. `warnMissingVariables` checks them at start-up with this alone; the
 * client (`github.ts`) loads with the first request that reads or writes.
 *
 * @example
 * ```ts
 * import { missingRepositoryVariables } from "./github_variables.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(missingRepositoryVariables({ GITHUB_TOKEN: "t" }), [
 *   "GITHUB_REPOSITORY",
 * ]);
 * assert.deepEqual(
 *   missingRepositoryVariables({ GITHUB_TOKEN: "t", GITHUB_REPOSITORY: "o/r" }),
 *   [],
 * );
 * ```
 *
 * @module
 */

import {
  type GitHubAppCredentials,
  type GitHubOptionName,
  invalidGitHubOptions,
} from "./github_options.ts";
import { invalidAppCredentials } from "./github_app.ts";
import type { AnswerKv } from "./github_etags.ts";
import type { Repository } from "./repository.ts";

/**
 * The host's bindings a repository is built from: a ready `REPOSITORY`, or
 * the GitHub variables (a token, or a GitHub App). The route's `Env` has
 * them all.
 */
export interface RepositoryBindings {
  /** A repository used instead of GitHub. */
  REPOSITORY?: Repository | undefined;
  /** A GitHub token with contents read and write on the one repository. */
  GITHUB_TOKEN?: string | undefined;
  /** A GitHub App's ID (or client ID), used instead of `GITHUB_TOKEN`. */
  GITHUB_APP_ID?: string | undefined;
  /** That app's private key, PEM (PKCS#1 as GitHub issues it, or PKCS#8). */
  GITHUB_APP_PRIVATE_KEY?: string | undefined;
  /** The ID of the app's installation on the repository's account. */
  GITHUB_APP_INSTALLATION_ID?: string | undefined;
  /** The repository as `owner/name`. */
  GITHUB_REPOSITORY?: string | undefined;
  /** The branch written to; default `main`. */
  GITHUB_BRANCH?: string | undefined;
  /** The REST API root; default `https://api.github.com`. */
  GITHUB_API_URL?: string | undefined;
  /** The KV where GitHub's read answers are kept besides this process. */
  RATE_LIMIT?: AnswerKv | undefined;
  /** Receives the log line of each GitHub call; default `console.log`. */
  EDITOR_LOG?: ((line: string) => void) | undefined;
  /** The clock of installation tokens; default `Date.now`. */
  EDITOR_CLOCK?: (() => number) | undefined;
}

/** What `repositoryFromEnv` answers when it cannot build a repository. */
export interface MissingRepository {
  /** The names of the variables that are absent or malformed, never their values. */
  missing: string[];
}

const VARIABLES: Partial<Record<GitHubOptionName, keyof RepositoryBindings>> = {
  token: "GITHUB_TOKEN",
  repository: "GITHUB_REPOSITORY",
  branch: "GITHUB_BRANCH",
  apiUrl: "GITHUB_API_URL",
};

const APP_VARIABLES: Record<
  keyof GitHubAppCredentials,
  keyof RepositoryBindings
> = {
  appId: "GITHUB_APP_ID",
  privateKey: "GITHUB_APP_PRIVATE_KEY",
  installationId: "GITHUB_APP_INSTALLATION_ID",
};

/** An optional variable set to the empty string counts as absent. */
function optional(value: unknown): unknown {
  return value === "" ? undefined : value;
}

/**
 * Whether a `REPOSITORY` binding has the two methods every repository has.
 *
 * @param binding the host's `REPOSITORY`
 * @returns whether it can be used
 */
export function isRepositoryBinding(binding: unknown): binding is Repository {
  return typeof binding === "object" && binding !== null &&
    typeof (binding as Repository).read === "function" &&
    typeof (binding as Repository).write === "function";
}

/** The GitHub client's options as the variables give them, and what is wrong. */
export interface GitHubSettings {
  /** The options, valid when `missing` is empty. */
  options: { readonly [K in GitHubOptionName]?: unknown };
  /** The names of the missing or malformed variables, never their values. */
  missing: string[];
}

/**
 * Reads the GitHub variables: a GitHub App (`GITHUB_APP_ID`,
 * `GITHUB_APP_PRIVATE_KEY`, `GITHUB_APP_INSTALLATION_ID`: used whenever one
 * of them is set) or `GITHUB_TOKEN`, with `GITHUB_REPOSITORY`,
 * `GITHUB_BRANCH` and `GITHUB_API_URL`; `RATE_LIMIT` as the cache of read
 * answers, `EDITOR_LOG` and `EDITOR_CLOCK`.
 *
 * @param env the host's variables and bindings
 * @returns the options and the names of what is missing or malformed
 */
export function githubSettings(env: RepositoryBindings): GitHubSettings {
  const useApp = [
    env.GITHUB_APP_ID,
    env.GITHUB_APP_PRIVATE_KEY,
    env.GITHUB_APP_INSTALLATION_ID,
  ]
    .some((value) => optional(value) !== undefined);
  const app = useApp
    ? {
      appId: env.GITHUB_APP_ID,
      privateKey: env.GITHUB_APP_PRIVATE_KEY,
      installationId: env.GITHUB_APP_INSTALLATION_ID,
    }
    : undefined;
  const rateLimit = env.RATE_LIMIT;
  const options = {
    token: useApp ? undefined : env.GITHUB_TOKEN,
    app,
    repository: env.GITHUB_REPOSITORY,
    branch: optional(env.GITHUB_BRANCH),
    apiUrl: optional(env.GITHUB_API_URL),
    cache: typeof rateLimit?.get === "function" &&
        typeof rateLimit.atomic === "function"
      ? rateLimit
      : undefined,
    log: typeof env.EDITOR_LOG === "function" ? env.EDITOR_LOG : console.log,
    now: typeof env.EDITOR_CLOCK === "function" ? env.EDITOR_CLOCK : undefined,
  };
  const missing = invalidGitHubOptions(options).flatMap((name) => {
    if (name === "app") {
      return invalidAppCredentials(app ?? {}).map((field) =>
        APP_VARIABLES[field]
      );
    }
    const variable = VARIABLES[name];
    return variable === undefined ? [] : [variable];
  });
  return { options, missing };
}

/**
 * The names of the repository variables that are missing or malformed:
 * what `repositoryFromEnv` would answer, without building a repository.
 *
 * @param env the host's variables and bindings
 * @returns the names, empty when a repository can be built
 */
export function missingRepositoryVariables(env: RepositoryBindings): string[] {
  const binding = env.REPOSITORY;
  if (binding !== undefined) {
    return isRepositoryBinding(binding) ? [] : ["REPOSITORY"];
  }
  return githubSettings(env).missing;
}
