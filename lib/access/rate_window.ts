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

import type { KvEntry, KvKey, KvStore } from "../http/env.ts";
import { getEntries, retryBusy } from "./kv_binding.ts";

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

/** A window read by `peekSlot`: refused already, or a slot may be taken. */
export type PeekResult =
  | { readonly ok: false; readonly retryAfterSeconds: number }
  | {
    readonly ok: true;
    /** The entries at `alsoRead`, read in the same round trip. */
    readonly also: readonly KvEntry<unknown>[];
    /** Takes the slot, reusing the entry already read for the first try. */
    readonly take: () => Promise<WindowResult>;
  };

/**
 * Reads the window at `key` without writing: refuses a client already over
 * budget, else lets the caller take the slot later (after checks that must
 * not spend the budget, such as the identity check).
 *
 * @param kv the store
 * @param key the entry of this route and client
 * @param budget the limit and window
 * @param clock the current time in milliseconds
 * @param alsoRead more keys read with the window in one round trip (the
 *   sessions a request names), unless it is refused without reading
 * @returns the refusal, or a way to take the slot and the other entries
 */
export async function peekSlot(
  kv: KvStore,
  key: KvKey,
  budget: Budget,
  clock: () => number,
  alsoRead: readonly KvKey[] = [],
): Promise<PeekResult> {
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
  const [entry, ...also] = alsoRead.length === 0
    ? [await retryBusy(() => kv.get<unknown>(key))]
    : await getEntries(kv, [key, ...alsoRead]);
  if (entry === undefined) throw new Error("getMany answered no entry");
  const refused = refusal(entry.value, budget, clock(), memo, id);
  if (refused) return refused;
  return {
    ok: true,
    also,
    take: () => takeSlot(kv, key, budget, clock, entry),
  };
}

/**
 * Takes one slot in the window at `key`, or says how long to wait.
 *
 * @param kv the store
 * @param key the entry of this route and client
 * @param budget the limit and window
 * @param clock the current time in milliseconds
 * @param first the entry already read, used for the first attempt
 * @returns `ok`, or the whole seconds until the oldest slot leaves the window
 * @throws {WindowContentionError} after 200 conflicting attempts
 */
export async function takeSlot(
  kv: KvStore,
  key: KvKey,
  budget: Budget,
  clock: () => number,
  first?: KvEntry<unknown>,
): Promise<WindowResult> {
  const memo = memoOf(kv);
  const id = JSON.stringify(key);
  let entry = first;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    entry ??= await retryBusy(() => kv.get<unknown>(key));
    const now = clock();
    const refused = refusal(entry.value, budget, now, memo, id);
    if (refused) return refused;
    const recent = inWindow(entry.value, budget, now);
    recent.push(now);
    const versionstamp = entry.versionstamp;
    const result = await retryBusy(() =>
      kv.atomic()
        .check({ key, versionstamp })
        .set(key, recent, { expireIn: budget.windowMs })
        .commit()
    );
    if (result.ok) return { ok: true };
    entry = undefined;
    if (attempt > 2) {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
    }
  }
  throw new WindowContentionError(
    `rate window still conflicting after ${MAX_ATTEMPTS} attempts`,
  );
}

/** The refusal for a full window, remembered until its oldest slot frees. */
function refusal(
  value: unknown,
  budget: Budget,
  now: number,
  memo: Map<string, number>,
  id: string,
): { ok: false; retryAfterSeconds: number } | undefined {
  const recent = inWindow(value, budget, now);
  if (recent.length < budget.limit) return undefined;
  const oldest = recent[recent.length - budget.limit] ?? now;
  const frees = oldest + budget.windowMs;
  remember(memo, id, frees, now);
  return {
    ok: false,
    retryAfterSeconds: Math.max(1, Math.ceil((frees - now) / 1000)),
  };
}

function inWindow(value: unknown, budget: Budget, now: number): number[] {
  return timestamps(value).filter((t) => t > now - budget.windowMs);
}

function timestamps(value: unknown): number[] {
  if (!Array.isArray(value)) return [];
  return value.filter((t): t is number => typeof t === "number").sort((a, b) =>
    a - b
  );
}
