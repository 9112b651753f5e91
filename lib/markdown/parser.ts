/**
 * The markdown parser the engine reads with: markdown-it, CommonMark with
 * the tables and strikethrough most renderers add (Eleventy's markdown-it,
 * Hugo's Goldmark), raw HTML recognised (so that an HTML block is seen as
 * one and kept), links read as written (no percent-encoding, no dropped
 * `javascript:`: the server's link rule judges them).
 *
 * @module
 */

import markdownIt, { type Env, type MarkdownIt, type Token } from "markdown-it";

export type { Env, Token };

let parser: MarkdownIt | undefined;

/** The shared markdown-it instance. */
function markdown(): MarkdownIt {
  if (parser === undefined) {
    parser = markdownIt("default", {
      html: true,
      linkify: false,
      typographer: false,
    });
    parser.normalizeLink = (url: string) => url;
    parser.normalizeLinkText = (url: string) => url;
    parser.validateLink = () => true;
    // Escapes stay tokens of their own (`text_special`), so that a `[^`
    // written in text is told from an escaped one.
    parser.disable("text_join");
  }
  return parser;
}

/**
 * The block tokens of a markdown string, inline children parsed.
 *
 * @param source the markdown
 * @param env where markdown-it keeps the reference definitions it reads
 * @returns markdown-it's tokens
 */
export function parseMarkdown(source: string, env: Env = {}): Token[] {
  return markdown().parse(source, env);
}
