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
 * What the process last wrote to a window, and the sessions it last read
 * with it, are kept too (bounded), so that the next request of the same
 * editor can skip the read: its slot is committed with a versionstamp check
 * on each of those entries, which fails when anything changed since (another
 * process took a slot, a session ended). Then the entries are read again and
 * handed back to the caller, who checks them as after a first read before
 * taking the slot. The budget stays exact: a slot is only ever committed
 * against the entries as they are.
 *
 * @module
 */

import type { KvEntry, KvKey, KvStore } from "../http/env.ts";
import { getEntries, retryBusy } from "./kv_binding.ts";
import { RATE_MEMO_MAX } from "../limits.ts";

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
const blockedUntil = new WeakMap<KvStore, Map<string, number>>();
/** At most this many other keys are checked when a slot is taken unread. */
const SEEN_ALSO_MAX = 4;
const lastSeen = new WeakMap<KvStore, Map<string, KvEntry<unknown>>>();

function seenOf(kv: KvStore): Map<string, KvEntry<unknown>> {
  return mapOf(lastSeen, kv);
}

function note(
  kv: KvStore,
  keys: readonly KvKey[],
  entries: readonly KvEntry<unknown>[],
): void {
  const seen = seenOf(kv);
  if (seen.size + keys.length > RATE_MEMO_MAX) seen.clear();
  keys.forEach((key, index) => {
    const entry = entries[index];
    if (entry) seen.set(JSON.stringify(key), entry);
  });
}

function recall(
  kv: KvStore,
  keys: readonly KvKey[],
): KvEntry<unknown>[] | undefined {
  const seen = seenOf(kv);
  const entries: KvEntry<unknown>[] = [];
  for (const key of keys) {
    const entry = seen.get(JSON.stringify(key));
    if (!entry) return undefined;
    entries.push(entry);
  }
  return entries;
}

/**
 * Forgets what this process last saw of some entries (sessions deleted), so
 * that no later take relies on them unread.
 *
 * @param kv the store
 * @param keys the entries' keys
 */
export function forgetSeen(kv: KvStore, keys: readonly KvKey[]): void {
  const seen = lastSeen.get(kv);
  for (const key of keys) seen?.delete(JSON.stringify(key));
}

/** The map a store has in `maps`, made on first use. */
function mapOf<V>(
  maps: WeakMap<KvStore, Map<string, V>>,
  kv: KvStore,
): Map<string, V> {
  let map = maps.get(kv);
  if (!map) {
    map = new Map();
    maps.set(kv, map);
  }
  return map;
}

function memoOf(kv: KvStore): Map<string, number> {
  return mapOf(blockedUntil, kv);
}

function remember(
  memo: Map<string, number>,
  id: string,
  until: number,
  now: number,
) {
  if (memo.size >= RATE_MEMO_MAX) {
    for (const [key, time] of memo) if (time <= now) memo.delete(key);
    if (memo.size >= RATE_MEMO_MAX) memo.clear();
  }
  memo.set(id, until);
}

/**
 * A take against entries seen earlier that changed meanwhile: they are read
 * again, the window still has room, and the caller checks the other entries
 * afresh (the session still open) before it calls `retake`.
 */
export interface StaleTake {
  /** Marks this outcome. */
  readonly ok: "stale";
  /** The entries at `alsoRead`, as they are now. */
  readonly also: readonly KvEntry<unknown>[];
  /** Takes the slot against the window as read again. */
  readonly retake: () => Promise<WindowResult>;
}

/** A window read by `peekSlot`: refused already, or a slot may be taken. */
export type PeekResult =
  | {
    readonly ok: false;
    readonly retryAfterSeconds: number;
    /** Refused from the process's memory of an earlier refusal. */
    readonly remembered?: true;
  }
  | {
    readonly ok: true;
    /** The entries at `alsoRead`, read in the same round trip. */
    readonly also: readonly KvEntry<unknown>[];
    /**
     * Takes the slot, reusing the entry already read for the first try; a
     * take against entries seen earlier may find them changed (`stale`).
     */
    readonly take: () => Promise<WindowResult | StaleTake>;
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
 * @param reuseSeen with 1 to 4 `alsoRead` keys, lets the window and those
 *   entries be taken from what this process last saw of them instead of
 *   read; when the take finds them changed, it reads them again and answers
 *   a refusal, or hands them back (`stale`) for the caller to check
 * @returns the refusal, or a way to take the slot and the other entries
 */
export async function peekSlot(
  kv: KvStore,
  key: KvKey,
  budget: Budget,
  clock: () => number,
  alsoRead: readonly KvKey[] = [],
  reuseSeen = false,
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
        remembered: true,
      };
    }
    memo.delete(id);
  }
  const unread = reuseSeen && alsoRead.length > 0 &&
    alsoRead.length <= SEEN_ALSO_MAX;
  const seen = unread ? recall(kv, [key, ...alsoRead]) : undefined;
  if (
    seen?.[0] && inWindow(seen[0].value, budget, clock()).length < budget.limit
  ) {
    const [entry, ...also] = seen;
    return {
      ok: true,
      also,
      take: () => takeSeen(kv, key, budget, clock, [entry, alsoRead, also]),
    };
  }
  const [entry, ...also] = alsoRead.length === 0
    ? [await retryBusy(() => kv.get<unknown>(key))]
    : await getEntries(kv, [key, ...alsoRead]);
  if (entry === undefined) throw new Error("getMany answered no entry");
  if (unread) note(kv, [key, ...alsoRead], [entry, ...also]);
  const refused = refusal(entry.value, budget, clock(), memo, id);
  if (refused) return refused;
  return {
    ok: true,
    also,
    take: () => takeSlot(kv, key, budget, clock, entry, unread),
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
 * @param keep whether to keep what is written, for a later take unread (see
 *   `peekSlot`'s `reuseSeen`)
 * @returns `ok`, or the whole seconds until the oldest slot leaves the window
 * @throws {WindowContentionError} after 200 conflicting attempts
 */
export async function takeSlot(
  kv: KvStore,
  key: KvKey,
  budget: Budget,
  clock: () => number,
  first?: KvEntry<unknown>,
  keep = false,
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
    if (result.ok) {
      if (keep) {
        note(kv, [key], [{ value: recent, versionstamp: result.versionstamp }]);
      }
      return { ok: true };
    }
    entry = undefined;
    if (attempt > 2) {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
    }
  }
  throw new WindowContentionError(
    `rate window still conflicting after ${MAX_ATTEMPTS} attempts`,
  );
}

/**
 * Takes a slot against the entries this process last saw: one atomic commit
 * that checks the window and each other entry. When any of them changed,
 * they are read again: a full window is refused, else the fresh entries go
 * back to the caller with the way to take the slot against them.
 */
async function takeSeen(
  kv: KvStore,
  key: KvKey,
  budget: Budget,
  clock: () => number,
  [entry, alsoRead, also]: [
    KvEntry<unknown>,
    readonly KvKey[],
    readonly KvEntry<unknown>[],
  ],
): Promise<WindowResult | StaleTake> {
  const now = clock();
  const recent = inWindow(entry.value, budget, now);
  recent.push(now);
  const checks = [
    { key, versionstamp: entry.versionstamp },
    ...alsoRead.map((other, index) => ({
      key: other,
      versionstamp: also[index]?.versionstamp ?? null,
    })),
  ];
  const result = await retryBusy(() =>
    kv.atomic()
      .check(...checks)
      .set(key, recent, { expireIn: budget.windowMs })
      .commit()
  );
  if (result.ok) {
    note(kv, [key], [{ value: recent, versionstamp: result.versionstamp }]);
    return { ok: true };
  }
  const [fresh, ...freshAlso] = await getEntries(kv, [key, ...alsoRead]);
  if (fresh === undefined) throw new Error("getMany answered no entry");
  note(kv, [key, ...alsoRead], [fresh, ...freshAlso]);
  const refused = refusal(
    fresh.value,
    budget,
    clock(),
    memoOf(kv),
    JSON.stringify(key),
  );
  if (refused) return refused;
  return {
    ok: "stale",
    also: freshAlso,
    retake: () => takeSlot(kv, key, budget, clock, fresh, true),
  };
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
