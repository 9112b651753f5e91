/**
 * The project's documentation pages, for the tests that read them.
 *
 * @module
 */

import { join } from "node:path";

/**
 * The README, then every markdown page under `docs/`, in path order, as
 * paths from the root.
 *
 * @param root the repository's root (a checkout or a clone)
 * @returns the paths, `README.md` first
 */
export async function documentedPages(root: string): Promise<string[]> {
  const pages: string[] = [];
  const walk = async (folder: string) => {
    const entries = [];
    for await (const entry of Deno.readDir(join(root, folder))) {
      entries.push(entry);
    }
    entries.sort((a, b) => a.name < b.name ? -1 : 1);
    for (const entry of entries) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".md")) pages.push(path);
    }
  };
  await walk("docs");
  return ["README.md", ...pages];
}
