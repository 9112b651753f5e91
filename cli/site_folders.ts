/**
 * What `editor serve` and `editor check` both know of a site's checkout:
 * where its pages are, its locale folders, and the one-line error either
 * command stops with. A module of its own, so that `editor check` loads
 * nothing of the server.
 *
 * @module
 */

import { join } from "node:path";

/** Where the pages are, in every checkout. */
export const PAGES = "src/content/pages";

/** An expected failure of `editor serve` or `editor check`: one line, exit code 1. */
export class ServeError extends Error {
  /**
   * Creates the error.
   *
   * @param message one line for the user
   */
  constructor(message: string) {
    super(message);
    this.name = "ServeError";
  }
}

/**
 * The locale folders of a site: the folder names under
 * `src/content/pages`, sorted.
 *
 * @param root the site's checkout
 * @returns the names
 * @throws {ServeError} when there is none
 */
export async function localeFolders(root: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(join(root, PAGES))) {
    if (entry.isDirectory && !entry.name.startsWith(".")) {
      names.push(entry.name);
    }
  }
  if (names.length === 0) {
    throw new ServeError(
      `No locale folders under ${
        join(root, PAGES)
      }: create one (e.g. en) or pass --locales`,
    );
  }
  return names.sort();
}
