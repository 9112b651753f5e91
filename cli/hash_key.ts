/**
 * `editor hash-key`: reads the site key and prints only its argon2id PHC
 * string, for `EDITOR_KEY_HASH`; with `--name`, generates a named editor's
 * key, prints it once, and prints the `EDITOR_KEYS` entry to add (with
 * `--role author`, an editor who sends changes for review and never
 * publishes).
 *
 * @module
 */

import {
  DEFAULT_KEY_PARAMS,
  hashKey,
  KEY_PARAM_LIMITS,
  type KeyHashParams,
  keyParamsProblem,
} from "../lib/access/site_key.ts";
import { type KeyInput, KeyInputError, readKey } from "./read_key.ts";
import { codePoints } from "../lib/encoding/text.ts";
import { KEY_MAX } from "../lib/limits.ts";
import { randomToken } from "../lib/access/random_token.ts";
import {
  EDITOR_ID,
  EDITOR_ROLES,
  type EditorRole,
  PLAIN_EDITOR_ID,
  readEditorKeys,
} from "../lib/access/editors.ts";

/** The options of `editor hash-key`. */
export interface HashKeyOptions {
  /** Memory in KiB; default 65536. */
  memory?: number | undefined;
  /** Iterations; default 3. */
  iterations?: number | undefined;
  /** Parallelism; default 1. */
  parallelism?: number | undefined;
  /** Calibrate the iterations (and memory, unless given) to this time. */
  targetMs?: number | undefined;
  /**
   * Accept parameters below OWASP's argon2id minimum (see
   * {@linkcode owaspMinimumMemory}); a warning goes to standard error.
   */
  allowWeak?: boolean | undefined;
  /**
   * A named editor's id (`[a-z0-9-]{1,32}`): a key `<id>.<secret>` is
   * generated instead of read, and the `EDITOR_KEYS` entry printed.
   */
  name?: string | undefined;
  /** The named editor's full name, for commits; default the id. */
  fullName?: string | undefined;
  /** The named editor's email, for commits; default `<id>@inpage.invalid`. */
  email?: string | undefined;
  /**
   * The named editor's role: `publisher` (the default, left out of the
   * entry) or `author` (sends changes for review, never publishes).
   */
  role?: string | undefined;
}

/** Where `editor hash-key` reads and writes. */
export interface HashKeyIo extends KeyInput {
  /** Standard output: receives only the PHC string and a newline. */
  out: (text: string) => void;
  /** Standard error: progress of a calibration. */
  err: (text: string) => void;
}

/**
 * Reads a key, checks it and prints its PHC string.
 *
 * @param options the parameters, or a target time to calibrate them
 * @param io the input and outputs
 * @returns the PHC string printed
 * @throws {KeyInputError} on an empty key, a key over 256 characters,
 *   differing prompts, unusable options, or parameters (given or
 *   calibrated) below OWASP's argon2id minimum without `allowWeak`
 */
export async function hashKeyCommand(
  options: HashKeyOptions,
  io: HashKeyIo,
): Promise<string> {
  if (options.targetMs !== undefined && options.iterations !== undefined) {
    throw new KeyInputError(
      "--target-ms chooses the iterations: do not pass --iterations with it",
    );
  }
  const given = {
    memory: options.memory ?? DEFAULT_KEY_PARAMS.memory,
    iterations: options.iterations ?? DEFAULT_KEY_PARAMS.iterations,
    parallelism: options.parallelism ?? DEFAULT_KEY_PARAMS.parallelism,
  };
  const problem = keyParamsProblem(given);
  if (problem) throw new KeyInputError(`Parameters refused: ${problem}`);
  const weakGiven = weakness(given);
  if (weakGiven && !options.allowWeak && options.targetMs === undefined) {
    throw new KeyInputError(
      `Parameters refused: ${weakGiven.cost} is below ${weakGiven.minimum}: raise --memory or --iterations, or pass --allow-weak to accept a hash that is faster to guess`,
    );
  }
  if (
    options.targetMs !== undefined &&
    !(Number.isFinite(options.targetMs) && options.targetMs >= 1 &&
      options.targetMs <= 60_000)
  ) {
    throw new KeyInputError("--target-ms must be between 1 and 60000");
  }
  if (
    options.name === undefined &&
    (options.fullName !== undefined || options.email !== undefined ||
      options.role !== undefined)
  ) {
    throw new KeyInputError("--full-name, --email and --role go with --name");
  }
  const named = options.name === undefined ? undefined : namedEditor(options);
  const key = named ? `${named.id}.${randomToken(24)}` : await readKey(io);
  checkKey(key);
  const params = options.targetMs === undefined ? given : await calibrate(
    options.targetMs,
    given,
    options.memory !== undefined,
    io,
  );
  const weak = weakness(params);
  if (weak && !options.allowWeak) {
    throw new KeyInputError(
      `Calibration refused: it ended at ${weak.cost}, below ${weak.minimum}: raise --target-ms, or pass --allow-weak to accept a hash that is faster to guess`,
    );
  }
  if (weak) {
    io.err(
      `Warning: --allow-weak: ${weak.cost} is below ${weak.minimum}; use this hash for tests only\n`,
    );
  }
  const started = performance.now();
  const phc = await hashKey(key, params);
  if (options.targetMs !== undefined) {
    io.err(
      `Hashed with m=${params.memory} t=${params.iterations} p=${params.parallelism} in ${
        Math.round(performance.now() - started)
      } ms\n`,
    );
  }
  if (named) {
    const entry = JSON.stringify({
      [named.id]: {
        hash: phc,
        name: named.name,
        email: named.email,
        ...(named.role === "author" ? { role: named.role } : {}),
      },
    });
    const checked = readEditorKeys(entry);
    if (!checked.ok) throw new KeyInputError(checked.problem);
    io.err(
      `The key of ${named.id} (shown once: give it to them; they log in with it):\n`,
    );
    io.out(key + "\n");
    io.err(
      "The entry to add to EDITOR_KEYS (merge it into the JSON object there):\n",
    );
    io.out(entry + "\n");
    return phc;
  }
  io.out(phc + "\n");
  return phc;
}

/** The named editor of `--name`, `--full-name` and `--email`, checked. */
function namedEditor(
  options: HashKeyOptions,
): { id: string; name: string; email: string; role: EditorRole } {
  const id = options.name ?? "";
  const role = options.role ?? "publisher";
  if (!EDITOR_ROLES.includes(role as EditorRole)) {
    throw new KeyInputError(
      `--role must be ${EDITOR_ROLES.join(" or ")}`,
    );
  }
  if (!EDITOR_ID.test(id)) {
    throw new KeyInputError(
      "--name must be 1 to 32 lowercase letters, digits or -",
    );
  }
  if (id === PLAIN_EDITOR_ID) {
    throw new KeyInputError(
      `--name ${PLAIN_EDITOR_ID} is the plain site key's: choose another id`,
    );
  }
  const name = options.fullName ?? id;
  const email = options.email ?? `${id}@inpage.invalid`;
  // The entry is checked as EDITOR_KEYS will read it (a stand-in hash).
  const trial = readEditorKeys(
    JSON.stringify({
      [id]: {
        hash: "$argon2id$v=19$m=65536,t=3,p=1$c29tZXNhbHRzb21lc2FsdA$" +
          "A".repeat(43),
        name,
        email,
      },
    }),
  );
  if (!trial.ok) {
    throw new KeyInputError(
      trial.problem.replace(/^EDITOR_KEYS: /, "").replace(
        /the name of "[^"]*"/,
        "--full-name",
      ).replace(
        /the email of "[^"]*" is not an address/,
        "--email is not an address",
      ),
    );
  }
  return { id, name: name.trim(), email, role: role as EditorRole };
}

/**
 * OWASP's minimum memory for argon2id at a number of iterations, in KiB
 * (the Password Storage Cheat Sheet: 19 MiB with t=2, or the equivalent
 * 46 MiB with t=1, 12 MiB with t=3, 9 MiB with t=4, 7 MiB with t=5 or more).
 *
 * @example
 * ```ts
 * import { owaspMinimumMemory } from "./hash_key.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(owaspMinimumMemory(2), 19_456);
 * assert.equal(owaspMinimumMemory(3), 12_288);
 * assert.equal(owaspMinimumMemory(8), 7_168);
 * ```
 *
 * @param iterations the time cost t
 * @returns the least memory cost m in KiB
 */
export function owaspMinimumMemory(iterations: number): number {
  if (iterations <= 1) return 47_104;
  if (iterations === 2) return 19_456;
  if (iterations === 3) return 12_288;
  if (iterations === 4) return 9_216;
  return 7_168;
}

/**
 * The parameters as `m=… KiB with t=…` and OWASP's minimum they miss, or
 * `undefined` when they reach it.
 */
function weakness(
  params: KeyHashParams,
): { cost: string; minimum: string } | undefined {
  const { memory, iterations } = params;
  const least = owaspMinimumMemory(iterations);
  if (memory >= least) return undefined;
  return {
    cost: `m=${memory} KiB with t=${iterations}`,
    minimum:
      `OWASP's minimum for argon2id (m=${least} KiB at t=${iterations}; m=19456 KiB at t=2)`,
  };
}

/**
 * Refuses an empty key and a key over 256 characters.
 *
 * @param key the key read
 * @throws {KeyInputError} with a one-line message
 */
export function checkKey(key: string): void {
  if (key.length === 0) throw new KeyInputError("The key is empty");
  if (codePoints(key, KEY_MAX) > KEY_MAX) {
    throw new KeyInputError(`The key is longer than ${KEY_MAX} characters`);
  }
}

/**
 * Finds parameters whose hash takes about `targetMs` on this machine: the
 * iterations for the memory, halving the memory (unless it was given) when
 * one iteration is already too slow, doubling it when 20 are too fast.
 *
 * @param targetMs the wanted time of one verification
 * @param start the memory and parallelism to start from
 * @param memoryFixed whether the memory was given and must stay
 * @param io where progress is written
 * @returns the parameters
 */
export async function calibrate(
  targetMs: number,
  start: KeyHashParams,
  memoryFixed: boolean,
  io: Pick<HashKeyIo, "err">,
): Promise<KeyHashParams> {
  let memory = start.memory;
  const { parallelism } = start;
  const minimum = 8 * parallelism;
  for (let round = 0; round < 24; round++) {
    const one = await timeHash({ memory, iterations: 1, parallelism });
    io.err(`Calibrating: m=${memory} t=1 took ${Math.round(one)} ms\n`);
    if (!memoryFixed && one > targetMs * 1.2 && memory / 2 >= minimum) {
      memory = Math.max(minimum, Math.floor(memory / 2));
      continue;
    }
    const two = await timeHash({ memory, iterations: 2, parallelism });
    const perPass = Math.max(0.01, two - one);
    const overhead = Math.max(0.01, one - perPass);
    const iterations = Math.round((targetMs - overhead) / perPass);
    if (
      !memoryFixed && iterations > KEY_PARAM_LIMITS.iterations &&
      memory * 2 <= KEY_PARAM_LIMITS.memory
    ) {
      memory *= 2;
      continue;
    }
    return {
      memory,
      iterations: Math.min(
        KEY_PARAM_LIMITS.iterations,
        Math.max(1, iterations),
      ),
      parallelism,
    };
  }
  return { memory, iterations: 1, parallelism };
}

async function timeHash(params: KeyHashParams): Promise<number> {
  const started = performance.now();
  await hashKey("calibration", params);
  return performance.now() - started;
}

export { KeyInputError };
