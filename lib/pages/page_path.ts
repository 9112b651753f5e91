/**
 * The whitelist of page paths: `src/content/pages/{lang}/{page}.json`.
 *
 * `lang` is exactly one of the site's locales; `page` is 1 to 4 segments
 * joined by `/`, each made of lower-case ASCII letters and digits in words
 * joined by single hyphens; the whole path is at most 120 characters. The
 * string is matched as received: nothing is decoded, trimmed or normalised,
 * so `..`, `%2e`, `\`, `//`, upper case and white space never pass.
 *
 * @module
 */

import { PAGE_PATH_MAX, PAGE_PATH_SEGMENTS_MAX } from "../limits.ts";
import { PAGES_FOLDER } from "../wire/names.ts";

const PREFIX = `${PAGES_FOLDER}/`;
const SUFFIX = ".json";
const SEGMENT = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Whether a string is an acceptable page path for a site.
 *
 * @param path the path as received
 * @param locales the site's declared language codes
 * @returns true when the path is in the whitelist
 */
export function isPagePath(path: string, locales: readonly string[]): boolean {
  if (path.length > PAGE_PATH_MAX) return false;
  if (!path.startsWith(PREFIX) || !path.endsWith(SUFFIX)) return false;
  const rest = path.slice(PREFIX.length, path.length - SUFFIX.length);
  return locales.some((lang) =>
    lang.length > 0 && rest.startsWith(`${lang}/`) &&
    isPageName(rest.slice(lang.length + 1))
  );
}

function isPageName(page: string): boolean {
  const segments = page.split("/");
  return segments.length <= PAGE_PATH_SEGMENTS_MAX &&
    segments.every((segment) => SEGMENT.test(segment));
}
