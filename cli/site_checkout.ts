/**
 * What `editor serve` and `editor check` both read of a site's checkout: its
 * locale folders, and the expected failure both report in one line.
 *
 * @module
 */

import { join } from "node:path";
import { PAGES_FOLDER as PAGES } from "../lib/wire/names.ts";

/**
 * An expected failure of `editor serve` or `editor check`: one line, exit
 * code 1.
 */
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
 * The folder names under a checkout's pages folder, dotted names left out,
 * sorted.
 *
 * @param root the site's checkout
 * @returns the names
 */
export async function folderNames(root: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(join(root, PAGES))) {
    if (entry.isDirectory && !entry.name.startsWith(".")) {
      names.push(entry.name);
    }
  }
  return names.sort();
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
  const names = await folderNames(root);
  if (names.length === 0) {
    throw new ServeError(
      `No locale folders under ${
        join(root, PAGES)
      }: create one (e.g. en) or pass --locales`,
    );
  }
  return names;
}
