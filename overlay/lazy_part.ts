/**
 * A lazily loaded part of the overlay (the rich text editor, the History
 * panel, the cropper): imported when first needed, one import at a time,
 * and again after a failure, under a URL of its own.
 *
 * A browser may keep a failed module fetch for its URL (Chromium does):
 * importing the same URL again then fails again without asking the network.
 * So the n-th retry imports `{part}?retry={n}`. The overlay's asset server
 * answers a part by its path alone, the query ignored: the same bytes,
 * cached for good under each URL like every file named by its hash.
 *
 * The part's URL is read from the source of the function that imports it,
 * `() => import("./rich_text.ts")`: the bundler writes the built part's
 * name there (`import("./rich_text-{hash}.js")`), and nowhere else.
 *
 * @module
 */

/** The specifier of the one `import("…")` in a function's source. */
const IMPORT = /\bimport\(\s*(["'`])([^"'`]+)\1\s*\)/;

/**
 * The URL of a part's n-th retry: the specifier its loader imports,
 * resolved against `base`, with `retry={n}` in its query.
 *
 * @param load the function that imports the part (its source is read)
 * @param base the URL of the module that holds `load`
 * @param attempt the retry's number, from 1
 * @returns the URL, or `undefined` when `load` names no specifier
 * @example
 * ```ts
 * import { retryUrl } from "./lazy_part.ts";
 *
 * // (The overlay's parts import the DOM; this module stands in for one.)
 * const url = retryUrl(
 *   () => import("./lazy_part.ts"),
 *   "https://example.com/_inpage/overlay-0123456789ab.js",
 *   2,
 * );
 * console.assert(url === "https://example.com/_inpage/lazy_part.ts?retry=2");
 * ```
 */
export function retryUrl(
  load: () => Promise<unknown>,
  base: string,
  attempt: number,
): string | undefined {
  const specifier = IMPORT.exec(String(load))?.[2];
  if (specifier === undefined) return undefined;
  const url = new URL(specifier, base);
  url.searchParams.set("retry", String(attempt));
  return url.href;
}

/**
 * A part loaded at most once: the first call imports it, the calls made
 * meanwhile share that import, a failure lets the next call try again
 * (under {@linkcode retryUrl}), a success is kept.
 *
 * @param load the function that imports the part, `() => import("./x.ts")`
 * @param base `import.meta.url` of the module that holds `load`
 * @returns the function that gives the part
 * @example
 * ```ts
 * import { lazyPart } from "./lazy_part.ts";
 *
 * const part = lazyPart(() => import("./lazy_part.ts"), import.meta.url);
 * console.assert(typeof (await part()).retryUrl === "function");
 * ```
 */
export function lazyPart<T>(
  load: () => Promise<T>,
  base: string,
): () => Promise<T> {
  let loading: Promise<T> | undefined;
  let failures = 0;
  const attempt = (): Promise<T> => {
    if (failures === 0) return load();
    const url = retryUrl(load, base, failures);
    return url === undefined ? load() : import(url) as Promise<T>;
  };
  return () =>
    loading ??= attempt().catch((error) => {
      loading = undefined;
      failures++;
      throw error;
    });
}
