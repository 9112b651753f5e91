/**
 * What a reader sees of rendered markdown, to compare two writings of the
 * same content: markdown-it renders both (as Eleventy does, raw HTML on),
 * then the blocks are listed with each character of their text and the
 * inline formatting around it. The order in which inline tags nest
 * (`<strong><a>` or `<a><strong>`), a tag inside the same tag, and runs of
 * white space do not show, so they do not count.
 *
 * @module
 */

import markdownIt, { type Env } from "markdown-it";
import { type DefaultTreeAdapterTypes, parseFragment } from "parse5";

const renderer = markdownIt("default", { html: true });

const INLINE: Readonly<Record<string, string>> = {
  strong: "strong",
  b: "strong",
  em: "em",
  i: "em",
  a: "a",
  code: "code",
};

type Node =
  | DefaultTreeAdapterTypes.ChildNode
  | DefaultTreeAdapterTypes.DocumentFragment;

/**
 * The blocks and formatted characters of rendered markdown.
 *
 * @param markdown the markdown
 * @param env markdown-it's environment (the document's reference
 *   definitions), copied
 * @returns one line per block tag and per run of characters
 */
export function seen(markdown: string, env: Env = {}): string {
  const html = renderer.render(markdown, structuredClone(env));
  const items: string[] = [];
  const walk = (node: Node, marks: readonly string[]) => {
    if (node.nodeName === "#text") {
      for (const char of (node as DefaultTreeAdapterTypes.TextNode).value) {
        items.push(
          /\s/.test(char)
            ? " "
            : `${char}|${[...new Set(marks)].sort().join(",")}`,
        );
      }
      return;
    }
    if (!("childNodes" in node)) return;
    const tag = "tagName" in node ? node.tagName : undefined;
    const attrs = "attrs" in node
      ? node.attrs.map((a) => `${a.name}=${a.value}`).sort().join(" ")
      : "";
    const inline = tag === undefined ? undefined : INLINE[tag];
    const inner = inline === undefined
      ? marks
      : [...marks, `${inline}[${attrs}]`];
    if (tag !== undefined && inline === undefined) {
      items.push(`<${tag} ${attrs}>`);
    }
    for (const child of node.childNodes) walk(child, inner);
    if (tag !== undefined && inline === undefined) items.push(`</${tag}>`);
  };
  walk(parseFragment(html), []);
  // One space between words; none at a block's edges.
  const out: string[] = [];
  for (const item of items) {
    const last = out.at(-1);
    if (item === " ") {
      if (last === undefined || last === " " || last.startsWith("<")) continue;
    } else if (item.startsWith("<") && last === " ") out.pop();
    out.push(item);
  }
  if (out.at(-1) === " ") out.pop();
  return out.join("\n");
}

/**
 * The reference definitions of a whole document, for {@linkcode seen}.
 *
 * @param markdown the document
 * @returns markdown-it's environment after reading it
 */
export function referencesOf(markdown: string): Env {
  const env: Env = {};
  renderer.parse(markdown, env);
  return env;
}
