/**
 * The Web Storage API (`localStorage`) in memory, for the overlay's drafts
 * in tests without a browser.
 *
 * @module
 */

/**
 * An empty storage in memory.
 *
 * @returns the storage
 */
export function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}
