/**
 * The KV binding every route needs; missing, the routes fail closed.
 *
 * @module
 */

import type { Env, KvStore } from "../http/env.ts";
import { serviceUnavailable } from "../http/http_error.ts";

/**
 * The `RATE_LIMIT` binding, or a 503 when the host did not provide one.
 *
 * @param env the host's bindings
 * @returns the KV store
 * @throws {HttpError} 503 `unavailable` when `RATE_LIMIT` is missing
 */
export function kvOf(env: Env): KvStore {
  const kv = env.RATE_LIMIT;
  if (!kv || typeof kv.get !== "function" || typeof kv.atomic !== "function") {
    throw serviceUnavailable("RATE_LIMIT is missing: pass a Deno KV in env");
  }
  return kv;
}

const BUSY = /database is locked|database table is locked|SQLITE_BUSY/i;

/**
 * Runs a KV operation again while a local SQLite KV shared by several
 * processes or handles answers "database is locked"; other errors pass.
 *
 * @param operation the KV call
 * @returns its result
 */
export async function retryBusy<T>(operation: () => Promise<T>): Promise<T> {
  for (let attempt = 0;; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (
        attempt >= 50 || !(error instanceof Error) || !BUSY.test(error.message)
      ) {
        throw error;
      }
      await new Promise((resolve) =>
        setTimeout(resolve, Math.random() * Math.min(50, 2 ** attempt))
      );
    }
  }
}
