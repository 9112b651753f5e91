/**
 * The repository a request works on: the `REPOSITORY` binding, or GitHub
 * from the `GITHUB_*` variables.
 *
 * @module
 */

import {
  createGitHubRepository,
  type GitHubOptionName,
  type GitHubOptions,
  invalidGitHubOptions,
} from "./github.ts";
import {
  ConflictError,
  type Repository,
  RepositoryError,
} from "./repository.ts";

/**
 * The host's bindings a repository is built from: a ready `REPOSITORY`, or
 * the GitHub variables. The route's `Env` has them all.
 */
export interface RepositoryBindings {
  /** A repository used instead of GitHub. */
  REPOSITORY?: Repository | undefined;
  /** A GitHub token with contents read and write on the one repository. */
  GITHUB_TOKEN?: string | undefined;
  /** The repository as `owner/name`. */
  GITHUB_REPOSITORY?: string | undefined;
  /** The branch written to; default `main`. */
  GITHUB_BRANCH?: string | undefined;
  /** The REST API root; default `https://api.github.com`. */
  GITHUB_API_URL?: string | undefined;
}

/** What `repositoryFromEnv` answers when it cannot build a repository. */
export interface MissingRepository {
  /** The names of the variables that are absent or malformed, never their values. */
  missing: string[];
}

const VARIABLES: Record<
  "token" | "repository" | "branch" | "apiUrl",
  keyof RepositoryBindings
> = {
  token: "GITHUB_TOKEN",
  repository: "GITHUB_REPOSITORY",
  branch: "GITHUB_BRANCH",
  apiUrl: "GITHUB_API_URL",
};

interface Built {
  token: unknown;
  repository: unknown;
  branch: unknown;
  apiUrl: unknown;
  result: Repository | MissingRepository;
}

const built = new WeakMap<RepositoryBindings, Built>();

/** An optional variable set to the empty string counts as absent. */
function optional(value: unknown): unknown {
  return value === "" ? undefined : value;
}

/**
 * The repository described by `env`: `env.REPOSITORY` when given, else
 * GitHub from `GITHUB_TOKEN`, `GITHUB_REPOSITORY`, `GITHUB_BRANCH` (default
 * `main`) and `GITHUB_API_URL` (default `https://api.github.com`). The
 * result is cached per `env` object while those variables keep their values,
 * so a request does not rebuild it.
 *
 * @param env the host's variables and bindings
 * @returns the repository, or the names of the missing or malformed variables
 * @example
 * ```ts
 * import { repositoryFromEnv } from "./from_env.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(repositoryFromEnv({ GITHUB_REPOSITORY: "octo/site" }), {
 *   missing: ["GITHUB_TOKEN"],
 * });
 * ```
 */
export function repositoryFromEnv(
  env: RepositoryBindings,
): Repository | MissingRepository {
  const binding = env.REPOSITORY;
  if (binding !== undefined) {
    return typeof binding === "object" && binding !== null &&
        typeof binding.read === "function" &&
        typeof binding.write === "function"
      ? binding
      : { missing: ["REPOSITORY"] };
  }
  const token = env.GITHUB_TOKEN;
  const repository = env.GITHUB_REPOSITORY;
  const branch = optional(env.GITHUB_BRANCH);
  const apiUrl = optional(env.GITHUB_API_URL);
  const cached = built.get(env);
  if (
    cached && cached.token === token && cached.repository === repository &&
    cached.branch === branch && cached.apiUrl === apiUrl
  ) {
    return cached.result;
  }
  const invalid: GitHubOptionName[] = invalidGitHubOptions({
    token,
    repository,
    branch,
    apiUrl,
  });
  const missing = invalid.flatMap((name) =>
    name in VARIABLES ? [VARIABLES[name as keyof typeof VARIABLES]] : []
  );
  const result = missing.length > 0 ? { missing } : createGitHubRepository({
    token,
    repository,
    branch,
    apiUrl,
  } as GitHubOptions);
  built.set(env, { token, repository, branch, apiUrl, result });
  return result;
}

const guards = new WeakMap<Repository, Repository>();

/**
 * A `REPOSITORY` binding whose failures keep the contract: the package's
 * `ConflictError` and `RepositoryError` pass as they are; anything else it
 * throws becomes `RepositoryError("unavailable")` (502), its name and
 * message kept for the log.
 */
function guarded(binding: Repository): Repository {
  let guard = guards.get(binding);
  if (!guard) {
    const wrap = (error: unknown): never => {
      if (error instanceof ConflictError || error instanceof RepositoryError) {
        throw error;
      }
      let detail: string;
      try {
        detail = error instanceof Error
          ? `${error.name}: ${error.message}`
          : String(error);
      } catch {
        detail = "a thrown value that cannot be printed";
      }
      throw new RepositoryError(
        "unavailable",
        `REPOSITORY failed with an error of its own: ${detail.slice(0, 500)}`,
      );
    };
    guard = {
      async read(path) {
        try {
          return await binding.read(path);
        } catch (error) {
          return wrap(error);
        }
      },
      async write(path, content, expected, message, author) {
        try {
          // A binding written before authors gets the four arguments it knows.
          return author === undefined
            ? await binding.write(path, content, expected, message)
            : await binding.write(path, content, expected, message, author);
        } catch (error) {
          return wrap(error);
        }
      },
    };
    if (typeof binding.history === "function") {
      const history = binding.history.bind(binding);
      guard.history = async (path, options) => {
        try {
          return await history(path, options);
        } catch (error) {
          return wrap(error);
        }
      };
    }
    if (typeof binding.readAt === "function") {
      const readAt = binding.readAt.bind(binding);
      guard.readAt = async (path, commit) => {
        try {
          return await readAt(path, commit);
        } catch (error) {
          return wrap(error);
        }
      };
    }
    guards.set(binding, guard);
  }
  return guard;
}

/**
 * The request's repository, or a 502 `unavailable` whose log detail names
 * what is missing (never a value).
 *
 * @param env the host's variables and bindings
 * @returns the repository; a `REPOSITORY` binding comes guarded, so that
 *   an error of its own answers 502 `unavailable` rather than 500
 * @throws {RepositoryError} `unavailable` when none is configured
 */
export function requireRepository(env: RepositoryBindings): Repository {
  const result = repositoryFromEnv(env);
  if ("missing" in result) {
    throw new RepositoryError(
      "unavailable",
      `no repository: set REPOSITORY or the GitHub variables (missing or invalid: ${
        result.missing.join(", ")
      })`,
    );
  }
  return result === env.REPOSITORY ? guarded(result) : result;
}
