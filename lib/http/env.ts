/**
 * What a host passes to the routes: its variables and bindings.
 *
 * @module
 */

import { jsonLine } from "../encoding/text.ts";
import type { Repository } from "../repository/repository.ts";

/** A key in a Deno KV store. */
export type KvKey =
  readonly (string | number | bigint | boolean | Uint8Array)[];

/** An entry read from a KV store; `versionstamp` is `null` when absent. */
export interface KvEntry<T> {
  /** The value, or `null` when absent. */
  readonly value: T | null;
  /** The entry's version, or `null` when absent. */
  readonly versionstamp: string | null;
}

/** The result of an atomic commit. */
export type KvCommitResult = {
  readonly ok: true;
  readonly versionstamp: string;
} | {
  readonly ok: false;
};

/** An atomic operation: checks, then mutations, all or nothing. */
export interface KvAtomic {
  /** Fails the commit unless each key still has the given versionstamp. */
  check(...checks: { key: KvKey; versionstamp: string | null }[]): this;
  /** Sets a value, optionally expiring after `expireIn` milliseconds. */
  set(key: KvKey, value: unknown, options?: { expireIn?: number }): this;
  /** Commits the operation. */
  commit(): Promise<KvCommitResult | { readonly ok: false }>;
}

/**
 * The subset of `Deno.Kv` the package uses, so that `Deno.openKv()` or the
 * same API on another runtime (`@deno/kv` on Node) can be passed.
 */
export interface KvStore {
  /** Reads one entry. */
  get<T = unknown>(key: KvKey): Promise<KvEntry<T>>;
  /**
   * Reads up to ten entries in one operation, in order (optional: `get` is
   * used for each key without it).
   */
  getMany?(keys: readonly KvKey[]): Promise<KvEntry<unknown>[]>;
  /** Sets one entry, optionally expiring after `expireIn` milliseconds. */
  set(
    key: KvKey,
    value: unknown,
    options?: { expireIn?: number },
  ): Promise<unknown>;
  /** Deletes one entry. */
  delete(key: KvKey): Promise<void>;
  /** Starts an atomic operation. */
  atomic(): KvAtomic;
}

/** The host's variables and bindings that the routes read. */
export interface Env {
  /** Deno KV (or the same API): rate windows and sessions. Required. */
  RATE_LIMIT?: KvStore | undefined;
  /** The argon2id PHC string made by `editor hash-key`. */
  EDITOR_KEY_HASH?: string | undefined;
  /**
   * Named editors: a JSON object of id → `{ hash, name, email }` (see
   * `editor hash-key --name`); a named key is `<id>.<secret>`.
   */
  EDITOR_KEYS?: string | undefined;
  /**
   * The secret preview links are signed with (HMAC-SHA-256), at least 32
   * characters; without it no preview link can be made or opened.
   */
  EDITOR_PREVIEW_SECRET?: string | undefined;
  /** A GitHub token with contents read and write on the one repository. */
  GITHUB_TOKEN?: string | undefined;
  /**
   * A GitHub App's ID (or client ID): with `GITHUB_APP_PRIVATE_KEY` and
   * `GITHUB_APP_INSTALLATION_ID`, the app's installation is used instead of
   * `GITHUB_TOKEN` (its tokens are obtained and renewed by the server).
   */
  GITHUB_APP_ID?: string | undefined;
  /** The app's private key, PEM (PKCS#1 as GitHub issues it, or PKCS#8). */
  GITHUB_APP_PRIVATE_KEY?: string | undefined;
  /** The ID of the app's installation on the repository's account. */
  GITHUB_APP_INSTALLATION_ID?: string | undefined;
  /** The repository as `owner/name`. */
  GITHUB_REPOSITORY?: string | undefined;
  /** The branch written to; default `main`. */
  GITHUB_BRANCH?: string | undefined;
  /** The REST API root; default `https://api.github.com`. */
  GITHUB_API_URL?: string | undefined;
  /** A repository used instead of GitHub (the CLI passes the local checkout). */
  REPOSITORY?: Repository | undefined;
  /** A header set by a trusted proxy that carries the client address. */
  EDITOR_CLIENT_IP_HEADER?: string | undefined;
  /**
   * Computes the argon2id hash of a login off the main thread, where the
   * host has no global `Worker` (a `node:worker_threads` worker on Node, a
   * `Worker` on Bun): calls `argon2Hash` there. Default: a Web Worker where
   * the host has them, else the calling thread (with a warning in the log).
   */
  EDITOR_ARGON2?: Argon2Runner | undefined;
  /**
   * hash-wasm's argon2 WebAssembly, compiled ahead of time, for hosts that
   * forbid compiling WebAssembly at run time (Cloudflare's workerd); given
   * with `EDITOR_BLAKE2B_WASM`.
   */
  EDITOR_ARGON2_WASM?: WebAssembly.Module | undefined;
  /** hash-wasm's blake2b WebAssembly, compiled ahead of time. */
  EDITOR_BLAKE2B_WASM?: WebAssembly.Module | undefined;
  /** Receives each JSON log line; default `console.log`. */
  EDITOR_LOG?: ((line: string) => void) | undefined;
  /** The current time in milliseconds; default `Date.now`. For tests. */
  EDITOR_CLOCK?: (() => number) | undefined;
  /**
   * How long a request body may stop arriving, in milliseconds, before the
   * answer is 408; default `BODY_IDLE_MS` of `limits.ts`. For tests.
   */
  EDITOR_BODY_IDLE_MS?: number | undefined;
}

/** What `Deno.serve` passes beside the request: the client's address. */
export interface ClientInfo {
  /**
   * The peer's address: for TCP, `hostname` is its IP; a Unix socket or
   * another transport has none (the client is then the shared bucket).
   */
  readonly remoteAddr?:
    | { readonly hostname?: string | undefined }
    | { readonly transport: string }
    | undefined;
}

/** What every handler receives. */
export interface RouteContext {
  /** The incoming request. */
  request: Request;
  /** The host's variables and bindings. */
  env: Env;
  /** The connection info, when the host has it. */
  info?: ClientInfo | undefined;
}

/** A route handler: a plain Web handler over a context. */
export type Handler = (context: RouteContext) => Promise<Response>;

/**
 * Writes one JSON line that is not about a request (configuration problems,
 * a review's branch left behind) through `env.EDITOR_LOG`, or
 * `console.log`; a sink that throws is ignored.
 *
 * @param env the host's bindings
 * @param message what happened, in sentence case (never a secret)
 */
export function logNotice(env: Env, message: string): void {
  const line = jsonLine({ time: new Date().toISOString(), message });
  try {
    (env.EDITOR_LOG ?? console.log)(line);
  } catch {
    // A failing log sink must not change an answer.
  }
}

/** The current time of a context, in milliseconds. */
export function now(env: Env): number {
  return env.EDITOR_CLOCK ? env.EDITOR_CLOCK() : Date.now();
}

/** One argon2id computation, as an `Argon2Runner` receives it. */
export interface Argon2Job {
  /** The key, normalised to NFC. */
  password: string;
  /** The salt bytes. */
  salt: Uint8Array;
  /** Memory in KiB. */
  memorySize: number;
  /** Passes over memory. */
  iterations: number;
  /** Lanes. */
  parallelism: number;
  /** Length of the hash, in bytes. */
  hashLength: number;
}

/**
 * Computes one argon2id hash where the host chooses (a worker thread, say)
 * and resolves to its raw bytes; `argon2Hash` is what it runs there.
 */
export type Argon2Runner = (job: Argon2Job) => Promise<Uint8Array>;
