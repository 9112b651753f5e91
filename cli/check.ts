/**
 * `editor check`: the publish rules, run on every page file of a checkout,
 * for a site's own CI. Each file under `src/content/pages` that ends in
 * `.json` must have a page path of one of the locales, stay within the
 * content size cap, and pass the same page rules as `/api/save`; every
 * media `src` must name a file under `public/images/`.
 *
 * @module
 */

import { join, relative, sep } from "node:path";
import { checkLocales } from "../lib/pages/locales.ts";
import { isPagePath } from "../lib/pages/page_path.ts";
import { PageRuleError, pageRules } from "../lib/pages/page_rules.ts";
import { localeFolders, ServeError } from "./site_checkout.ts";
import { escapeToken, getPointer } from "../lib/wire/pointer.ts";
import {
  IMAGES_FOLDER as IMAGES,
  PAGES_FOLDER as PAGES,
} from "../lib/wire/names.ts";
import { CONTENT_MAX } from "../lib/limits.ts";

/** The options of `editor check`. */
export interface CheckOptions {
  /** The site's checkout; default the current folder. */
  repo: string;
  /** The locales; default the folder names under `src/content/pages`. */
  locales?: string[] | undefined;
}

/** One page file that fails, and where. */
export interface PageFailure {
  /** The file's path in the checkout, with `/` separators. */
  file: string;
  /** A JSON Pointer (RFC 6901) into the page; `""` for the whole file. */
  pointer: string;
  /**
   * A stable code: the 422 `reason` of `/api/save` (`duplicate_id`,
   * `markup`, `link`, `media`, …), or `path`, `size`, `symlink`,
   * `missing_image`.
   */
  reason: string;
  /** One sentence for a person. */
  detail: string;
}

/** What `editor check` found. */
export interface CheckReport {
  /** The page files checked. */
  files: number;
  /** The locales they were checked against. */
  locales: readonly string[];
  /** The failures, at most one per file, by file path. */
  failures: PageFailure[];
}

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
  let locales: readonly string[];
  try {
    locales = checkLocales({
      locales: options.locales ?? await localeFolders(root),
    });
  } catch (error) {
    if (error instanceof ServeError) throw error;
    throw new ServeError((error as Error).message);
  }
  const files = (await pageFiles(pages)).map((file) =>
    relative(root, file).split(sep).join("/")
  ).sort();
  const failures: PageFailure[] = [];
  for (const file of files) {
    const failure = await checkFile(root, file, locales);
    if (failure) failures.push(failure);
  }
  return { files: files.length, locales, failures };
}

/** Every `.json` file under a folder, dot entries left out. */
async function pageFiles(folder: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(folder)) {
    if (entry.name.startsWith(".")) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory) found.push(...await pageFiles(path));
    else if (entry.name.endsWith(".json")) found.push(path);
  }
  return found;
}

async function checkFile(
  root: string,
  file: string,
  locales: readonly string[],
): Promise<PageFailure | undefined> {
  const fail = (pointer: string, reason: string, detail: string) => ({
    file,
    pointer,
    reason,
    detail,
  });
  if (!isPagePath(file, locales)) {
    return fail(
      "",
      "path",
      `not a page path: ${PAGES}/{${
        locales.join("|")
      }}/{page}.json, lower-case words joined by hyphens`,
    );
  }
  const path = join(root, file);
  if ((await Deno.lstat(path)).isSymlink) {
    return fail("", "symlink", "a page file must not be a symbolic link");
  }
  const bytes = await Deno.readFile(path);
  if (bytes.byteLength > CONTENT_MAX) {
    return fail("", "size", `over ${CONTENT_MAX} bytes`);
  }
  const text = new TextDecoder().decode(bytes);
  let written: string;
  try {
    written = pageRules(text);
  } catch (error) {
    if (!(error instanceof PageRuleError)) throw error;
    return fail(error.at, error.reason, error.message + pathHint(text, error));
  }
  if (new TextEncoder().encode(written).byteLength > CONTENT_MAX) {
    return fail("", "size", `over ${CONTENT_MAX} bytes once written`);
  }
  for (const [pointer, src] of mediaSources(JSON.parse(written))) {
    const image = await Deno.stat(join(root, IMAGES, src)).catch(() =>
      undefined
    );
    if (!image?.isFile) {
      return fail(pointer, "missing_image", `no file ${IMAGES}/${src}`);
    }
  }
  return undefined;
}

/**
 * For an image named by a path (`/images/hero.jpg`), how to write it: the
 * file's bare name, the file under `public/images/`.
 */
function pathHint(text: string, error: PageRuleError): string {
  if (error.reason !== "media" || !/\/src$/i.test(error.at)) return "";
  const value = getPointer(JSON.parse(text), error.at);
  if (typeof value !== "string" || !value.includes("/")) return "";
  const name = value.slice(value.lastIndexOf("/") + 1);
  return `: ${JSON.stringify(value)} is a path; write the bare name ${
    JSON.stringify(name)
  } of a file in ${IMAGES}/`;
}

/** The `src` of every media object, with its JSON Pointer, in order. */
function mediaSources(page: unknown): [string, string][] {
  const found: [string, string][] = [];
  const walk = (value: unknown, pointer: string) => {
    if (typeof value !== "object" || value === null) return;
    for (const [key, child] of Object.entries(value)) {
      const at = `${pointer}/${escapeToken(key)}`;
      if (key.toLowerCase() === "src" && typeof child === "string") {
        found.push([at, child]);
      } else walk(child, at);
    }
  };
  walk(page, "");
  return found;
}

/**
 * One failure as `editor check` prints it: `file: pointer: reason (detail)`,
 * the pointer `(page)` for the whole file.
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
  // deno-lint-ignore no-control-regex
  const detail = failure.detail.replace(/[\u0000-\u001f\u007f]+/g, " ");
  return `${failure.file}: ${
    failure.pointer || "(page)"
  }: ${failure.reason} (${detail})`;
}

/**
 * `editor check`: prints one line per failing file on standard output and a
 * count on standard error, or a one-line summary when every page passes.
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
  const files = `${report.files} page file${report.files === 1 ? "" : "s"}`;
  for (const failure of report.failures) io.out(formatFailure(failure) + "\n");
  if (report.failures.length > 0) {
    io.err(
      `${report.failures.length} of ${files} ${
        report.failures.length === 1 ? "fails" : "fail"
      } the page rules\n`,
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
