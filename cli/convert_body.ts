/**
 * The markdown body of a converted page, made to work without its
 * generator:
 *
 * - a link to a source file (`blog/thirdpost.md`, `/blog/firstpost.md`, as
 *   Eleventy's InputPathToUrl and Hugo's `ref` resolve them) becomes the
 *   URL of the page it is converted into (`/en/blog/thirdpost/`), or is
 *   named when that file is not converted in the same run;
 * - an image beside the post (`![A possum](possum.png)`, `<img
 *   src="./possum.png" alt="…">`) is copied into `public/images/` under an
 *   accepted name and written `![A possum](/images/possum.png)`, or named
 *   when it is not an image the media rule accepts.
 *
 * Code blocks are left as they are. Each change is listed, for the report.
 *
 * @module
 */

import { dirname, join, normalize } from "node:path";
import { parseFragment } from "parse5";
import { parseMarkdown } from "../lib/markdown/parser.ts";
import { type ImageNames, isImagePath, mediaFor } from "./convert_images.ts";

/** The extensions of source files: pages a generator renders. */
const SOURCE =
  /\.(?:md|mdx|markdown|njk|liquid|11ty\.js|11ty\.cjs|11ty\.mjs|ejs|hbs|pug|haml|webc)$/i;

/** What a body's rewriting needs to know. */
export interface BodyContext {
  /** The front-matter file, from the checkout, with `/` separators. */
  source: string;
  /** The folder it was found under (the generator's input), from the checkout. */
  input: string;
  /** The URL of each page converted in this run, by its source's path. */
  urls: ReadonlyMap<string, string>;
  /** The image names of this conversion. */
  images: ImageNames;
}

/** One change made to a body. */
export interface BodyRewrite {
  /** The link or image as written. */
  from: string;
  /** What it became. */
  to: string;
}

/** A body rewritten, or what stops it. */
export interface RewrittenBody {
  /** The body, rewritten. */
  body: string;
  /** The changes, in order. */
  rewrites: BodyRewrite[];
  /** Sentences naming what could not be rewritten. */
  problems: string[];
  /** The links and images named in `problems`, as written. */
  named: string[];
  /** The real paths of the image files used. */
  used: Set<string>;
}

/**
 * What markdown reads in a body: the lines of fenced and indented code
 * (never rewritten) and the targets of its images (`![alt](target)`).
 */
function readBody(body: string): { code: Set<number>; images: Set<string> } {
  const code = new Set<number>();
  const images = new Set<string>();
  for (const token of parseMarkdown(body)) {
    if ((token.type === "fence" || token.type === "code_block") && token.map) {
      for (let line = token.map[0]; line < token.map[1]; line++) code.add(line);
    }
    for (const child of token.children ?? []) {
      if (child.type === "image") {
        images.add(String(child.attrGet("src") ?? ""));
      }
    }
  }
  return { code, images };
}

/** A target without its `#fragment` or `?query`, and that suffix. */
function splitTarget(target: string): [string, string] {
  const at = target.search(/[?#]/);
  return at < 0 ? [target, ""] : [target.slice(0, at), target.slice(at)];
}

/** Whether a target is a relative or site path (no scheme, not `//`). */
function isLocal(target: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith("//") &&
    !target.startsWith("#");
}

/**
 * The converted page a link to a source file names: from the generator's
 * input (`/blog/x.md`, or `blog/x.md` as Eleventy reads it), else beside
 * the linking file.
 */
function sourceUrl(target: string, context: BodyContext): string | undefined {
  const [path] = splitTarget(target);
  const candidates = path.startsWith("/")
    ? [join(context.input, path)]
    : [join(context.input, path), join(dirname(context.source), path)];
  for (const candidate of candidates) {
    const url = context.urls.get(normalize(candidate).replaceAll("\\", "/"));
    if (url !== undefined) return url;
  }
  return undefined;
}

/** `alt` text as markdown image text: brackets and backslashes escaped. */
function imageText(alt: string): string {
  return alt.replace(/[\\[\]]/g, "\\$&").replace(/\s+/g, " ");
}

/** The attributes an `<img>` may have to become a markdown image. */
const PLAIN_IMAGE = new Set([
  "src",
  "alt",
  "title",
  "width",
  "height",
  "loading",
  "decoding",
]);

/**
 * Rewrites the links to source files and the images beside a post in a
 * markdown body (see the module doc).
 *
 * @param body the markdown
 * @param context the source, its input folder, the converted pages' URLs
 *   and the image names
 * @returns the body, its changes, and what could not be rewritten
 */
export async function rewriteBody(
  body: string,
  context: BodyContext,
): Promise<RewrittenBody> {
  const { code, images } = readBody(body);
  const lines = body.split("\n");
  const result: RewrittenBody = {
    body,
    rewrites: [],
    problems: [],
    named: [],
    used: new Set(),
  };
  const image = async (path: string): Promise<string | undefined> => {
    const made = await mediaFor(context.images, path, context.source);
    if (typeof made === "string") {
      result.named.push(path);
      result.problems.push(`an image beside the post: ${made}`);
      return undefined;
    }
    result.used.add(made.real);
    return `/images/${made.src}`;
  };
  const link = (target: string): string | undefined => {
    const url = sourceUrl(target, context);
    if (url === undefined) {
      result.named.push(target);
      result.problems.push(
        `links to ${
          JSON.stringify(target)
        }, a source file not converted here: write the URL of its page, then run again`,
      );
      return undefined;
    }
    return url + splitTarget(target)[1];
  };
  for (let index = 0; index < lines.length; index++) {
    if (code.has(index)) continue;
    let line = lines[index]!;
    // <img src="./possum.png" alt="…"> beside the post: a markdown image.
    for (const tag of line.match(/<img\b[^>]*>/gi) ?? []) {
      const element = parseFragment(tag).childNodes[0];
      const attrs = element && "attrs" in element ? element.attrs : [];
      const src = attrs.find((a) => a.name === "src")?.value ?? "";
      if (!isLocal(src) || src.startsWith("/") || !isImagePath(src)) continue;
      if (!attrs.every((a) => PLAIN_IMAGE.has(a.name))) {
        result.problems.push(
          `${tag} has attributes a markdown image cannot hold: write it as ![alt](${src}), then run again`,
        );
        continue;
      }
      const url = await image(src);
      if (url === undefined) continue;
      const alt = attrs.find((a) => a.name === "alt")?.value ?? "";
      const markdown = `![${imageText(alt)}](${url})`;
      line = line.replace(tag, markdown);
      result.rewrites.push({ from: tag, to: markdown });
    }
    // ![alt](possum.png), [text](blog/x.md), href="…", src="…".
    const targets = [
      ...line.matchAll(/\](\()\s*<?([^)\s>]+)>?/g),
      ...line.matchAll(/\b(href|src)=(?:"([^"]*)"|'([^']*)')/g),
    ];
    for (const match of targets) {
      const target = match[2] ?? match[3] ?? "";
      if (!isLocal(target)) continue;
      const [path] = splitTarget(target);
      let to: string | undefined;
      if (SOURCE.test(path)) to = link(target);
      else if (
        (match[1] === "src" || images.has(target)) && !path.startsWith("/") &&
        isImagePath(path)
      ) to = await image(path);
      else continue;
      if (to === undefined) continue;
      line = line.replace(match[0], match[0].replace(target, to));
      result.rewrites.push({ from: target, to });
    }
    lines[index] = line;
  }
  result.body = lines.join("\n");
  return result;
}
