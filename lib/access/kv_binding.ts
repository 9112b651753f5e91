/**
 * The KV binding every route needs; missing, the routes fail closed.
 *
 * @module
 */

import type { Env, KvEntry, KvKey, KvStore } from "../http/env.ts";
import { AccessError } from "./access_error.ts";

/**
 * The `RATE_LIMIT` binding, or a 503 when the host did not provide one.
 *
 * @param env the host's bindings
 * @returns the KV store
 * @throws {AccessError} `kv_unavailable` when `RATE_LIMIT` is missing
 */
export function kvOf(env: Env): KvStore {
  const kv = env.RATE_LIMIT;
  if (!kv || typeof kv.get !== "function" || typeof kv.atomic !== "function") {
    throw new AccessError(
      "kv_unavailable",
      "RATE_LIMIT is missing: pass a Deno KV in env",
    );
  }
  return kv;
}

const BUSY = /database is locked|database table is locked|SQLITE_BUSY/i;

/**
 * Runs a KV operation again while a local SQLite KV shared by several
 * processes or handles answers "database is locked". Any other failure of
 * the store (closed, unreachable, quota) fails closed (`kv_unavailable`,
 * answered 503 `unavailable`), never a 500, and never a request served
 * without its rate check.
 *
 * @param operation the KV call
 * @returns its result
 * @throws {AccessError} `kv_unavailable` when the store fails
 */
export async function retryBusy<T>(operation: () => Promise<T>): Promise<T> {
  for (let attempt = 0;; attempt++) {
    try {
      return await operation();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (attempt >= 50 || !BUSY.test(message)) {
        throw new AccessError(
          "kv_unavailable",
          `RATE_LIMIT failed: ${message.split("\n")[0]?.slice(0, 200)}`,
        );
      }
      await new Promise((resolve) =>
        setTimeout(resolve, Math.random() * Math.min(50, 2 ** attempt))
      );
    }
  }
}

/** Most keys one `getMany` reads (Deno KV's limit). */
const GET_MANY_MAX = 10;

/**
 * Reads entries with `getMany` (in parallel batches of ten, Deno KV's
 * limit), or with `get` on a store without it.
 *
 * @param kv the store
 * @param keys the keys
 * @returns the entries, in order
 */
export async function getEntries(
  kv: KvStore,
  keys: readonly KvKey[],
): Promise<KvEntry<unknown>[]> {
  const getMany = kv.getMany?.bind(kv);
  if (!getMany) {
    return await Promise.all(keys.map((key) => retryBusy(() => kv.get(key))));
  }
  const batches: Promise<KvEntry<unknown>[]>[] = [];
  for (let start = 0; start < keys.length; start += GET_MANY_MAX) {
    const batch = keys.slice(start, start + GET_MANY_MAX);
    batches.push(retryBusy(() => getMany(batch)));
  }
  return (await Promise.all(batches)).flat();
}
