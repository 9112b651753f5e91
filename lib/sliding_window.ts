/**
 * Exact sliding windows in a KV store: at most `limit` accepted requests in
 * any span of `windowMs`. One entry per (route, client) holds the accepted
 * timestamps; it is updated with an atomic versionstamp check and retried on
 * conflict, so the budget holds across processes sharing one KV. A refused
 * request writes nothing.
 *
 * A refusal is also remembered in the process until the slot it waits for
 * frees: other processes can only add timestamps to a window, never remove
 * them, so a client known to be over budget stays so until then, and a flood
 * is answered without reading the KV again.
 *
 * @module
 */

import type { KvKey, KvStore } from "./env.ts";
import { retryBusy } from "./kv_binding.ts";

/** A budget: `limit` requests per `windowMs`. */
export interface Budget {
  /** Accepted requests allowed in any window. */
  readonly limit: number;
  /** The window, in milliseconds. */
  readonly windowMs: number;
}

/** The outcome of taking one slot. */
export type WindowResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly retryAfterSeconds: number };

/** Thrown when the KV keeps conflicting beyond any plausible contention. */
export class WindowContentionError extends Error {
  /**
   * Creates the error.
   *
   * @param detail what happened, for the log
   */
  constructor(detail: string) {
    super(detail);
    this.name = "WindowContentionError";
  }
}

const MAX_ATTEMPTS = 200;
const MEMO_MAX = 10_000;
const blockedUntil = new WeakMap<KvStore, Map<string, number>>();

function memoOf(kv: KvStore): Map<string, number> {
  let memo = blockedUntil.get(kv);
  if (!memo) {
    memo = new Map();
    blockedUntil.set(kv, memo);
  }
  return memo;
}

function remember(
  memo: Map<string, number>,
  id: string,
  until: number,
  now: number,
) {
  if (memo.size >= MEMO_MAX) {
    for (const [key, time] of memo) if (time <= now) memo.delete(key);
    if (memo.size >= MEMO_MAX) memo.clear();
  }
  memo.set(id, until);
}

/**
 * Takes one slot in the window at `key`, or says how long to wait.
 *
 * @param kv the store
 * @param key the entry of this route and client
 * @param budget the limit and window
 * @param clock the current time in milliseconds
 * @returns `ok`, or the whole seconds until the oldest slot leaves the window
 * @throws {WindowContentionError} after 200 conflicting attempts
 */
export async function takeSlot(
  kv: KvStore,
  key: KvKey,
  budget: Budget,
  clock: () => number,
): Promise<WindowResult> {
  const memo = memoOf(kv);
  const id = JSON.stringify(key);
  const known = memo.get(id);
  if (known !== undefined) {
    const now = clock();
    if (known > now) {
      return {
        ok: false,
        retryAfterSeconds: Math.max(1, Math.ceil((known - now) / 1000)),
      };
    }
    memo.delete(id);
  }
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const entry = await retryBusy(() => kv.get<unknown>(key));
    const now = clock();
    const recent = timestamps(entry.value).filter((t) =>
      t > now - budget.windowMs
    );
    if (recent.length >= budget.limit) {
      const oldest = recent[recent.length - budget.limit] ?? now;
      const frees = oldest + budget.windowMs;
      remember(memo, id, frees, now);
      const wait = Math.ceil((frees - now) / 1000);
      return { ok: false, retryAfterSeconds: Math.max(1, wait) };
    }
    recent.push(now);
    const result = await retryBusy(() =>
      kv.atomic()
        .check({ key, versionstamp: entry.versionstamp })
        .set(key, recent, { expireIn: budget.windowMs })
        .commit()
    );
    if (result.ok) return { ok: true };
    if (attempt > 2) {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
    }
  }
  throw new WindowContentionError(
    `rate window still conflicting after ${MAX_ATTEMPTS} attempts`,
  );
}

function timestamps(value: unknown): number[] {
  if (!Array.isArray(value)) return [];
  return value.filter((t): t is number => typeof t === "number").sort((a, b) =>
    a - b
  );
}
