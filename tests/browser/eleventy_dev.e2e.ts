/**
 * The Eleventy example in development: `eleventy --serve` (run by Deno)
 * behind `editor serve --proxy --template-syntax refuse`, on a temporary git
 * copy of examples/eleventy, in Chromium: the navigation list of
 * `site.json` reordered and published (the commit changes the list's lines
 * and nothing else, and Eleventy reloads the page with the new order); the
 * first post's markdown body edited in place, one word made bold with
 * Ctrl+B and one list item added, and published: the commit changes the
 * body's line, and in its markdown those two lines only.
 *
 * Slow (npm install, eleventy --serve): run by `deno task test-frameworks`.
 */
import { join } from "node:path";
import { installPackages } from "../../examples/dev_servers.ts";
import {
  copyExample,
  EDITOR_ARGS,
  startEleventyServe,
} from "../../examples/eleventy/demo.ts";
import {
  editBehindProxy,
  editMarkdownBody,
  reorderNavigation,
} from "./framework_support.ts";

Deno.test("eleventy --serve behind editor serve --proxy: a list reordered, a markdown body edited in place (a bold word, a new item), each published; the commits change those lines only", async () => {
  const root = await copyExample();
  const work = await Deno.makeTempDir({ prefix: "inpage-eleventy-dev-" });
  try {
    await installPackages(root);
    await using server = await startEleventyServe(root);
    await editBehindProxy({
      root,
      server,
      work: join(work, "browser"),
      name: "eleventy",
      editorArgs: EDITOR_ARGS,
    }, [
      reorderNavigation,
      editMarkdownBody,
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
});
