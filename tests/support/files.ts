/**
 * Folders of files for tests: every file under one, with its bytes, to see
 * that nothing was written or changed.
 *
 * @module
 */

import { join } from "node:path";

/**
 * Every file under a folder, by path from it, with its bytes in hex.
 *
 * @param root the folder
 * @param inside a folder under it to start from
 * @returns the files
 */
export async function tree(
  root: string,
  inside = "",
): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for await (const entry of Deno.readDir(join(root, inside))) {
    const path = inside ? `${inside}/${entry.name}` : entry.name;
    if (entry.isDirectory) {
      for (const [p, b] of await tree(root, path)) files.set(p, b);
    } else {
      const bytes = await Deno.readFile(join(root, path));
      files.set(path, Array.from(bytes, (b) => b.toString(16)).join(""));
    }
  }
  return files;
}
