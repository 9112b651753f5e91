/**
 * The image names a page's media objects name: the string value of every
 * property called `src` (whatever its case, as the media rule reads it).
 *
 * @module
 */

/**
 * Every distinct `src` string of a page, in document order, walked without
 * recursion.
 *
 * @param page a parsed page (the sanitised object, or its JSON parsed)
 * @returns the names, each once
 * @example
 * ```ts
 * import { mediaSources } from "./media_sources.ts";
 * import assert from "node:assert/strict";
 *
 * const page = {
 *   hero: { src: "sea-0123456789ab.webp", alt: "The sea" },
 *   team: [{ photo: { SRC: "ada-ba9876543210.jpg" } }, { src: "sea-0123456789ab.webp" }],
 * };
 * assert.deepEqual(mediaSources(page), [
 *   "sea-0123456789ab.webp",
 *   "ada-ba9876543210.jpg",
 * ]);
 * ```
 */
export function mediaSources(page: unknown): string[] {
  const found = new Set<string>();
  const stack: unknown[] = [page];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== "object" || value === null) continue;
    const children = Array.isArray(value)
      ? value
      : Object.entries(value).map(([key, child]) => {
        if (key.toLowerCase() === "src" && typeof child === "string") {
          found.add(child);
        }
        return child;
      });
    for (let index = children.length - 1; index >= 0; index--) {
      stack.push(children[index]);
    }
  }
  return [...found];
}
