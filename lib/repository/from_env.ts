/**
 * The repository a request works on: the `REPOSITORY` binding, or GitHub
 * from the `GITHUB_*` variables.
 *
 * @module
 */

import { createGitHubRepository, type GitHubOptions } from "./github.ts";
import {
  githubSettings,
  isRepositoryBinding,
  type MissingRepository,
  type RepositoryBindings,
} from "./github_variables.ts";
import {
  ConflictError,
  type Repository,
  RepositoryError,
} from "./repository.ts";

export type { MissingRepository, RepositoryBindings };

/** The bindings a repository was built from, compared before reusing it. */
const READ = [
  "GITHUB_TOKEN",
  "GITHUB_APP_ID",
  "GITHUB_APP_PRIVATE_KEY",
  "GITHUB_APP_INSTALLATION_ID",
  "GITHUB_REPOSITORY",
  "GITHUB_BRANCH",
  "GITHUB_API_URL",
  "RATE_LIMIT",
  "EDITOR_LOG",
  "EDITOR_CLOCK",
] as const satisfies readonly (keyof RepositoryBindings)[];

interface Built {
  values: unknown[];
  result: Repository | MissingRepository;
}

const built = new WeakMap<RepositoryBindings, Built>();

/**
 * The repository described by `env`: `env.REPOSITORY` when given, else
 * GitHub from `GITHUB_REPOSITORY`, `GITHUB_BRANCH` (default `main`),
 * `GITHUB_API_URL` (default `https://api.github.com`) and either a GitHub
 * App (`GITHUB_APP_ID`, `GITHUB_APP_PRIVATE_KEY`,
 * `GITHUB_APP_INSTALLATION_ID`: used whenever one of them is set) or
 * `GITHUB_TOKEN`. GitHub's read answers are kept in `RATE_LIMIT` too, and
 * each GitHub call writes a line to `EDITOR_LOG`. The result is cached per
 * `env` object while those bindings keep their values, so a request does
 * not rebuild it.
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
 * assert.deepEqual(
 *   repositoryFromEnv({ GITHUB_REPOSITORY: "octo/site", GITHUB_APP_ID: "12345" }),
 *   { missing: ["GITHUB_APP_PRIVATE_KEY", "GITHUB_APP_INSTALLATION_ID"] },
 * );
 * ```
 */
export function repositoryFromEnv(
  env: RepositoryBindings,
): Repository | MissingRepository {
  const binding = env.REPOSITORY;
  if (binding !== undefined) {
    return isRepositoryBinding(binding) ? binding : { missing: ["REPOSITORY"] };
  }
  const values = READ.map((name) => env[name]);
  const cached = built.get(env);
  if (
    cached && cached.values.every((value, index) => value === values[index])
  ) {
    return cached.result;
  }
  const result = buildGitHub(env);
  built.set(env, { values, result });
  return result;
}

/** GitHub's repository from the variables, or what is missing. */
function buildGitHub(env: RepositoryBindings): Repository | MissingRepository {
  const { options, missing } = githubSettings(env);
  return missing.length > 0
    ? { missing }
    : createGitHubRepository(options as GitHubOptions);
}

const guards = new WeakMap<Repository, Repository>();

/** The optional methods of `Repository` a guard passes on when present. */
const OPTIONAL_METHODS = [
  "history",
  "readAt",
  "readAtCommit",
  "stage",
  "commit",
  "deleteBranch",
] as const satisfies readonly (keyof Repository)[];

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
    const extra = guard as unknown as Record<string, unknown>;
    for (const name of OPTIONAL_METHODS) {
      const method = binding[name];
      if (typeof method !== "function") continue;
      const bound = (method as (...args: unknown[]) => Promise<unknown>).bind(
        binding,
      );
      extra[name] = async (...args: unknown[]) => {
        try {
          return await bound(...args);
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
