/**
 * GitHub's answers kept for conditional reads: for each `GET` (by URL and
 * media type), the `ETag` and the body of the last 200, so that the next
 * read sends `If-None-Match` and a `304 Not Modified` (which GitHub does
 * not count against the hourly budget) is served from what was kept. Kept
 * in this process (at most {@linkcode MEMORY_BYTES_MAX} bytes, the oldest
 * going first) and, when the host gives a KV (`RATE_LIMIT`), there too, so
 * that other processes and the next cold start send the same `ETag`.
 *
 * An answer is served only after GitHub said 304 to its `ETag`, so a stale
 * or foreign entry costs a full read, never a wrong one.
 *
 * @module
 */

import { sha256Hex } from "../digest.ts";

/** An answer kept: its validator, its body and the headers that matter. */
export interface KeptAnswer {
  /** The `ETag` GitHub sent. */
  etag: string;
  /** The body, as received. */
  body: Uint8Array;
  /** The `Link` header, when there was one (a list's next page). */
  link?: string | undefined;
}

/**
 * The subset of Deno KV (or the same API) the cache uses: values of at most
 * 64 KiB, so a body is kept in parts.
 */
export interface AnswerKv {
  /** Reads one entry. */
  get(key: readonly (string | number)[]): Promise<{ value: unknown }>;
  /** Starts an atomic operation. */
  atomic(): {
    set(
      key: readonly (string | number)[],
      value: unknown,
      options?: { expireIn?: number },
    ): unknown;
    commit(): Promise<unknown>;
  };
}

/** The most bytes of bodies kept in this process. */
export const MEMORY_BYTES_MAX = 16 * 1024 * 1024;
/** Bodies larger than this are not kept (files over 1 MB come raw anyway). */
const BODY_MAX = 1024 * 1024;
/** A KV value holds at most 64 KiB: parts of this size. */
const PART = 60_000;
/** How long a kept answer stays in the KV. */
const KV_EXPIRE_MS = 7 * 24 * 3_600_000;

const memory = new Map<string, KeptAnswer>();
let memoryBytes = 0;

function remember(key: string, answer: KeptAnswer): void {
  const before = memory.get(key);
  if (before) {
    memory.delete(key);
    memoryBytes -= before.body.byteLength;
  }
  memory.set(key, answer);
  memoryBytes += answer.body.byteLength;
  for (const [oldest, kept] of memory) {
    if (memoryBytes <= MEMORY_BYTES_MAX) break;
    memory.delete(oldest);
    memoryBytes -= kept.body.byteLength;
  }
}

/** The answers of one API root, in this process and in a KV. */
export class KeptAnswers {
  readonly #kv: AnswerKv | undefined;

  /**
   * Keeps answers in this process, and in `kv` when given.
   *
   * @param kv the host's KV, if any
   */
  constructor(kv: AnswerKv | undefined) {
    this.#kv = kv;
  }

  /**
   * The key an answer is kept under.
   *
   * @param url the request's URL
   * @param accept its media type
   * @returns the key
   */
  static keyOf(url: string, accept: string): string {
    return sha256Hex(`${accept}\n${url}`);
  }

  /**
   * The answer kept for a key, from this process or else from the KV.
   *
   * @param key from {@linkcode KeptAnswers.keyOf}
   * @returns the answer, or `undefined`
   */
  async get(key: string): Promise<KeptAnswer | undefined> {
    const held = memory.get(key);
    if (held || !this.#kv) return held;
    try {
      const meta = (await this.#kv.get(["editor", "github-etag", key]))
        .value as
          | {
            etag?: unknown;
            digest?: unknown;
            parts?: unknown;
            link?: unknown;
          }
          | null;
      if (
        typeof meta?.etag !== "string" || typeof meta.digest !== "string" ||
        typeof meta.parts !== "number" || meta.parts < 0 || meta.parts > 20
      ) return undefined;
      const parts: Uint8Array[] = [];
      for (let index = 0; index < meta.parts; index++) {
        const part = (await this.#kv.get([
          "editor",
          "github-etag-part",
          key,
          index,
        ])).value;
        if (!(part instanceof Uint8Array)) return undefined;
        parts.push(part);
      }
      const body = new Uint8Array(
        parts.reduce((sum, part) => sum + part.byteLength, 0),
      );
      let at = 0;
      for (const part of parts) {
        body.set(part, at);
        at += part.byteLength;
      }
      // A part written by another answer meanwhile: not this one.
      if (sha256Hex(body) !== meta.digest) return undefined;
      const answer: KeptAnswer = {
        etag: meta.etag,
        body,
        ...(typeof meta.link === "string" ? { link: meta.link } : {}),
      };
      remember(key, answer);
      return answer;
    } catch {
      return undefined; // a KV failing costs a full read, never an answer
    }
  }

  /**
   * Keeps an answer (a body over 1 MB is not kept).
   *
   * @param key from {@linkcode KeptAnswers.keyOf}
   * @param answer the validator, the body and its `Link`
   */
  async set(key: string, answer: KeptAnswer): Promise<void> {
    if (answer.body.byteLength > BODY_MAX) return;
    remember(key, answer);
    if (!this.#kv) return;
    try {
      const operation = this.#kv.atomic();
      const count = Math.ceil(answer.body.byteLength / PART);
      for (let index = 0; index < count; index++) {
        operation.set(
          ["editor", "github-etag-part", key, index],
          answer.body.slice(index * PART, (index + 1) * PART),
          { expireIn: KV_EXPIRE_MS },
        );
      }
      operation.set(["editor", "github-etag", key], {
        etag: answer.etag,
        digest: sha256Hex(answer.body),
        parts: count,
        ...(answer.link === undefined ? {} : { link: answer.link }),
      }, { expireIn: KV_EXPIRE_MS });
      await operation.commit();
    } catch {
      // Not kept in the KV: the next process reads in full once.
    }
  }
}

/**
 * Forgets every answer kept in this process (for tests and benchmarks).
 *
 * @example
 * ```ts
 * import { forgetKeptAnswers } from "./github_etags.ts";
 *
 * forgetKeptAnswers();
 * ```
 */
export function forgetKeptAnswers(): void {
  memory.clear();
  memoryBytes = 0;
}
