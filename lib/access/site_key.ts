/**
 * The site key: argon2id (through `hash-wasm`) in a PHC string, verified in
 * constant time, at most two verifications at once per process, and the same
 * work for a missing or unreadable hash as for a real one.
 *
 * @module
 */

import {
  type PrecompiledArgon2,
  withPrecompiledWasm,
} from "./precompiled_wasm.ts";

export type { PrecompiledArgon2 } from "./precompiled_wasm.ts";
import {
  KEY_CHECKS_RETRY_SECONDS,
  KEY_CHECKS_RUNNING_MAX,
  KEY_CHECKS_WAITING_MAX,
} from "../limits.ts";
import { AccessError } from "./access_error.ts";
import {
  DEFAULT_KEY_PARAMS,
  KEY_HASH_BYTES,
  KEY_SALT_BYTES,
  type KeyHashParams,
  keyParamsProblem,
  type ParsedKeyHash,
  parseKeyHash,
} from "./key_hash_format.ts";

export {
  DEFAULT_KEY_PARAMS,
  KEY_PARAM_LIMITS,
  type KeyHashParams,
  keyParamsProblem,
  type ParsedKeyHash,
  parseKeyHash,
} from "./key_hash_format.ts";
import { useNativeDigest } from "../digest.ts";
import type { Argon2Job, Argon2Runner } from "../http/env.ts";
export type { Argon2Job, Argon2Runner };

/**
 * hash-wasm, loaded when a key is first hashed or checked: no other request
 * needs it, and compiling it is the largest part of a cold start.
 */
let hashWasm: Promise<typeof import("hash-wasm")> | undefined;
/**
 * The comparison, with `node:crypto`, loaded with the first key check; the
 * digests then use `node:crypto` too, as it is loaded anyway.
 */
let constantTime: Promise<typeof import("./constant_time.ts")> | undefined;
function loadConstantTime(): Promise<typeof import("./constant_time.ts")> {
  return constantTime ??= Promise.all([
    import("./constant_time.ts"),
    useNativeDigest(),
  ]).then(([module]) => module);
}
function loadHashWasm(): Promise<typeof import("hash-wasm")> {
  return hashWasm ??= import("hash-wasm");
}

/**
 * Hashes a key into a PHC string with a fresh 16-byte salt.
 *
 * @param key the site key (normalised to NFC, hashed as UTF-8)
 * @param params the cost parameters; defaults to `DEFAULT_KEY_PARAMS`
 * @returns the PHC string
 * @throws {RangeError} when the parameters are over the limits
 */
export async function hashKey(
  key: string,
  params: KeyHashParams = DEFAULT_KEY_PARAMS,
): Promise<string> {
  const problem = keyParamsProblem(params);
  if (problem) throw new RangeError(problem);
  const salt = crypto.getRandomValues(new Uint8Array(KEY_SALT_BYTES));
  const { argon2id } = await loadHashWasm();
  return await argon2id({
    password: key.normalize("NFC"),
    salt,
    memorySize: params.memory,
    iterations: params.iterations,
    parallelism: params.parallelism,
    hashLength: KEY_HASH_BYTES,
    outputType: "encoded",
  });
}

let running = 0;
let verifications = 0;
const waiting: (() => void)[] = [];

/** Where `verifyKey` computes its hash; every field is optional. */
export interface KeyCheckOptions {
  /** Runs the hash (the host's `EDITOR_ARGON2`); first choice when given. */
  run?: Argon2Runner | undefined;
  /** Precompiled WebAssembly, for hosts that forbid compiling it at run time. */
  wasm?: PrecompiledArgon2 | undefined;
  /** Told once per process when key checks run on the main thread. */
  warn?: ((message: string) => void) | undefined;
  /**
   * The cost of the decoy verified when the hash is missing or unreadable;
   * default `DEFAULT_KEY_PARAMS` (see `keyTarget` for named editors).
   */
  decoy?: KeyHashParams | undefined;
  /**
   * More costs to pay, each as one decoy hash computed after the real one
   * in the same slot, so that every login costs the same whichever hash
   * its key names (see `keyTarget`: one per other cost among the
   * configured hashes).
   */
  also?: readonly KeyHashParams[] | undefined;
}

/**
 * Computes one argon2id hash in the calling thread, with hash-wasm. A
 * worker thread of the host calls it (see the Node and Bun recipes); with
 * precompiled modules, nothing is compiled at run time.
 *
 * @param job the key, salt and parameters
 * @param wasm hash-wasm's argon2 and blake2b modules, compiled ahead of time
 * @returns the raw hash
 * @example
 * ```ts
 * import { argon2Hash } from "@inpage/editor";
 * import assert from "node:assert/strict";
 *
 * const hash = await argon2Hash({
 *   password: "key",
 *   salt: new Uint8Array(16),
 *   memorySize: 64,
 *   iterations: 1,
 *   parallelism: 1,
 *   hashLength: 32,
 * });
 * assert.equal(hash.length, 32);
 * ```
 */
export async function argon2Hash(
  job: Argon2Job,
  wasm?: PrecompiledArgon2,
): Promise<Uint8Array> {
  const { argon2id } = await loadHashWasm();
  const compute = () => argon2id({ ...job, outputType: "binary" });
  return wasm ? await withPrecompiledWasm(wasm, compute) : await compute();
}

/**
 * Verifies a key against a PHC string, in constant time. A missing or
 * unreadable hash costs the same work as a default one and answers false.
 * At most two verifications run at once in a process; up to eight more wait,
 * and beyond that the check is refused at once.
 *
 * The hash runs in `options.run` when given; else in a Web Worker where the
 * host has them (Deno); else, or when that fails, on the calling thread,
 * and `options.warn` is told so once (not when precompiled WebAssembly is
 * given: a host without threads, such as workerd, computes in place).
 *
 * @param key the submitted key
 * @param phc the configured `EDITOR_KEY_HASH`
 * @param options where the hash runs
 * @returns whether the key matches
 * @throws {AccessError} `key_checks_busy` when two checks run and eight
 *   wait: a flood of logins is refused at once rather than queued without end
 */
export async function verifyKey(
  key: string,
  phc: string | undefined,
  options: KeyCheckOptions = {},
): Promise<boolean> {
  const parsed = parseKeyHash(phc);
  const target = parsed ?? decoy(options.decoy);
  if (
    running >= KEY_CHECKS_RUNNING_MAX &&
    waiting.length >= KEY_CHECKS_WAITING_MAX
  ) {
    throw new AccessError(
      "key_checks_busy",
      `key checks busy: ${KEY_CHECKS_RUNNING_MAX} running and ${KEY_CHECKS_WAITING_MAX} waiting`,
      { retryAfterSeconds: KEY_CHECKS_RETRY_SECONDS },
    );
  }
  while (running >= KEY_CHECKS_RUNNING_MAX) {
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  running++;
  verifications++;
  const pads = (options.also ?? []).map((params) => decoy(params));
  lastWork = [target, ...pads].map(costOf);
  try {
    const password = key.normalize("NFC");
    const [computed, { constantTimeEqual }] = await Promise.all([
      argon2(password, target, options),
      loadConstantTime(),
    ]);
    const matches = constantTimeEqual(computed, target.hash) &&
      parsed !== undefined;
    // The other costs, whatever the answer: the same work for every key.
    for (const pad of pads) await argon2(password, pad, options);
    return matches;
  } finally {
    running--;
    waiting.shift()?.();
  }
}

const workersExist = typeof Worker === "function";
let warned = false;

/**
 * One argon2id hash: in the host's runner when given, in a short-lived
 * worker where the host has workers, so the main thread keeps answering;
 * inline otherwise.
 */
async function argon2(
  password: string,
  target: ParsedKeyHash,
  options: KeyCheckOptions,
): Promise<Uint8Array> {
  const job: Argon2Job = {
    password,
    salt: target.salt,
    memorySize: target.memory,
    iterations: target.iterations,
    parallelism: target.parallelism,
    hashLength: target.hash.length,
  };
  let reason: string;
  if (options.run) {
    try {
      const hash = await options.run(job);
      if (hash instanceof Uint8Array) return hash;
      reason = "EDITOR_ARGON2 answered without a hash";
    } catch (error) {
      reason = `EDITOR_ARGON2 failed: ${(error as Error)?.message}`;
    }
  } else if (options.wasm) {
    return await argon2Hash(job, options.wasm);
  } else if (workersExist) {
    try {
      return await inWorker(job);
    } catch (error) {
      // This worker failed (a host without permission for it, or a bundle
      // without the worker file): this check runs inline; the next one
      // tries a worker again.
      reason = (error as Error).message;
    }
  } else {
    reason = "this host has no global Worker and EDITOR_ARGON2 is not set";
  }
  if (!warned && options.warn) {
    warned = true;
    options.warn(
      `warning: key checks run on the main thread, which stalls other requests for the length of each check (${reason})`,
    );
  }
  return await argon2Hash(job, options.wasm);
}

function inWorker(job: Argon2Job): Promise<Uint8Array> {
  const worker = new Worker(
    new URL("./argon2_worker.ts", import.meta.url).href,
    {
      type: "module",
    },
  );
  return new Promise<Uint8Array>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<unknown>) => {
      if (event.data instanceof Uint8Array) resolve(event.data);
      else reject(new Error("argon2 worker answered without a hash"));
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      reject(new Error("argon2 worker failed: " + event.message));
    };
    worker.onmessageerror = () =>
      reject(new Error("argon2 worker message failed"));
    worker.postMessage(job);
  }).finally(() => worker.terminate());
}

/**
 * How many key verifications are running now (at most two).
 *
 * @returns the number in progress
 */
export function verificationsRunning(): number {
  return running;
}

/**
 * How many key verifications this process has started: lets tests prove
 * that a refused request computed nothing.
 *
 * @returns the count since the process started
 */
export function verificationCount(): number {
  return verifications;
}

let lastWork: KeyHashParams[] = [];

function costOf(params: KeyHashParams): KeyHashParams {
  return {
    memory: params.memory,
    iterations: params.iterations,
    parallelism: params.parallelism,
  };
}

/**
 * The argon2id cost of the hash the last key verification of this process
 * checked the key against: a missing or unreadable key hash is checked
 * against a decoy of the default cost, so it takes the same work as a real
 * one.
 *
 * @returns the memory, iterations and parallelism used, or `undefined`
 *   before the first verification
 */
export function lastVerificationCost(): KeyHashParams | undefined {
  return lastWork[0];
}

/**
 * Every argon2id hash the last key verification of this process computed,
 * by cost: the one checked first, then the decoys of `also`.
 *
 * @returns the costs, in the order computed (empty before the first)
 */
export function lastVerificationWork(): KeyHashParams[] {
  return lastWork.map(costOf);
}

function decoy(params: KeyHashParams = DEFAULT_KEY_PARAMS): ParsedKeyHash {
  return {
    memory: params.memory,
    iterations: params.iterations,
    parallelism: params.parallelism,
    salt: crypto.getRandomValues(new Uint8Array(KEY_SALT_BYTES)),
    hash: crypto.getRandomValues(new Uint8Array(KEY_HASH_BYTES)),
  };
}
