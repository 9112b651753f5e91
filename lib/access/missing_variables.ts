/**
 * A host's start-up check of its variables: which ones the routes need are
 * missing or unusable, by name (never a value).
 *
 * @module
 */

import type { Env } from "../http/env.ts";
import { parseKeyHash } from "./key_hash_format.ts";
import { readEditorKeys } from "./editors.ts";
import { missingRepositoryVariables } from "../repository/github_variables.ts";
import { previewSecret } from "./preview_token.ts";

/**
 * Names the variables and bindings of `env` that are missing or unusable,
 * and when there are any, writes one line saying so and what fails until
 * they are set: `RATE_LIMIT` (every route but logout answers 503),
 * `EDITOR_KEY_HASH` (every login is refused as a wrong key; not needed when
 * `EDITOR_KEYS` names editors), a malformed `EDITOR_KEYS` (every login is
 * refused), and the
 * repository's (`GITHUB_TOKEN`, `GITHUB_REPOSITORY`, a malformed
 * `GITHUB_BRANCH` or `GITHUB_API_URL`, or `REPOSITORY`: reads, publishes and
 * uploads answer 502), and `EDITOR_PREVIEW_SECRET` missing or shorter than
 * 32 characters (preview links of reviews cannot be made or opened). A host
 * calls it once at start-up; the routes answer the same way per request
 * either way.
 *
 * @example
 * ```ts
 * import { warnMissingVariables } from "@inpage/editor";
 * import assert from "node:assert/strict";
 *
 * const kv = await Deno.openKv(":memory:");
 * const lines: string[] = [];
 * const missing = warnMissingVariables(
 *   { RATE_LIMIT: kv, GITHUB_REPOSITORY: "octo/site" },
 *   (line) => lines.push(line),
 * );
 * assert.deepEqual(missing, [
 *   "EDITOR_KEY_HASH",
 *   "GITHUB_TOKEN",
 *   "EDITOR_PREVIEW_SECRET",
 * ]);
 * assert.equal(
 *   lines[0],
 *   "@inpage/editor: missing or invalid variables: EDITOR_KEY_HASH, GITHUB_TOKEN, EDITOR_PREVIEW_SECRET (until they are set, every login is refused as a wrong key; reads, publishes and uploads answer 502 unavailable; preview links of reviews cannot be made or opened)",
 * );
 * kv.close();
 * ```
 *
 * @param env the host's variables and bindings, as passed to the routes
 * @param warn receives the one line; default `console.error`
 * @returns the names, empty when every one is usable
 */
export function warnMissingVariables(
  env: Env,
  warn: (line: string) => void = console.error,
): string[] {
  const missing: string[] = [];
  const effects: string[] = [];
  if (env.RATE_LIMIT === undefined || env.RATE_LIMIT === null) {
    missing.push("RATE_LIMIT");
    effects.push("every route but logout answers 503 unavailable");
  }
  const keyHash = env.EDITOR_KEY_HASH;
  const editors = readEditorKeys(env.EDITOR_KEYS);
  if (!editors.ok) {
    missing.push("EDITOR_KEYS");
    effects.push("every login is refused as a wrong key");
  } else if (
    (typeof keyHash !== "string" || !parseKeyHash(keyHash)) &&
    (keyHash || editors.editors.size === 0)
  ) {
    missing.push("EDITOR_KEY_HASH");
    effects.push("every login is refused as a wrong key");
  }
  const repository = missingRepositoryVariables(env);
  if (repository.length > 0) {
    missing.push(...repository);
    effects.push("reads, publishes and uploads answer 502 unavailable");
  }
  if (previewSecret(env) === undefined) {
    missing.push("EDITOR_PREVIEW_SECRET");
    effects.push("preview links of reviews cannot be made or opened");
  }
  if (missing.length > 0) {
    warn(
      `@inpage/editor: missing or invalid variables: ${
        missing.join(", ")
      } (until they are set, ${effects.join("; ")})`,
    );
  }
  return missing;
}
