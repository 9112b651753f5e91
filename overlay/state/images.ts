/**
 * Images chosen in the editor and not uploaded yet, as the state sees
 * them: a chosen image is named in the changes by its object URL
 * (`blob:…`) until its page is published, when its upload's stored name
 * replaces it (see `io/images.ts` for the bytes).
 *
 * @example
 * ```ts
 * import { chosenIn, withStored } from "./images.ts";
 *
 * const value = { image: { src: "blob:x", alt: "A" } };
 * console.assert(chosenIn(value)[0] === "blob:x");
 * const stored = withStored(value, new Map([["blob:x", { src: "a.png", width: 1, height: 2 }]]));
 * console.assert((stored as typeof value).image.src === "a.png");
 * ```
 *
 * @module
 */

/** A stored image: what its upload answered. */
export interface StoredImage {
  /** The bare file name stored (`team-1a2b3c4d5e6f.webp`). */
  readonly src: string;
  /** Its width. */
  readonly width: number;
  /** Its height. */
  readonly height: number;
}

/** Whether a value is an object with a string `src`. */
function isMedia(value: unknown): value is Record<string, unknown> & {
  src: string;
} {
  return typeof value === "object" && value !== null &&
    typeof (value as { src?: unknown }).src === "string";
}

/**
 * Every `src` naming a chosen image in a value, however deep.
 *
 * @param value a change's value
 * @returns the object URLs found
 */
export function chosenIn(value: unknown): string[] {
  const found: string[] = [];
  const walk = (item: unknown) => {
    if (Array.isArray(item)) item.forEach(walk);
    else if (typeof item === "object" && item !== null) {
      if (isMedia(item) && item.src.startsWith("blob:")) found.push(item.src);
      for (const inner of Object.values(item)) walk(inner);
    }
  };
  walk(value);
  return found;
}

/**
 * A value with each chosen image's `src` (and size) replaced by what its
 * upload stored.
 *
 * @param value a change's value
 * @param stored the stored image of each object URL
 * @returns the value to publish (the same value when it names none)
 */
export function withStored(
  value: unknown,
  stored: ReadonlyMap<string, StoredImage>,
): unknown {
  if (chosenIn(value).every((src) => !stored.has(src))) return value;
  const walk = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(walk);
    if (typeof item !== "object" || item === null) return item;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(item)) out[key] = walk(inner);
    const image = isMedia(item) ? stored.get(item.src) : undefined;
    if (image) Object.assign(out, image);
    return out;
  };
  return walk(value);
}
