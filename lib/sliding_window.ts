/**
 * Exact sliding windows in a KV store: at most `limit` accepted requests in
 * any span of `windowMs`. One entry per (route, client) holds the accepted
 * timestamps; it is updated with an atomic versionstamp check and retried on
 * conflict, so the budget holds across processes sharing one KV. A refused
 * request writes nothing.
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
  /** @param detail what happened, for the log */
  constructor(detail: string) {
    super(detail);
    this.name = "WindowContentionError";
  }
}

const MAX_ATTEMPTS = 200;

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
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const entry = await retryBusy(() => kv.get<unknown>(key));
    const now = clock();
    const recent = timestamps(entry.value).filter((t) =>
      t > now - budget.windowMs
    );
    if (recent.length >= budget.limit) {
      const oldest = recent[recent.length - budget.limit] ?? now;
      const wait = Math.ceil((oldest + budget.windowMs - now) / 1000);
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
