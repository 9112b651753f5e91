/**
 * `editor check`: the publish rules, run on every page file of a checkout,
 * for a site's own CI. Each file under `src/content/pages` that ends in
 * `.json` must be a regular file (not a symbolic link, a FIFO or a device),
 * have a page path of one of the locales, be UTF-8 without a byte order mark
 * (what `/api/save` writes), stay within the content size cap, and pass the
 * same page rules as `/api/save`; every media `src` must name a file under
 * `public/images/`. Every problem of every file is reported, each with a
 * detail naming what is wrong; other files in the pages folder (`.md`,
 * `.mdx`, …) are named as not checked.
 *
 * @module
 */

import { join, relative, sep } from "node:path";
import { checkLocales, type TemplateSyntax } from "../lib/pages/locales.ts";
import { isPagePath } from "../lib/pages/page_path.ts";
import {
  type PageProblem,
  PageRuleError,
  pageRules,
} from "../lib/pages/page_rules.ts";
import { localeFolders, ServeError } from "./site_checkout.ts";
import { escapeToken, getPointer } from "../lib/wire/pointer.ts";
import { isImageName } from "../lib/pages/media_rule.ts";
import {
  IMAGES_FOLDER as IMAGES,
  PAGES_FOLDER as PAGES,
} from "../lib/wire/names.ts";
import { CONTENT_MAX } from "../lib/limits.ts";
import { readCheckoutFile } from "../lib/repository/local/checkout_file.ts";

/** The options of `editor check`. */
export interface CheckOptions {
  /** The site's checkout; default the current folder. */
  repo: string;
  /** The locales; default the folder names under `src/content/pages`. */
  locales?: string[] | undefined;
  /**
   * `refuse` when the site renders page strings as templates, as
   * `editor serve --template-syntax refuse` does. Default `allow`.
   */
  templateSyntax?: TemplateSyntax | undefined;
}

/** One problem of a page file, and where. */
export interface PageFailure {
  /** The file's path in the checkout, with `/` separators. */
  file: string;
  /** A JSON Pointer (RFC 6901) into the page; `""` for the whole file. */
  pointer: string;
  /**
   * A stable code: the 422 `reason` of `/api/save` (`duplicate_id`,
   * `markup`, `link`, `media`, …), or `path`, `size`, `symlink`,
   * `not_regular`, `encoding`, `missing_image`.
   */
  reason: string;
  /** What is wrong, naming it, for a person. */
  detail: string;
}

/** What `editor check` found. */
export interface CheckReport {
  /** The page files checked (`.json` files under `src/content/pages`). */
  files: number;
  /** The locales they were checked against (none when no page file was found). */
  locales: readonly string[];
  /** Every problem, by file path, then in document order. */
  failures: PageFailure[];
  /** Other files in the pages folder (`.md`, `.mdx`, …), not checked. */
  unchecked: string[];
}

/** The byte order mark, which `/api/save` never writes. */
const BOM = [0xef, 0xbb, 0xbf];

/**
 * Runs the publish rules on every page file of a checkout.
 *
 * @param options the checkout and its locales
 * @returns the files checked and the failures
 * @throws {ServeError} when the checkout has no `src/content/pages` folder
 *   or the locales are not language codes
 * @example
 * ```ts
 * import { checkPages } from "@inpage/editor/cli";
 * import assert from "node:assert/strict";
 *
 * const repo = await Deno.makeTempDir();
 * await Deno.mkdir(`${repo}/src/content/pages/en`, { recursive: true });
 * await Deno.writeTextFile(
 *   `${repo}/src/content/pages/en/home.json`,
 *   JSON.stringify({ sections: [{ id: "a" }, { id: "a" }] }),
 * );
 * const report = await checkPages({ repo });
 * assert.equal(report.files, 1);
 * assert.equal(report.failures[0]?.pointer, "/sections/1/id");
 * await Deno.remove(repo, { recursive: true });
 * ```
 */
export async function checkPages(options: CheckOptions): Promise<CheckReport> {
  const root = options.repo;
  const pages = join(root, PAGES);
  const info = await Deno.stat(pages).catch(() => undefined);
  if (!info?.isDirectory) {
    throw new ServeError(
      `${root} has no ${PAGES} folder: pass --repo with the site's checkout`,
    );
  }
  const found: Found = { pages: [], others: [] };
  await listFolder(root, pages, found);
  const real = await Deno.realPath(root);
  found.pages.sort((a, b) => compare(a.file, b.file));
  const unchecked = found.others.sort(compare);
  if (found.pages.length === 0) {
    return { files: 0, locales: [], failures: [], unchecked };
  }
  let locales: readonly string[];
  try {
    locales = checkLocales({
      locales: options.locales ?? await localeFolders(root),
      templateSyntax: options.templateSyntax,
    });
  } catch (error) {
    // A locale folder's name may hold anything: the message is made safe.
    throw new ServeError(safeText((error as Error).message));
  }
  const failures: PageFailure[] = [];
  for (const page of found.pages) {
    failures.push(
      ...await checkFile(real, page, locales, options.templateSyntax),
    );
  }
  return { files: found.pages.length, locales, failures, unchecked };
}

/** A `.json` entry under the pages folder, and what kind of file it is. */
interface PageEntry {
  /** Its path in the checkout, with `/` separators. */
  file: string;
  /** A regular file, a symbolic link, or anything else (a FIFO, a device…). */
  kind: "file" | "symlink" | "other";
}

interface Found {
  pages: PageEntry[];
  others: string[];
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Every `.json` entry under a folder, and the other files; dot entries left
 * out. Nothing is opened: a FIFO named like a page is only listed.
 */
async function listFolder(
  root: string,
  folder: string,
  found: Found,
): Promise<void> {
  for await (const entry of Deno.readDir(folder)) {
    if (entry.name.startsWith(".")) continue;
    const path = join(folder, entry.name);
    const file = relative(root, path).split(sep).join("/");
    if (entry.isDirectory) await listFolder(root, path, found);
    else if (entry.name.endsWith(".json")) {
      found.pages.push({
        file,
        kind: entry.isSymlink ? "symlink" : entry.isFile ? "file" : "other",
      });
    } else found.others.push(file);
  }
}

async function checkFile(
  root: string,
  page: PageEntry,
  locales: readonly string[],
  templateSyntax: TemplateSyntax | undefined,
): Promise<PageFailure[]> {
  const file = page.file;
  const fail = (pointer: string, reason: string, detail: string) => [{
    file,
    pointer,
    reason,
    detail,
  }];
  if (page.kind === "other") {
    return fail(
      "",
      "not_regular",
      "not a regular file (a FIFO, socket or device): not read",
    );
  }
  if (!isPagePath(file, locales)) {
    return fail(
      "",
      "path",
      `not a page path: ${PAGES}/{${
        locales.join("|")
      }}/{page}.json, lower-case words joined by hyphens`,
    );
  }
  // Read as the server reads it (`readCheckoutFile`), with its refusals.
  const read = await readCheckoutFile(root, file, CONTENT_MAX);
  switch (read.kind) {
    case "symlink":
      return fail("", "symlink", "a page file must not be a symbolic link");
    case "outside":
      return fail(
        "",
        "symlink",
        "a symbolic link on the way leads out of the checkout",
      );
    case "not_regular":
    case "absent":
      return fail(
        "",
        "not_regular",
        "not a regular file (a FIFO, socket or device): not read",
      );
    case "too_large":
      return fail("", "size", `over ${CONTENT_MAX} bytes`);
  }
  const bytes = read.content;
  if (BOM.every((byte, index) => bytes[index] === byte)) {
    return fail(
      "",
      "encoding",
      "starts with a byte order mark (BOM), which /api/save never writes",
    );
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    return fail(
      "",
      "encoding",
      `not UTF-8 (byte 0x${
        (bytes[at] ?? 0).toString(16).toUpperCase().padStart(2, "0")
      } at offset ${at}): /api/save writes UTF-8 only`,
    );
  }
  let written: string;
  try {
    written = pageRules(text, undefined, { templateSyntax });
  } catch (error) {
    if (!(error instanceof PageRuleError)) throw error;
    const broken = error.problems.map((problem) => ({
      file,
      pointer: problem.at,
      reason: problem.code,
      detail: problem.detail + pathHint(text, problem),
    }));
    // Every problem at once: the images the page names are looked for too
    // (the well-formed names; a refused one is among the problems).
    let page: unknown;
    try {
      page = JSON.parse(text);
    } catch {
      return broken;
    }
    const walked = walkPage(page);
    const named = walked.sources.filter(([, src]) => isImageName(src));
    const missing = await missingImages(root, file, named);
    return inDocumentOrder([...broken, ...missing], walked.order);
  }
  if (new TextEncoder().encode(written).byteLength > CONTENT_MAX) {
    return fail("", "size", `over ${CONTENT_MAX} bytes once written`);
  }
  return await missingImages(
    root,
    file,
    walkPage(JSON.parse(written)).sources,
  );
}

/** A `missing_image` failure for each `src` with no file in the images folder. */
async function missingImages(
  root: string,
  file: string,
  sources: readonly [string, string][],
): Promise<PageFailure[]> {
  const failures: PageFailure[] = [];
  for (const [pointer, src] of sources) {
    const image = await Deno.stat(join(root, IMAGES, src)).catch(() =>
      undefined
    );
    if (!image?.isFile) {
      failures.push({
        file,
        pointer,
        reason: "missing_image",
        detail: `no file ${IMAGES}/${src}`,
      });
    }
  }
  return failures;
}

/**
 * Failures sorted in document order, by the place of each pointer in the
 * page's walk (a pointer the walk did not meet, such as one into a key the
 * sanitiser changed, takes its nearest parent's); a stable sort.
 */
function inDocumentOrder(
  failures: PageFailure[],
  order: ReadonlyMap<string, number>,
): PageFailure[] {
  const place = (pointer: string): number => {
    for (let at = pointer; at !== ""; at = at.slice(0, at.lastIndexOf("/"))) {
      const found = order.get(at);
      if (found !== undefined) return found;
    }
    return -1;
  };
  return failures.map((failure, index) => ({ failure, index }))
    .sort((a, b) =>
      place(a.failure.pointer) - place(b.failure.pointer) || a.index - b.index
    )
    .map(({ failure }) => failure);
}

/** The offset of the first byte that does not read as UTF-8. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let good = 0;
  let bad = bytes.byteLength;
  // The longest valid prefix, by halves (a prefix may end inside a character).
  while (good < bad) {
    const middle = Math.ceil((good + bad) / 2);
    let valid = true;
    try {
      decoder.decode(bytes.subarray(0, middle), { stream: true });
      decoder.decode();
    } catch {
      valid = false;
    }
    if (valid) good = middle;
    else bad = middle - 1;
  }
  return good;
}

/**
 * For an image named by a path (`/images/hero.jpg`), how to write it: the
 * file's bare name, the file under `public/images/`.
 */
function pathHint(text: string, problem: PageProblem): string {
  if (problem.code !== "media" || !/\/src$/i.test(problem.at)) return "";
  const value = getPointer(JSON.parse(text), problem.at);
  if (typeof value !== "string" || !value.includes("/")) return "";
  const name = value.slice(value.lastIndexOf("/") + 1);
  return `; write the bare name ${
    JSON.stringify(name)
  } of a file in ${IMAGES}/`;
}

/**
 * A page walked in document order, without recursion (a page that fails the
 * depth rule may nest deeply): the place of every value's pointer, and the
 * `src` of every media object (a string under a key `src`, in any case).
 */
function walkPage(page: unknown): {
  order: Map<string, number>;
  sources: [string, string][];
} {
  const order = new Map<string, number>();
  const sources: [string, string][] = [];
  const stack: [string, unknown, string][] = [["", page, ""]];
  while (stack.length > 0) {
    const [pointer, value, key] = stack.pop()!;
    order.set(pointer, order.size);
    if (key.toLowerCase() === "src" && typeof value === "string") {
      sources.push([pointer, value]);
    }
    if (typeof value !== "object" || value === null) continue;
    const children = Object.entries(value);
    for (let index = children.length - 1; index >= 0; index--) {
      const [name, child] = children[index]!;
      stack.push([`${pointer}/${escapeToken(name)}`, child, name]);
    }
  }
  return { order, sources };
}

/**
 * Text made safe for one line of a terminal and of a CI log: a backslash is
 * doubled, and every control character (escape sequences and line breaks
 * included), format character, line or paragraph separator is written as
 * an escape (`\\n`, `\\t`, `\\x1b`, `\\u2028`), so that nothing printed
 * can move the cursor, colour the terminal, or start a new line.
 *
 * @param text any text
 * @returns the text on one line, without control characters
 */
function safeText(text: string): string {
  return text.replace(
    /[\\\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu,
    (char) => {
      switch (char) {
        case "\\":
          return "\\\\";
        case "\n":
          return "\\n";
        case "\r":
          return "\\r";
        case "\t":
          return "\\t";
      }
      const code = char.charCodeAt(0);
      return code < 0x100
        ? `\\x${code.toString(16).padStart(2, "0")}`
        : `\\u${code.toString(16).padStart(4, "0")}`;
    },
  );
}

/**
 * One line as `editor check` prints it, never starting with `::` (a GitHub
 * Actions workflow command).
 */
function safeLine(text: string): string {
  const line = safeText(text);
  return line.startsWith("::") ? `\\${line}` : line;
}

/**
 * One failure as `editor check` prints it: `file: pointer: reason (detail)`,
 * the pointer `(page)` for the whole file, every part made safe for a
 * terminal and a CI log ({@linkcode safeText}).
 *
 * @param failure the failure
 * @returns one line, without its line feed
 * @example
 * ```ts
 * import { formatFailure } from "@inpage/editor/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   formatFailure({
 *     file: "src/content/pages/en/home.json",
 *     pointer: "/image/src",
 *     reason: "missing_image",
 *     detail: "no file public/images/hero-0123456789ab.png",
 *   }),
 *   "src/content/pages/en/home.json: /image/src: missing_image (no file public/images/hero-0123456789ab.png)",
 * );
 * ```
 */
export function formatFailure(failure: PageFailure): string {
  return safeLine(
    `${failure.file}: ${failure.pointer || "(page)"}: ${failure.reason} (${
      failure.detail.replace(/[\r\n]+/g, " ")
    })`,
  );
}

/** What `editor check` says when it finds no page file. */
const NO_PAGES =
  "page files go in src/content/pages/{lang}/{page}.json (e.g. src/content/pages/en/home.json): JSON, one file per page";

/**
 * `editor check`: prints one line per problem on standard output (every
 * problem of every file) and a count on standard error, or a one-line
 * summary when every page passes. Files in the pages folder that are not
 * page files are named on standard error as not checked. No page file at
 * all is a failure, with a sentence saying where they go.
 *
 * @param options the checkout and its locales
 * @param io where it writes
 * @returns the exit code: 0 when every page passes, 1 otherwise
 * @throws {ServeError} when the checkout has no pages folder or the locales
 *   are not language codes
 * @example
 * ```ts
 * import { checkCommand } from "@inpage/editor/cli";
 * import assert from "node:assert/strict";
 *
 * const repo = await Deno.makeTempDir();
 * await Deno.mkdir(`${repo}/src/content/pages/en`, { recursive: true });
 * await Deno.writeTextFile(`${repo}/src/content/pages/en/home.json`, '{"title":"Hi"}');
 * const lines: string[] = [];
 * const code = await checkCommand({ repo }, { out: (t) => lines.push(t), err: (t) => lines.push(t) });
 * assert.equal(code, 0);
 * assert.deepEqual(lines, ["1 page file checked (locales en): all pass the page rules\n"]);
 * await Deno.remove(repo, { recursive: true });
 * ```
 */
export async function checkCommand(
  options: CheckOptions,
  io: { out: (text: string) => void; err: (text: string) => void },
): Promise<number> {
  const report = await checkPages(options);
  for (const file of report.unchecked) {
    io.err(
      safeLine(`${file}: not a page file (page files are .json): not checked`) +
        "\n",
    );
  }
  if (report.files === 0) {
    io.err(
      safeLine(`No page file found under ${PAGES}: ${NO_PAGES}`) + "\n",
    );
    return 1;
  }
  const files = `${report.files} page file${report.files === 1 ? "" : "s"}`;
  for (const failure of report.failures) io.out(formatFailure(failure) + "\n");
  if (report.failures.length > 0) {
    const failing = new Set(report.failures.map(({ file }) => file)).size;
    const problems = report.failures.length;
    io.err(
      `${failing} of ${files} ${
        failing === 1 ? "fails" : "fail"
      } the page rules${problems > failing ? ` (${problems} problems)` : ""}\n`,
    );
    return 1;
  }
  io.out(
    `${files} checked (locales ${
      report.locales.join(", ")
    }): all pass the page rules\n`,
  );
  return 0;
}
