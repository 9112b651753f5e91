/**
 * Front-matter files as `editor convert` reads them: the front matter (YAML
 * between `---` lines, Eleventy's `---json` and `---js`, Hugo's TOML between
 * `+++` lines and JSON in braces) and the markdown body after it, and the
 * page name a file's path gives.
 *
 * @module
 */

import { parse as parseYaml } from "yaml";
import { parse as parseToml } from "smol-toml";
import { readJsFrontMatter } from "./js_front_matter.ts";

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

/** The languages of front matter `editor convert` reads. */
export type FrontMatterFormat = "yaml" | "json" | "js" | "toml" | "none";

/** A front-matter file read: its data and body, or why it cannot be. */
export type FrontMatterRead =
  | {
    /** How the front matter was written. */
    format: FrontMatterFormat;
    /** Its keys and values (none without front matter). */
    data: Record<string, unknown>;
    /** The markdown after it, first blank lines and final white space dropped. */
    body: string;
  }
  | {
    /** How the front matter was written, as far as it was read. */
    format: FrontMatterFormat | string;
    /** One sentence: why it is not converted. */
    problem: string;
  };

const CLOSING = /^(?:---|\.\.\.)[ \t]*$/m;
const TOML_CLOSING = /^\+\+\+[ \t]*$/m;

/** The text's front matter and body, by the form of its first line. */
function frontMatterParts(
  normal: string,
): { format: string; source: string; body: string } | string | undefined {
  const opening = /^(---|\+\+\+)([A-Za-z]*)[ \t]*\n/.exec(normal);
  if (opening) {
    const rest = normal.slice(opening[0].length);
    const toml = opening[1] === "+++";
    const end = (toml ? TOML_CLOSING : CLOSING).exec(rest);
    const format = toml ? "toml" : (opening[2] || "yaml").toLowerCase();
    if (!end) {
      return opening[2] || toml
        ? `its front matter (${opening[0].trim()}) has no closing ${
          toml ? "+++" : "---"
        } line`
        : undefined;
    }
    return {
      format: format === "javascript" ? "js" : format,
      source: rest.slice(0, end.index),
      body: rest.slice(end.index + end[0].length),
    };
  }
  if (!normal.startsWith("{")) return undefined;
  // Hugo's JSON front matter: an object, then the body.
  for (const end of normal.matchAll(/^\}[ \t]*$/gm)) {
    const source = normal.slice(0, end.index + 1);
    try {
      JSON.parse(source);
      return { format: "json", source, body: normal.slice(end.index + 1) };
    } catch {
      // Not the object's end yet.
    }
  }
  return "it starts with { but holds no JSON front matter: a body cannot start with it";
}

/**
 * Reads a front-matter file: YAML between `---` lines (or `---yaml`),
 * Eleventy's `---json` and `---js` (literal declarations only, never run),
 * Hugo's TOML between `+++` lines and JSON front matter in braces. A file
 * without front matter is all body.
 *
 * @param text the file's text
 * @returns the data and the body, or why the file is not converted
 * @example
 * ```ts
 * import { readFrontMatter } from "./front_matter.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(readFrontMatter("+++\ntitle = 'Hi'\n+++\n# Hello\n"), {
 *   format: "toml",
 *   data: { title: "Hi" },
 *   body: "# Hello",
 * });
 * assert.deepEqual(
 *   readFrontMatter('---js\nconst title = "Hi";\n---\nText'),
 *   { format: "js", data: { title: "Hi" }, body: "Text" },
 * );
 * assert.match(
 *   String((readFrontMatter("---js\nconst t = now();\n---\n") as { problem: string }).problem),
 *   /^its ---js front matter is code/,
 * );
 * ```
 */
export function readFrontMatter(text: string): FrontMatterRead {
  const normal = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const parts = frontMatterParts(normal);
  if (typeof parts === "string") return { format: "none", problem: parts };
  if (parts === undefined) {
    return { format: "none", data: {}, body: tidy(normal) };
  }
  const { format, source, body } = parts;
  let data: unknown;
  try {
    switch (format) {
      case "yaml":
        data = source.trim() === "" ? {} : parseYaml(source);
        break;
      case "json":
        data = source.trim() === "" ? {} : JSON.parse(source);
        break;
      case "toml":
        data = { ...parseToml(source) };
        break;
      case "js":
        data = readJsFrontMatter(source);
        break;
      default:
        return {
          format,
          problem:
            `its front matter is ---${format}, which editor convert does not read (YAML, JSON, JavaScript values, TOML)`,
        };
    }
  } catch (error) {
    return {
      format,
      problem: format === "js"
        ? `its ---js front matter is code, which only Eleventy can run (${
          (error as Error).message
        }): write its values as YAML front matter, then run again`
        : `the front matter is not ${format.toUpperCase()}: ${
          (error as Error).message
        }`,
    };
  }
  if (data === null || data === undefined) data = {};
  if (typeof data !== "object" || Array.isArray(data)) {
    return {
      format,
      problem: "the front matter is not a mapping of keys to values",
    };
  }
  return {
    format: format as FrontMatterFormat,
    data: data as Record<string, unknown>,
    body: tidy(body),
  };
}

/** A body: its first blank lines and final white space dropped. */
function tidy(body: string): string {
  return body.replace(/^(?:[ \t]*\n)+/, "").trimEnd();
}

/**
 * The page name of a source file: its path in the folder it was found in,
 * in lower-case words joined by hyphens, the extension dropped; an index
 * file (`index`, `-index`, `_index`) and a file named as its folder
 * (`fourthpost/fourthpost.md`) stand for their folder, and the index of a
 * folder named `content` (a generator's input) for the home page.
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
 * assert.equal(pageName("blog/fourthpost/fourthpost.md", "content"), "blog/fourthpost");
 * assert.equal(pageName("_index.md", "content"), "home");
 * ```
 */
export function pageName(path: string, folder: string): string {
  const segments = path.replace(/\.mdx?$/i, "").split("/");
  const last = segments.at(-1)!.toLowerCase();
  // `fourthpost/fourthpost.md` is the page of its folder, as in Eleventy.
  if (INDEX_NAMES.has(last) || last === segments.at(-2)?.toLowerCase()) {
    segments.pop();
  }
  // The index of a generator's input folder (Hugo's and Eleventy's
  // `content/_index.md`, `content/index.md`) is the home page.
  if (segments.length === 0) {
    segments.push(folder === "content" ? "home" : folder);
  }
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
