/**
 * What the Eleventy and Hugo build tests check of a built example: its
 * pages are written, `editor check --html` passes them with the counts
 * given, and `editor check --template-syntax refuse` passes its page files.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../support/cli.ts";

/**
 * Checks a built example.
 *
 * @param root the site's checkout
 * @param pages the pages expected under `_site/`
 * @param counts the HTML files and page elements `check --html` counts
 */
export async function assertBuildPasses(
  root: string,
  pages: readonly string[],
  counts: { files: number; containers: number },
): Promise<void> {
  for (const page of pages) {
    assert.ok((await Deno.stat(join(root, "_site", page))).isFile, page);
  }
  const html = await runCli([
    "check",
    "--repo",
    root,
    "--html",
    join(root, "_site"),
  ]);
  assert.equal(html.code, 0, html.stdout + html.stderr);
  assert.match(
    html.stdout,
    new RegExp(
      `^${counts.files} HTML files checked \\(${counts.containers} page elements, \\d+ regions\\): every region fits its page file\\n$`,
    ),
  );
  const files = await runCli([
    "check",
    "--repo",
    root,
    "--template-syntax",
    "refuse",
  ]);
  assert.equal(files.code, 0, files.stdout + files.stderr);
}
