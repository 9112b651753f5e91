/**
 * `editor convert`: a site whose pages are front-matter files (`.md`,
 * `.mdx`: front matter, then a markdown body; Astro, Eleventy, Hugo)
 * becomes a site of page files, `src/content/pages/{lang}/{page}.json`,
 * that the routes edit and `editor check` passes.
 *
 * - The front matter is YAML between `---` lines, Eleventy's `---json` or
 *   `---js` (literal values only: code is refused, never run), or Hugo's
 *   TOML between `+++` lines or JSON in braces; another form is refused.
 * - Every key and value of the front matter is kept as it is, in the same
 *   order (a TOML date as `2018-05-01`); the markdown body becomes the
 *   string field `body`.
 * - In the body, a link to a source file converted in the same run
 *   (`blog/thirdpost.md`) becomes its page's URL (`/{lang}/{page}/`, the
 *   home `/{lang}/`), and an image beside the post (`![alt](possum.png)`,
 *   `<img src="./possum.png" alt="…">`) is copied into `public/images/` and
 *   written `![alt](/images/possum.png)`; a link to a source file not
 *   converted is named. Template syntax in a body (a shortcode, an
 *   include) is refused: it ran in the generator, a page file holds
 *   content only.
 * - A string naming an image file (`image: "/images/banner.png"`) becomes a
 *   media object `{ src, width, height, alt }`, its sides read from the
 *   file's header; an object with such a `src` gets the bare name and its
 *   missing sides. The file is copied into `public/images/` under a name the
 *   media rule accepts (`Banner.PNG` → `banner.png`); the original stays.
 * - A page is written only when it passes the page rules; otherwise every
 *   problem is reported and nothing of that page is written.
 *
 * @module
 */

import { basename, dirname, extname, join, resolve } from "node:path";
import { isPagePath } from "../lib/pages/page_path.ts";
import { PageRuleError, pageRules } from "../lib/pages/page_rules.ts";
import { checkLocales } from "../lib/pages/locales.ts";
import { templateSyntaxIn } from "../lib/pages/template_rule.ts";
import { formatPointer, getPointer } from "../lib/wire/pointer.ts";
import { IMAGES_FOLDER, PAGES_FOLDER } from "../lib/wire/names.ts";
import { CONTENT_MAX } from "../lib/limits.ts";
import { pageName, readFrontMatter } from "./front_matter.ts";
import { type BodyRewrite, rewriteBody } from "./convert_body.ts";
import {
  type ImageCopy,
  ImageNames,
  isImagePath,
  mediaFor,
} from "./convert_images.ts";

export { pageName, readFrontMatter, splitFrontMatter } from "./front_matter.ts";
export type {
  FrontMatter,
  FrontMatterFormat,
  FrontMatterRead,
} from "./front_matter.ts";
export type { BodyRewrite } from "./convert_body.ts";
export type { ImageCopy } from "./convert_images.ts";

/**
 * A conversion that cannot start: a source that does not exist, a language
 * that is not a language code, no pages folder.
 *
 * @example
 * ```ts
 * import { ConvertError, convertSite } from "@inpage/editor/cli";
 * import assert from "node:assert/strict";
 *
 * await assert.rejects(
 *   convertSite({ repo: ".", lang: "EN!" }),
 *   ConvertError,
 * );
 * ```
 */
export class ConvertError extends Error {
  /**
   * Creates the error.
   *
   * @param message one sentence, printed after `editor: `
   */
  constructor(message: string) {
    super(message);
    this.name = "ConvertError";
  }
}

/** The options of `editor convert`. */
export interface ConvertOptions {
  /** The site's checkout; default the current folder. */
  repo: string;
  /**
   * Front-matter files or folders of them, from the checkout; default the
   * `.md` and `.mdx` files directly in `src/content/pages`.
   */
  sources?: string[] | undefined;
  /** The language the pages go under; default `en`. */
  lang?: string | undefined;
  /** Report what would be done, write nothing. */
  dryRun?: boolean | undefined;
}

/** One page converted (or, in a dry run, that would be). */
export interface ConvertedPage {
  /** The front-matter file, from the checkout, with `/` separators. */
  source: string;
  /** The page file written, `src/content/pages/{lang}/{page}.json`. */
  file: string;
  /** The JSON Pointers of the media objects made from image paths. */
  images: string[];
  /**
   * The links to source files and the images beside the post rewritten in
   * its body, each `from` and `to`.
   */
  rewrites: BodyRewrite[];
}

/** Something that could not be converted, and where. */
export interface ConvertProblem {
  /** The front-matter file, from the checkout. */
  source: string;
  /** A JSON Pointer into the page; `""` for the whole file. */
  pointer: string;
  /** One sentence for a person. */
  detail: string;
}

/** What `editor convert` did, or would do. */
export interface ConvertReport {
  /** The pages written, in the order of their sources. */
  pages: ConvertedPage[];
  /** The image files copied. */
  copies: ImageCopy[];
  /** What could not be converted; the pages concerned are not written. */
  problems: ConvertProblem[];
  /** Whether nothing was written. */
  dryRun: boolean;
}

const SOURCE_EXTENSIONS = new Set([".md", ".mdx"]);

/** The sources found, each with its page name. */
interface Source {
  /** The file, from the checkout. */
  path: string;
  /** Its page name. */
  page: string;
  /** The folder it was found under (the generator's input). */
  input: string;
}

async function findSources(
  root: string,
  given: readonly string[] | undefined,
): Promise<Source[]> {
  const found: Source[] = [];
  const walk = async (folder: string, inside: string, deep: boolean) => {
    const entries: Deno.DirEntry[] = [];
    for await (const entry of Deno.readDir(join(root, folder, inside))) {
      entries.push(entry);
    }
    entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const path = inside ? `${inside}/${entry.name}` : entry.name;
      if (entry.isDirectory && deep) await walk(folder, path, deep);
      else if (
        entry.isFile && SOURCE_EXTENSIONS.has(extname(entry.name).toLowerCase())
      ) {
        found.push({
          path: `${folder}/${path}`.replace(/^\.\//, ""),
          page: pageName(path, basename(resolve(root, folder))),
          input: folder,
        });
      }
    }
  };
  if (given === undefined || given.length === 0) {
    const info = await Deno.stat(join(root, PAGES_FOLDER)).catch(() =>
      undefined
    );
    if (!info?.isDirectory) {
      throw new ConvertError(
        `${root} has no ${PAGES_FOLDER} folder: name the front-matter files or folders to convert`,
      );
    }
    await walk(PAGES_FOLDER, "", false);
    return found;
  }
  for (const source of given) {
    const clean = source.replace(/\\/g, "/").replace(/\/+$/, "");
    const info = await Deno.stat(join(root, clean)).catch(() => undefined);
    if (info?.isDirectory) await walk(clean, "", true);
    else if (info?.isFile) {
      const name = basename(clean);
      found.push({
        path: clean,
        page: pageName(name, basename(dirname(resolve(root, clean)))),
        input: dirname(clean),
      });
    } else {
      throw new ConvertError(
        `${join(root, clean)} is neither a file nor a folder`,
      );
    }
  }
  return found;
}

/** Converts the front matter's values: image paths become media objects. */
async function convertValue(
  conversion: ImageNames,
  value: unknown,
  tokens: (string | number)[],
  page: { source: string; images: string[]; problems: ConvertProblem[] },
  used: Set<string>,
): Promise<unknown> {
  const problem = (detail: string) =>
    page.problems.push({
      source: page.source,
      pointer: formatPointer(tokens),
      detail,
    });
  if (typeof value === "string") {
    if (!isImagePath(value)) return value;
    const made = await mediaFor(conversion, value, page.source);
    if (typeof made === "string") {
      problem(made);
      return value;
    }
    used.add(made.real);
    page.images.push(formatPointer(tokens));
    return { src: made.src, width: made.width, height: made.height, alt: "" };
  }
  // TOML dates: "2018-05-01" as written (TomlDate), a Date as ISO text.
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "number" && !Number.isFinite(value)) {
    problem(`${value} is not a number JSON can hold`);
    return value;
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const [index, item] of value.entries()) {
      out.push(
        await convertValue(conversion, item, [...tokens, index], page, used),
      );
    }
    return out;
  }
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    const src = record.src;
    const isMedia = typeof src === "string" && isImagePath(src);
    for (const [key, child] of Object.entries(record)) {
      if (isMedia && key === "src") continue;
      out[key] = await convertValue(
        conversion,
        child,
        [...tokens, key],
        page,
        used,
      );
    }
    if (!isMedia) return out;
    const made = await mediaFor(conversion, src, page.source);
    if (typeof made === "string") {
      tokens.push("src");
      problem(made);
      tokens.pop();
      return { src, ...out };
    }
    used.add(made.real);
    page.images.push(formatPointer(tokens));
    return {
      src: made.src,
      width: made.width,
      height: made.height,
      ...out,
    };
  }
  return value;
}

/** One problem the page rules found. */
interface RuleProblem {
  at: string;
  code: string;
  detail: string;
}

/**
 * The problems of a refusal: every one when the rules list them
 * (`problems`), else the first (`at`, `reason`).
 */
function ruleProblems(error: PageRuleError): readonly RuleProblem[] {
  const listed = (error as { problems?: readonly RuleProblem[] }).problems;
  if (listed !== undefined && listed.length > 0) return listed;
  const code = (error as { code?: string; reason?: string }).code ??
    (error as { reason?: string }).reason ?? "rules";
  return [{ at: error.at, code, detail: error.message }];
}

/** Why a page fails the rules, with what to do for raw HTML in a text. */
function ruleProblem(page: unknown, problem: RuleProblem): string {
  const detail = `${problem.code} (${problem.detail})`;
  if (problem.code === "template") {
    return `${detail}: the generator ran it as a template in the source file; a page file holds content only: write what it gave, then run again`;
  }
  if (problem.code !== "markup" || problem.at === "") return detail;
  if (/comment/.test(problem.detail)) {
    return `${detail}: an HTML comment (<!-- … -->) in the text, which the page rules refuse; remove it, then run again`;
  }
  const value = getPointer(page, problem.at);
  if (typeof value !== "string") return detail;
  const tag = /<\/?([A-Za-z][A-Za-z0-9-]*)/.exec(value)?.[1];
  if (tag === undefined) return detail;
  return `${detail}: raw HTML <${tag}> in the text, which the page rules refuse; write it in markdown (### Title, not <h3>Title</h3>), then run again`;
}

/**
 * Converts the front-matter pages of a checkout into page files, and copies
 * the images they name into `public/images/` under accepted names.
 *
 * @param options the checkout, the sources, the language and `dryRun`
 * @returns the pages written, the images copied and what could not be
 *   converted (a page with a problem is not written)
 * @throws {ConvertError} when a source does not exist or the language is not
 *   a language code
 * @example
 * ```ts
 * import { convertSite } from "@inpage/editor/cli";
 * import assert from "node:assert/strict";
 *
 * const repo = await Deno.makeTempDir();
 * await Deno.mkdir(`${repo}/src/content/pages`, { recursive: true });
 * await Deno.writeTextFile(
 *   `${repo}/src/content/pages/about.md`,
 *   "---\ntitle: About us\nbuttons:\n  - label: Contact\n    link: /contact\n---\n\nWe make *small* sites.\n",
 * );
 * const report = await convertSite({ repo });
 * assert.deepEqual(report.problems, []);
 * assert.deepEqual(
 *   JSON.parse(await Deno.readTextFile(`${repo}/src/content/pages/en/about.json`)),
 *   {
 *     title: "About us",
 *     buttons: [{ label: "Contact", link: "/contact" }],
 *     body: "We make *small* sites.",
 *   },
 * );
 * await Deno.remove(repo, { recursive: true });
 * ```
 */
export async function convertSite(
  options: ConvertOptions,
): Promise<ConvertReport> {
  const root = options.repo;
  const lang = options.lang ?? "en";
  try {
    checkLocales({ locales: [lang] });
  } catch (error) {
    throw new ConvertError((error as Error).message);
  }
  const realRoot = await Deno.realPath(root).catch(() => {
    throw new ConvertError(`${root} is not a folder`);
  });
  const sources = await findSources(root, options.sources);
  const conversion = new ImageNames(root, realRoot);
  const report: ConvertReport = {
    pages: [],
    copies: [],
    problems: [],
    dryRun: options.dryRun === true,
  };
  // The URL each page will have, for the links between them: the home at
  // /{lang}/, any other page at /{lang}/{page}/.
  const urls = new Map(
    sources.map((source) => [
      source.path,
      source.page === "home" ? `/${lang}/` : `/${lang}/${source.page}/`,
    ]),
  );
  const targets = new Map<string, string>();
  const written: { file: string; text: string }[] = [];
  const used = new Set<string>();
  for (const source of sources) {
    const page = {
      source: source.path,
      images: [] as string[],
      problems: [] as ConvertProblem[],
    };
    const fail = (pointer: string, detail: string) =>
      report.problems.push({ source: source.path, pointer, detail });
    const file = `${PAGES_FOLDER}/${lang}/${source.page}.json`;
    if (!isPagePath(file, [lang])) {
      fail(
        "",
        `its page name ${
          JSON.stringify(source.page)
        } makes no page path (${PAGES_FOLDER}/${lang}/{page}.json: one to four lower-case words joined by hyphens, 120 characters in all); rename the file`,
      );
      continue;
    }
    const other = targets.get(file);
    if (other !== undefined) {
      fail("", `${other} already becomes ${file}; rename one of them`);
      continue;
    }
    targets.set(file, source.path);
    const read = readFrontMatter(
      await Deno.readTextFile(join(root, source.path)),
    );
    if ("problem" in read) {
      fail("", read.problem);
      continue;
    }
    const data = read.data;
    const syntax = templateSyntaxIn(read.body);
    if (syntax !== undefined) {
      fail(
        "/body",
        `template syntax (${syntax}) in the body: the generator ran it as a template (a shortcode, an include, a variable); a page file holds content only: write what it gave, then run again`,
      );
      continue;
    }
    const rewritten = await rewriteBody(read.body, {
      source: source.path,
      input: source.input,
      urls,
      images: conversion,
    });
    for (const problem of rewritten.problems) {
      page.problems.push({
        source: source.path,
        pointer: "/body",
        detail: problem,
      });
    }
    const body = rewritten.body;
    const pageUsed = new Set<string>(rewritten.used);
    const converted = await convertValue(
      conversion,
      data,
      [],
      page,
      pageUsed,
    ) as Record<string, unknown>;
    if (body !== "") {
      if (Object.hasOwn(converted, "body")) {
        fail(
          "/body",
          "the front matter has a key body, where the markdown body would go; rename it",
        );
        continue;
      }
      converted.body = body;
    }
    // Every problem of the page at once: its values and body, then the
    // page rules on what they became.
    report.problems.push(...page.problems);
    let text: string;
    try {
      // The source was a template: what it held as template code cannot be
      // content.
      text = pageRules(JSON.stringify(converted), undefined, {
        templateSyntax: "refuse",
      });
    } catch (error) {
      if (!(error instanceof PageRuleError)) throw error;
      for (const problem of ruleProblems(error)) {
        // A link already named above is not named twice.
        const named = problem.at === "/body" &&
          rewritten.named.some((target) =>
            problem.detail.includes(JSON.stringify(target))
          );
        if (!named) fail(problem.at, ruleProblem(converted, problem));
      }
      continue;
    }
    if (page.problems.length > 0) continue;
    if (new TextEncoder().encode(text).byteLength > CONTENT_MAX) {
      fail("", `the page is over ${CONTENT_MAX} bytes once written`);
      continue;
    }
    const existing = await Deno.readTextFile(join(root, file)).catch(() =>
      undefined
    );
    if (existing !== undefined && existing !== text) {
      fail("", `${file} exists and differs; not overwritten`);
      continue;
    }
    for (const real of pageUsed) used.add(real);
    written.push({ file, text });
    report.pages.push({
      source: source.path,
      file,
      images: page.images,
      rewrites: rewritten.rewrites,
    });
  }
  for (const [real, copy] of conversion.copies) {
    if (used.has(real)) report.copies.push(copy);
  }
  if (!report.dryRun) {
    for (const copy of report.copies) {
      await Deno.mkdir(join(root, IMAGES_FOLDER), { recursive: true });
      await Deno.copyFile(join(root, copy.from), join(root, copy.to));
    }
    for (const { file, text } of written) {
      await Deno.mkdir(dirname(join(root, file)), { recursive: true });
      await Deno.writeTextFile(join(root, file), text);
    }
  }
  return report;
}

/**
 * `editor convert`: converts, then prints one line per page written and per
 * image copied on standard output, one line per problem
 * (`source: pointer: detail`) and a summary on standard error.
 *
 * @param options the checkout, the sources, the language and `dryRun`
 * @param io where it writes
 * @returns the exit code: 0 when everything converted, 1 otherwise
 * @throws {ConvertError} when a source does not exist or the language is not
 *   a language code
 * @example
 * ```ts
 * import { convertCommand } from "@inpage/editor/cli";
 * import assert from "node:assert/strict";
 *
 * const repo = await Deno.makeTempDir();
 * await Deno.mkdir(`${repo}/src/content/pages`, { recursive: true });
 * await Deno.writeTextFile(`${repo}/src/content/pages/home.md`, "---\ntitle: Hi\n---\n");
 * const out: string[] = [];
 * const code = await convertCommand({ repo, dryRun: true }, {
 *   out: (t) => out.push(t),
 *   err: (t) => out.push(t),
 * });
 * assert.equal(code, 0);
 * assert.equal(out[0], "would write src/content/pages/en/home.json (from src/content/pages/home.md)\n");
 * await Deno.remove(repo, { recursive: true });
 * ```
 */
export async function convertCommand(
  options: ConvertOptions,
  io: { out: (text: string) => void; err: (text: string) => void },
): Promise<number> {
  const report = await convertSite(options);
  const would = report.dryRun ? "would " : "";
  for (const page of report.pages) {
    const images = page.images.length === 0
      ? ""
      : `; media objects at ${page.images.join(", ")}`;
    io.out(`${would}write ${page.file} (from ${page.source}${images})\n`);
    for (const rewrite of page.rewrites) {
      io.out(
        `${would}rewrite ${JSON.stringify(rewrite.from)} as ${
          JSON.stringify(rewrite.to)
        } in ${page.file}\n`,
      );
    }
  }
  for (const copy of report.copies) {
    io.out(`${would}copy ${copy.from} to ${copy.to}\n`);
  }
  for (const problem of report.problems) {
    // deno-lint-ignore no-control-regex
    const detail = problem.detail.replace(/[\u0000-\u001f\u007f]+/g, " ");
    io.out(
      `not converted: ${problem.source}: ${
        problem.pointer || "(page)"
      }: ${detail}\n`,
    );
  }
  const count = (n: number, word: string) =>
    `${n} ${word}${n === 1 ? "" : "s"}`;
  const total = report.pages.length +
    new Set(report.problems.map((p) => p.source)).size;
  io.err(
    `${count(report.pages.length, "page")} of ${total} ${
      report.dryRun ? "would be converted" : "converted"
    }, ${count(report.copies.length, "image")} ${
      report.dryRun ? "to copy" : "copied"
    }${
      report.problems.length > 0
        ? `, ${count(report.problems.length, "problem")}`
        : ""
    }${report.dryRun ? " (dry run: nothing written)" : ""}\n`,
  );
  if (total === 0) {
    io.err(
      `no .md or .mdx file found: name the front-matter files or folders to convert\n`,
    );
    return 1;
  }
  return report.problems.length > 0 ? 1 : 0;
}
