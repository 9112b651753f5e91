/**
 * The Eleventy example built for real (`eleventy`, run by Deno, on a copy
 * with its packages installed): every page is written, its regions pass
 * `editor check --html _site`, its page files pass `editor check
 * --template-syntax refuse`, and a region that drifts from its page file
 * fails the check.
 *
 * Slow (npm install): run by `deno task test-frameworks`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { installPackages } from "../../examples/dev_servers.ts";
import { copyExample, eleventyBuild } from "../../examples/eleventy/demo.ts";
import { runCli } from "../support/cli.ts";
import { assertBuildPasses } from "./build_checks.ts";

Deno.test("the Eleventy example's build passes editor check --html, and a drifted region fails it", async () => {
  const root = await copyExample();
  try {
    await installPackages(root);
    await eleventyBuild(root);
    await assertBuildPasses(root, [
      "index.html",
      "en/index.html",
      "en/about/index.html",
      "en/posts/first-post/index.html",
      "en/posts/second-post/index.html",
      "fr/index.html",
      "fr/about/index.html",
    ], { files: 9, containers: 16 });
    // The about page renamed its field: its template now names nothing.
    const about = join(root, "src/content/pages/en/about.json");
    const data = JSON.parse(await Deno.readTextFile(about));
    data.text = data.body;
    delete data.body;
    await Deno.writeTextFile(about, JSON.stringify(data, null, 2) + "\n");
    const drifted = await runCli([
      "check",
      "--repo",
      root,
      "--html",
      join(root, "_site"),
    ]);
    assert.equal(drifted.code, 1);
    assert.equal(
      drifted.stdout,
      `${
        join(root, "_site")
      }/en/about/index.html: /body: data-inpage-markdown names nothing in src/content/pages/en/about.json\n`,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
