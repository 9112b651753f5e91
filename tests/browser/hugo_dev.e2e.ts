/**
 * The Hugo example in development: `hugo server` behind
 * `editor serve --proxy --template-syntax refuse`, on a temporary git copy of
 * examples/hugo, in Chromium: the navigation list of `site.json` reordered
 * and published (the commit changes the list's lines and nothing else, and
 * Hugo's live reload, through the editor's proxy, shows the new order); the
 * first post's markdown body edited in place, one word made bold with
 * Ctrl+B and one list item added, and published: the commit changes the
 * body's line, and in its markdown those two lines only.
 *
 * Run by `deno task test-frameworks`.
 */
import { join } from "node:path";
import { freePort } from "../../examples/dev_servers.ts";
import {
  copyExample,
  EDITOR_ARGS,
  startHugoServer,
} from "../../examples/hugo/demo.ts";
import {
  editBehindProxy,
  editMarkdownBody,
  reorderNavigation,
} from "./framework_support.ts";

Deno.test("hugo server behind editor serve --proxy: a list reordered, a markdown body edited in place (a bold word, a new item), each published; the commits change those lines only", async () => {
  const root = await copyExample();
  const work = await Deno.makeTempDir({ prefix: "inpage-hugo-dev-" });
  try {
    const editorPort = freePort();
    await using server = await startHugoServer(root, editorPort);
    await editBehindProxy({
      root,
      server,
      work: join(work, "browser"),
      name: "hugo",
      editorArgs: EDITOR_ARGS,
      port: editorPort,
    }, [
      reorderNavigation,
      editMarkdownBody,
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
});
