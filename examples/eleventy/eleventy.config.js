// The Eleventy configuration of the example blog.
//
// The content is JSON page files under src/content/pages/{lang}/, read by
// _data/pages.js; the templates under site/ write each page and mark its
// regions with the `inpage` shortcode of @inpage/editor/regions/eleventy.
//
// A site of your own installs the package (`npx jsr add @inpage/editor`) and
// imports "@inpage/editor/regions/eleventy". This example lives inside the
// package's repository, and its tests and `deno task eleventy-demo` copy it
// elsewhere with INPAGE_EDITOR_ROOT set to the repository: the helper is then
// imported from its source (Eleventy runs under Deno, which reads TypeScript).
import markdownIt from "markdown-it";
import process from "node:process";
import { pathToFileURL } from "node:url";

const root = process.env.INPAGE_EDITOR_ROOT
  ? pathToFileURL(process.env.INPAGE_EDITOR_ROOT + "/")
  : new URL("../../", import.meta.url);
const { eleventyRegions } = await import(
  new URL("regions/eleventy.ts", root).href
);

// Markdown as Eleventy renders it (CommonMark, raw HTML on: the page rules
// allow only safe tags in what is published).
const markdown = markdownIt({ html: true });

export default function (eleventyConfig) {
  eleventyConfig.addPlugin(eleventyRegions);
  // Page strings are rendered as text or as markdown, never as templates
  // (docs/regions.md: what a template must not do).
  eleventyConfig.addFilter("markdown", (text) => markdown.render(text ?? ""));
  eleventyConfig.addPassthroughCopy({ public: "/" });
  // A publish writes a page file: rebuild, and the browser reloads.
  eleventyConfig.addWatchTarget("src/content/pages/");
}

export const config = {
  templateFormats: ["njk", "liquid"],
  dir: {
    input: "site",
    includes: "../_includes",
    data: "../_data",
    output: "_site",
  },
};
