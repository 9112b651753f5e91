/**
 * Front-matter files as `editor convert` reads them: the YAML between the
 * first two `---` lines and the markdown body after it, and the page name a
 * file's path gives.
 *
 * @module
 */

/** File names that stand for their folder, as in `about/-index.md`. */
const INDEX_NAMES = new Set(["index", "-index", "_index"]);

/** A front-matter file split: its YAML and its markdown body. */
export interface FrontMatter {
  /** The YAML between the `---` lines, `""` without front matter. */
  yaml: string;
  /** The markdown after it. */
  body: string;
}

/**
 * Splits a front-matter file: the YAML between a first line `---` and the
 * next line `---` (or `...`), and the body after it. A file without front
 * matter is all body.
 *
 * @param text the file's text
 * @returns the YAML and the body, the body's first blank lines and final
 *   white space dropped
 * @example
 * ```ts
 * import { splitFrontMatter } from "@inpage/editor/cli";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(splitFrontMatter("---\ntitle: Hi\n---\n\n# Hello\n"), {
 *   yaml: "title: Hi\n",
 *   body: "# Hello",
 * });
 * ```
 */
export function splitFrontMatter(text: string): FrontMatter {
  const normal = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const tidy = (body: string) => body.replace(/^(?:[ \t]*\n)+/, "").trimEnd();
  if (!normal.startsWith("---\n")) return { yaml: "", body: tidy(normal) };
  const end = /^(?:---|\.\.\.)[ \t]*$/m;
  const rest = normal.slice(4);
  const match = end.exec(rest);
  if (!match) return { yaml: "", body: tidy(normal) };
  return {
    yaml: rest.slice(0, match.index),
    body: tidy(rest.slice(match.index + match[0].length)),
  };
}

/**
 * The page name of a source file: its path in the folder it was found in,
 * in lower-case words joined by hyphens, the extension dropped; an index
 * file (`index`, `-index`, `_index`) stands for its folder.
 *
 * @param path the file's path inside the folder, with `/` separators
 * @param folder the folder's own name, for an index file at its top
 * @returns the page name, such as `about` or `blog/first-post`
 * @example
 * ```ts
 * import { pageName } from "@inpage/editor/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(pageName("Privacy Policy.md", "pages"), "privacy-policy");
 * assert.equal(pageName("-index.md", "about"), "about");
 * assert.equal(pageName("team/-index.mdx", "pages"), "team");
 * ```
 */
export function pageName(path: string, folder: string): string {
  const segments = path.replace(/\.mdx?$/i, "").split("/");
  if (INDEX_NAMES.has(segments.at(-1)!.toLowerCase())) segments.pop();
  if (segments.length === 0) segments.push(folder);
  return segments.map(slug).join("/");
}

/**
 * A text in lower-case words joined by hyphens: accents dropped, every run
 * of other characters one hyphen.
 *
 * @param text the text
 * @returns the slug, maybe empty
 * @example
 * ```ts
 * import { slug } from "./front_matter.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(slug("Alice_Smith"), "alice-smith");
 * ```
 */
export function slug(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
}
