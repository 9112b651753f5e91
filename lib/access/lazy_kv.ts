/**
 * A `RATE_LIMIT` opened when the first request needs it, so that a new
 * instance answers its first request sooner (opening a Deno KV costs tens of
 * milliseconds): the overlay's files, a 404 or a logout never open it.
 *
 * @module
 */

import type { KvAtomic, KvEntry, KvKey, KvStore } from "../http/env.ts";

/**
 * A KV store that opens the real one at its first call, then passes every
 * call to it. An opening that fails is tried again at the next call (the
 * request in between is answered 503 `unavailable`, as for any KV failure).
 *
 * @param open opens the store, such as `() => Deno.openKv()`
 * @returns the store to pass as `RATE_LIMIT`
 * @example
 * ```ts
 * import { lazyKv } from "@inpage/editor";
 * import assert from "node:assert/strict";
 *
 * let opened = 0;
 * const inner = await Deno.openKv(":memory:");
 * const kv = lazyKv(() => (opened++, Promise.resolve(inner)));
 * assert.equal(opened, 0);
 * await kv.set(["greeting"], "hello");
 * assert.equal((await kv.get(["greeting"])).value, "hello");
 * assert.equal(opened, 1);
 * inner.close();
 * ```
 */
export function lazyKv(open: () => Promise<KvStore>): KvStore {
  let opening: Promise<KvStore> | undefined;
  const store = (): Promise<KvStore> => {
    opening ??= open();
    opening.catch(() => opening = undefined);
    return opening;
  };
  return {
    async get<T = unknown>(key: KvKey): Promise<KvEntry<T>> {
      return await (await store()).get<T>(key);
    },
    async getMany(keys: readonly KvKey[]): Promise<KvEntry<unknown>[]> {
      const kv = await store();
      return kv.getMany
        ? await kv.getMany(keys)
        : await Promise.all(keys.map((key) => kv.get(key)));
    },
    async set(key, value, options) {
      return await (await store()).set(key, value, options);
    },
    async delete(key) {
      await (await store()).delete(key);
    },
    atomic(): KvAtomic {
      const steps: ((atomic: KvAtomic) => void)[] = [];
      return {
        check(...checks) {
          steps.push((atomic) => atomic.check(...checks));
          return this;
        },
        set(key, value, options) {
          steps.push((atomic) => atomic.set(key, value, options));
          return this;
        },
        async commit() {
          const atomic = (await store()).atomic();
          for (const step of steps) step(atomic);
          return await atomic.commit();
        },
      };
    },
  };
}
