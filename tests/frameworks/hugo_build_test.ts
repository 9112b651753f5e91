/**
 * The Hugo example built for real with Debian's `hugo` (on a copy of
 * examples/hugo): every page is written, its regions, written by the
 * `inpage` partial, pass `editor check --html _site`, its page files pass
 * `editor check --template-syntax refuse`, and the partial refuses a kind it
 * does not know, failing the build with its sentence.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyExample, hugoBuild } from "../../examples/hugo/demo.ts";
import { assertBuildPasses } from "./build_checks.ts";

Deno.test("the Hugo example's build passes editor check --html and the page rules with template syntax refused", async () => {
  const root = await copyExample();
  try {
    await hugoBuild(root);
    await assertBuildPasses(root, [
      "index.html",
      "en/index.html",
      "en/about/index.html",
      "en/posts/first-post/index.html",
      "en/posts/second-post/index.html",
      "fr/index.html",
      "fr/posts/second-post/index.html",
    ], { files: 11, containers: 18 });
    const home = await Deno.readTextFile(join(root, "_site/en/index.html"));
    assert.match(
      home,
      /<div class="intro" data-inpage-markdown="\/intro"><p>Welcome to a small blog built with <strong>Hugo<\/strong>/,
    );
    assert.match(home, /data-inpage-item="\/nav\/2"/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the Hugo inpage partial escapes tokens and refuses an unknown kind, failing the build", async () => {
  const root = await copyExample();
  try {
    const single = join(root, "layouts/_default/single.html");
    const text = await Deno.readTextFile(single);
    await Deno.writeTextFile(
      single,
      text.replace(
        '<h1 {{ partial "inpage" (slice "text" "/title") }}>',
        '<h1 {{ partial "inpage" (slice "text" "a/b" "m~n" 3) }} {{ partial "inpage" (slice "fields" "/description" (slice "seo" "title")) }}>',
      ),
    );
    await hugoBuild(root);
    const about = await Deno.readTextFile(
      join(root, "_site/en/about/index.html"),
    );
    assert.match(
      about,
      /<h1 data-inpage-text="\/a~1b\/m~0n\/3" data-inpage-fields="\/description \/seo\/title">/,
    );
    await Deno.writeTextFile(
      single,
      text.replace('(slice "text" "/title")', '(slice "txt" "/title")'),
    );
    await assert.rejects(
      hugoBuild(root),
      /the kind of a region is page, text, html, markdown, image, link, list, item, template or fields, not "txt"/,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
