/**
 * `editor check --html DIR`: the regions of a built site (for example
 * Astro's `dist/`) checked against the page files of its checkout, so that a
 * template that drifted from the content fails in CI before an editor meets
 * it. In every `.html` file under `DIR`, parsed with parse5 as a browser
 * would:
 *
 * - every `data-inpage-page` names a page file of the checkout that exists
 *   and holds JSON, once per HTML file;
 * - every pointer (`data-inpage-text`, `-html`, `-markdown`, `-image`,
 *   `-link`, `-list`, `-item`, `-fields`) is a JSON Pointer that names a
 *   value of that file, and the value fits the kind as the region contract
 *   (`lib/wire/regions.ts`, shared with the overlay) says: a string for
 *   text, html and markdown, a media object (a string `src`, a string `alt`
 *   if any) for an image, a link object (a string `href`, a string `title`
 *   if any) for a link, an array for a list, a string, number or boolean
 *   for a page field;
 * - a rich-text region (`data-inpage-html`) does not name a string that
 *   looks like markdown (a `## ` line, a blank line between paragraphs,
 *   `**bold**`, … without the HTML of rich text): the site renders it as
 *   markdown, and the rich-text editor would rewrite it as HTML. Such a
 *   region is marked `data-inpage-markdown`;
 * - the element children of a list are its items, numbered in order from 0
 *   (`/sections/0`, `/sections/1`, …), as many as the array holds, and the
 *   pointers inside an item stay inside it;
 * - a `<template data-inpage-template>` is a child of its list, its
 *   `data-inpage-default` is JSON, and its markup fits a list holding just
 *   that item.
 *
 * @module
 */

import { join, relative, sep } from "node:path";
import { type DefaultTreeAdapterTypes, parse } from "parse5";
import { checkLocales } from "../lib/pages/locales.ts";
import { isPagePath } from "../lib/pages/page_path.ts";
import { getPointer, pointerProblem, setPointer } from "../lib/wire/pointer.ts";
import { PAGES_FOLDER } from "../lib/wire/names.ts";
import {
  fitsKind,
  INPAGE_ATTRIBUTES as A,
  REGION_KIND_NAMES,
  REGION_KINDS,
} from "../lib/wire/regions.ts";
import { looksLikeMarkdown } from "../lib/markdown/looks_like.ts";
import { localeFolders, ServeError } from "./site_checkout.ts";
import { CONTENT_MAX } from "../lib/limits.ts";
import { readCheckoutFile } from "../lib/repository/local/checkout_file.ts";

type Element = DefaultTreeAdapterTypes.Element;
type ParentNode = DefaultTreeAdapterTypes.ParentNode;

/** The options of `editor check --html`. */
export interface HtmlCheckOptions {
  /** The built site's folder, such as `dist`. */
  html: string;
  /** The site's checkout, holding the page files; default `.`. */
  repo?: string | undefined;
  /** The locales; default the folder names under `src/content/pages`. */
  locales?: string[] | undefined;
}

/** One problem of a built page. */
export interface HtmlProblem {
  /** The HTML file: the folder as given, then its path under it. */
  file: string;
  /** The pointer, or a selector when no pointer names the place. */
  at: string;
  /** One sentence for a person. */
  reason: string;
}

/** What `editor check --html` found. */
export interface HtmlCheckReport {
  /** The HTML files read. */
  files: number;
  /** The `data-inpage-page` elements found. */
  containers: number;
  /** The region attributes checked. */
  regions: number;
  /** The problems, by file, in document order. */
  problems: HtmlProblem[];
}

/**
 * The kinds whose attribute holds one pointer, in the order they are
 * checked on an element (the region contract's order).
 */
const KINDS = REGION_KIND_NAMES.filter((kind) =>
  REGION_KINDS[kind].pointers === "one"
);

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return typeof value === "string" ? "a string" : `a ${typeof value}`;
}

/** Control, format and line-separator characters, shown as `\u{…}`. */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** A name made safe for a terminal: no control or format character. */
function safe(text: string): string {
  return text.replace(
    UNSAFE,
    (character) => `\\u{${character.codePointAt(0)!.toString(16)}}`,
  );
}

/** An attribute selector, such as `[data-inpage-page="src/…"]`. */
function selector(name: string, value: string): string {
  return `[${name}=${JSON.stringify(value)}]`;
}

/** A page file as read: its JSON, or why it cannot be used. */
type PageRead = { doc: unknown } | { problem: string };

/** The page file and JSON the regions of an element read. */
interface Scope {
  /** The page file's path, from `data-inpage-page`. */
  path: string;
  /** Its JSON; `undefined` when it cannot be read (reported once). */
  doc: unknown;
  /** Where the values come from, in words. */
  source: string;
}

interface Context {
  scope?: Scope | undefined;
  /** The pointer of the item the element is in. */
  item?: string | undefined;
}

/** Every `.html` file under a folder, dot entries and links left out. */
async function htmlFiles(folder: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(folder)) {
    if (entry.name.startsWith(".") || entry.isSymlink) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory) found.push(...await htmlFiles(path));
    else if (entry.isFile && entry.name.endsWith(".html")) found.push(path);
  }
  return found;
}

function attribute(element: Element, name: string): string | undefined {
  return element.attrs.find((attr) => attr.name === name)?.value;
}

function elementChildren(node: ParentNode): Element[] {
  return node.childNodes.filter((child): child is Element =>
    "tagName" in child
  );
}

/** Whether `pointer` is `within` or under it. */
function inside(pointer: string, within: string): boolean {
  return pointer === within || pointer.startsWith(within + "/");
}

/**
 * Checks the regions of a built site against the page files of its
 * checkout (see the module doc).
 *
 * @param options the built site's folder, the checkout and its locales
 * @returns the files read, the regions checked and the problems
 * @throws {ServeError} when the folder holds no `.html` file or the
 *   checkout has no `src/content/pages` folder
 * @example
 * ```ts
 * import { checkHtml } from "@inpage/editor/cli";
 * import assert from "node:assert/strict";
 *
 * const repo = await Deno.makeTempDir();
 * await Deno.mkdir(`${repo}/src/content/pages/en`, { recursive: true });
 * await Deno.mkdir(`${repo}/dist`);
 * await Deno.writeTextFile(
 *   `${repo}/src/content/pages/en/home.json`,
 *   JSON.stringify({ title: "Hi", sections: [{ heading: "A" }] }),
 * );
 * await Deno.writeTextFile(
 *   `${repo}/dist/index.html`,
 *   `<main data-inpage-page="src/content/pages/en/home.json">
 *     <h1 data-inpage-text="/title">Hi</h1>
 *     <div data-inpage-list="/sections">
 *       <section data-inpage-item="/sections/0">
 *         <h2 data-inpage-text="/sections/0/heading">A</h2>
 *       </section>
 *     </div>
 *     <p data-inpage-html="/lead"></p>
 *   </main>`,
 * );
 * const report = await checkHtml({ html: `${repo}/dist`, repo });
 * assert.equal(report.regions, 5);
 * assert.deepEqual(report.problems.map((problem) => problem.at), ["/lead"]);
 * await Deno.remove(repo, { recursive: true });
 * ```
 */
export async function checkHtml(
  options: HtmlCheckOptions,
): Promise<HtmlCheckReport> {
  const root = options.repo ?? ".";
  const info = await Deno.stat(options.html).catch(() => undefined);
  if (!info?.isDirectory) {
    throw new ServeError(
      `${options.html} is not a folder: pass --html with the built site, such as dist`,
    );
  }
  const pagesInfo = await Deno.stat(join(root, PAGES_FOLDER)).catch(() =>
    undefined
  );
  if (!pagesInfo?.isDirectory) {
    throw new ServeError(
      `${root} has no ${PAGES_FOLDER} folder: pass --repo with the site's checkout`,
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
  const files = (await htmlFiles(options.html)).map((file) =>
    relative(options.html, file).split(sep).join("/")
  ).sort();
  if (files.length === 0) {
    throw new ServeError(`No .html file under ${options.html}`);
  }
  const real = await Deno.realPath(root);
  const pages = new Map<string, Promise<PageRead>>();
  const readPage = (path: string): Promise<PageRead> => {
    let read = pages.get(path);
    if (!read) {
      read = pageFile(real, path);
      pages.set(path, read);
    }
    return read;
  };
  const report: HtmlCheckReport = {
    files: files.length,
    containers: 0,
    regions: 0,
    problems: [],
  };
  for (const name of files) {
    const file = [options.html.replace(/[\\/]+$/, ""), name].join("/");
    const text = await Deno.readTextFile(join(options.html, name));
    await checkDocument(parse(text), {
      file,
      locales,
      readPage,
      report,
    });
  }
  return report;
}

/**
 * A page file read as the server reads it (`readCheckoutFile`), with the
 * same refusals: a symbolic link, a link out of the checkout on the way, a
 * FIFO (never opened), a file over the content cap.
 */
async function pageFile(root: string, path: string): Promise<PageRead> {
  let read;
  try {
    read = await readCheckoutFile(root, path, CONTENT_MAX);
  } catch {
    return { problem: `${path} cannot be read` };
  }
  switch (read.kind) {
    case "absent":
      return { problem: `no page file ${path} in the checkout` };
    case "symlink":
      return {
        problem:
          `${path} is a symbolic link: the server refuses to read a page file that is one`,
      };
    case "outside":
      return {
        problem:
          `${path} is reached through a symbolic link out of the checkout: the server refuses to read it`,
      };
    case "not_regular":
      return {
        problem:
          `${path} is not a regular file (a FIFO, socket or device): not read`,
      };
    case "too_large":
      return { problem: `${path} is over ${CONTENT_MAX} bytes` };
  }
  try {
    return {
      doc: JSON.parse(
        new TextDecoder("utf-8", { fatal: true }).decode(read.content),
      ),
    };
  } catch {
    return { problem: `${path} is not JSON` };
  }
}

interface FileCheck {
  file: string;
  locales: readonly string[];
  readPage: (path: string) => Promise<PageRead>;
  report: HtmlCheckReport;
}

async function checkDocument(
  document: ParentNode,
  check: FileCheck,
): Promise<void> {
  const { file, report } = check;
  const problem = (at: string, reason: string) =>
    void report.problems.push({
      file: safe(file),
      at: safe(at),
      reason: safe(reason),
    });

  /** Where a pointer attribute's value is looked up, or `undefined`. */
  const look = (
    name: string,
    pointer: string,
    context: Context,
  ): { value: unknown; scope: Scope } | undefined => {
    const scope = context.scope;
    if (!scope) {
      problem(pointer, `${name} outside any ${A.page} element`);
      return undefined;
    }
    if (scope.doc === undefined) return undefined;
    if (pointerProblem(pointer) !== undefined) {
      problem(selector(name, pointer), `${name} is not a JSON Pointer`);
      return undefined;
    }
    const value = getPointer(scope.doc, pointer);
    if (value === undefined) {
      problem(pointer, `${name} names nothing in ${scope.source}`);
      return undefined;
    }
    return { value, scope };
  };

  const checkItems = (
    list: ParentNode,
    pointer: string,
    value: unknown,
    template = false,
  ): void => {
    const children = elementChildren(list).filter((child) =>
      child.tagName !== "template"
    );
    children.forEach((child, index) => {
      const item = attribute(child, A.item);
      const expected = `${pointer}/${index}`;
      if (item === undefined) {
        problem(
          pointer,
          `child ${index} of the list (a <${child.tagName}>) has no ${A.item}`,
        );
      } else if (item !== expected) {
        problem(
          item,
          `${A.item}: child ${index} of the list ${pointer} is numbered ${expected}`,
        );
      }
    });
    if (template && children.length !== 1) {
      problem(
        pointer,
        `the template of the list holds ${children.length} items; it holds one, ${pointer}/0`,
      );
    } else if (
      !template && Array.isArray(value) && children.length !== value.length
    ) {
      problem(
        pointer,
        `the list shows ${children.length} item${
          children.length === 1 ? "" : "s"
        }, the page file holds ${value.length}`,
      );
    }
  };

  /** The page files named in this HTML file so far. */
  const named = new Set<string>();

  /** Checks one element; answers its children to visit, with their context. */
  const visit = async (
    element: Element,
    outer: Context,
  ): Promise<Visit[]> => {
    const context: Context = { ...outer };
    const page = attribute(element, A.page);
    if (page !== undefined) {
      report.containers++;
      const at = selector(A.page, page);
      if (named.has(page)) {
        problem(
          at,
          `a second ${A.page} element for the same page file: the overlay would publish it twice`,
        );
      }
      named.add(page);
      if (!isPagePath(page, check.locales)) {
        problem(
          at,
          `not a page path: ${PAGES_FOLDER}/{${
            check.locales.join("|")
          }}/{page}.json`,
        );
        context.scope = { path: page, doc: undefined, source: page };
      } else {
        const read = await check.readPage(page);
        if ("problem" in read) problem(at, read.problem);
        context.scope = {
          path: page,
          doc: "doc" in read ? read.doc : undefined,
          source: page,
        };
      }
      context.item = undefined;
      const format = attribute(element, A.imageFormat);
      if (format !== undefined && !["webp", "jpeg", "png"].includes(format)) {
        problem(
          selector(A.imageFormat, format),
          `${A.imageFormat} is webp, jpeg or png`,
        );
      }
    }
    const fieldList = attribute(element, A.fields);
    if (fieldList !== undefined) {
      report.regions++;
      if (page === undefined) {
        problem(
          selector(A.fields, fieldList),
          `${A.fields} on an element without ${A.page}`,
        );
      } else {
        for (const field of fieldList.split(/[ \t\n\f\r]+/).filter(Boolean)) {
          const found = look(A.fields, field, context);
          if (found && !fitsKind("fields", found.value)) {
            problem(
              field,
              `${A.fields} names ${
                describe(found.value)
              }; ${REGION_KINDS.fields.needs}`,
            );
          }
        }
      }
    }
    const item = attribute(element, A.item);
    if (item !== undefined) {
      const parent = element.parentNode;
      // A template's content is a list of its one item (checked there).
      const inList = parent?.nodeName === "#document-fragment" ||
        (parent !== null && "tagName" in parent &&
          attribute(parent, A.list) !== undefined);
      if (!inList) {
        problem(item, `${A.item} on an element whose parent has no ${A.list}`);
      }
    }
    for (const kind of KINDS) {
      const name = REGION_KINDS[kind].attribute;
      const pointer = attribute(element, name);
      if (pointer === undefined) continue;
      report.regions++;
      const found = look(name, pointer, context);
      const within = kind === "item" ? outer.item : item ?? outer.item;
      if (
        within !== undefined && pointerProblem(pointer) === undefined &&
        !inside(pointer, within)
      ) {
        problem(
          pointer,
          `${name} inside the item ${within} names a place outside it`,
        );
      }
      if (!found) continue;
      if (!fitsKind(kind, found.value)) {
        problem(
          pointer,
          `${name} names ${describe(found.value)}; ${REGION_KINDS[kind].needs}`,
        );
      } else if (kind === "list") {
        checkItems(element, pointer, found.value);
      } else if (kind === "html") {
        const sign = looksLikeMarkdown(found.value as string);
        if (sign !== undefined) {
          problem(
            pointer,
            `${name} names a string that looks like markdown (${sign}); if the site renders it as markdown, mark it ${A.markdown}: the rich-text editor would rewrite it as HTML`,
          );
        }
      }
    }
    if (item !== undefined && pointerProblem(item) === undefined) {
      context.item = item;
    }
    if (element.tagName === "template") {
      const content = (element as DefaultTreeAdapterTypes.Template).content;
      const list = attribute(element, A.template);
      if (list === undefined) return []; // not on the page: not checked
      return visitTemplate(element, content, list, context);
    }
    if (attribute(element, A.template) !== undefined) {
      problem(
        selector(A.template, attribute(element, A.template)!),
        `${A.template} on a <${element.tagName}>; it goes on a <template>`,
      );
    }
    return elementChildren(element).map((child): Visit => [child, context]);
  };

  const visitTemplate = (
    element: Element,
    content: ParentNode,
    list: string,
    context: Context,
  ): Visit[] => {
    report.regions++;
    const parent = element.parentNode;
    const parentList = parent && "tagName" in parent
      ? attribute(parent, A.list)
      : undefined;
    if (parentList !== list) {
      problem(
        selector(A.template, list),
        `${A.template} is not a child of the element with ${A.list}=${
          JSON.stringify(list)
        }`,
      );
    }
    const written = attribute(element, A.default);
    let item: unknown;
    try {
      item = written === undefined ? undefined : JSON.parse(written);
    } catch {
      item = undefined;
    }
    if (item === undefined) {
      problem(
        selector(A.template, list),
        `${A.default} is missing or not JSON`,
      );
      return [];
    }
    const scope = context.scope;
    if (!scope || scope.doc === undefined || pointerProblem(list)) return [];
    let doc: unknown;
    try {
      doc = setPointer(scope.doc, list, [item]);
    } catch {
      return []; // the list's own pointer is reported where it is written
    }
    const inner: Context = {
      scope: {
        path: scope.path,
        doc,
        source: `${scope.path} with the template's ${A.default} as ${list}/0`,
      },
      item: context.item,
    };
    checkItems(content, list, [item], true);
    return elementChildren(content).map((child): Visit => [child, inner]);
  };

  // In document order, without recursion: a page may nest elements as
  // deeply as it likes (the stack holds what is left to visit).
  const stack = elementChildren(document).map((child): Visit => [child, {}])
    .reverse();
  for (let next = stack.pop(); next; next = stack.pop()) {
    const children = await visit(...next);
    for (let index = children.length - 1; index >= 0; index--) {
      stack.push(children[index]!);
    }
  }
}

/** An element to visit, and the context it is visited in. */
type Visit = [Element, Context];

/**
 * One problem as `editor check --html` prints it: `file: at: reason`.
 *
 * @param problem the problem
 * @returns one line, without its line feed
 * @example
 * ```ts
 * import { formatHtmlProblem } from "@inpage/editor/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   formatHtmlProblem({
 *     file: "dist/en/index.html",
 *     at: "/sections/4/heading",
 *     reason: "data-inpage-text names nothing in src/content/pages/en/home.json",
 *   }),
 *   "dist/en/index.html: /sections/4/heading: data-inpage-text names nothing in src/content/pages/en/home.json",
 * );
 * ```
 */
export function formatHtmlProblem(problem: HtmlProblem): string {
  return `${safe(problem.file)}: ${safe(problem.at || "(page)")}: ${
    safe(problem.reason)
  }`;
}

/**
 * `editor check --html DIR`: prints one line per problem on standard output
 * and a count on standard error, or a one-line summary when every region
 * fits its page file.
 *
 * @param options the built site's folder, the checkout and its locales
 * @param io where it writes
 * @returns the exit code: 0 when nothing fails, 1 otherwise
 * @throws {ServeError} when the folder holds no `.html` file or the
 *   checkout has no pages folder
 * @example
 * ```ts
 * import { checkHtmlCommand } from "@inpage/editor/cli";
 * import assert from "node:assert/strict";
 *
 * const repo = await Deno.makeTempDir();
 * await Deno.mkdir(`${repo}/src/content/pages/en`, { recursive: true });
 * await Deno.mkdir(`${repo}/dist`);
 * await Deno.writeTextFile(`${repo}/src/content/pages/en/home.json`, '{"title":"Hi"}');
 * await Deno.writeTextFile(
 *   `${repo}/dist/index.html`,
 *   '<h1 data-inpage-page="src/content/pages/en/home.json" data-inpage-text="/title">Hi</h1>',
 * );
 * const lines: string[] = [];
 * const io = { out: (t: string) => lines.push(t), err: (t: string) => lines.push(t) };
 * assert.equal(await checkHtmlCommand({ html: `${repo}/dist`, repo }, io), 0);
 * assert.deepEqual(lines, [
 *   "1 HTML file checked (1 page element, 1 region): every region fits its page file\n",
 * ]);
 * await Deno.remove(repo, { recursive: true });
 * ```
 */
export async function checkHtmlCommand(
  options: HtmlCheckOptions,
  io: { out: (text: string) => void; err: (text: string) => void },
): Promise<number> {
  const report = await checkHtml(options);
  const plural = (count: number, word: string) =>
    `${count} ${word}${count === 1 ? "" : "s"}`;
  const files = plural(report.files, "HTML file");
  for (const problem of report.problems) {
    io.out(formatHtmlProblem(problem) + "\n");
  }
  if (report.problems.length > 0) {
    const failing = new Set(report.problems.map((problem) => problem.file));
    io.err(
      `${
        plural(report.problems.length, "problem")
      } in ${failing.size} of ${files}\n`,
    );
    return 1;
  }
  io.out(
    `${files} checked (${plural(report.containers, "page element")}, ${
      plural(report.regions, "region")
    }): every region fits its page file\n`,
  );
  return 0;
}
