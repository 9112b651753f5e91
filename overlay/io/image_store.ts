/// <reference lib="dom" />
/**
 * The browser's IndexedDB as the store of chosen images (see
 * `images.ts`), so that a draft's images survive a reload.
 *
 * @module
 */

import {
  type ChosenImage,
  type ImageStore,
  memoryImageStore,
} from "./images.ts";

/**
 * The browser's IndexedDB as an image store; in memory where it is refused.
 *
 * @returns the store
 */
export function indexedDbImageStore(): ImageStore {
  const fallback = memoryImageStore();
  const factory = (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (!factory) return fallback;
  let opened: Promise<IDBDatabase> | undefined;
  const database = () =>
    opened ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = factory.open("inpage-editor", 1);
      request.onupgradeneeded = () =>
        request.result.createObjectStore("images");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  const run = async <T>(
    mode: IDBTransactionMode,
    act: (store: IDBObjectStore) => IDBRequest,
  ): Promise<T | undefined> => {
    try {
      const db = await database();
      return await new Promise<T>((resolve, reject) => {
        const request = act(
          db.transaction("images", mode).objectStore("images"),
        );
        request.onsuccess = () => resolve(request.result as T);
        request.onerror = () => reject(request.error);
      });
    } catch {
      return undefined;
    }
  };
  return {
    async put(key, image) {
      await fallback.put(key, image);
      await run("readwrite", (store) => store.put(image, key));
    },
    async get(key) {
      return await fallback.get(key) ??
        await run<ChosenImage>("readonly", (store) => store.get(key));
    },
    async delete(key) {
      await fallback.delete(key);
      await run("readwrite", (store) => store.delete(key));
    },
  };
}
