/**
 * The Astro example's own files, checked fast in the main suite (its
 * Chromium tests run in `deno task test-astro`): every page passes the page
 * rules unchanged, every media object names a file under public/images/
 * with its real dimensions, the layout loads the overlay and writes the
 * description, the templates use the regions helper (lists, links, fields),
 * and the npm packages are pinned.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { imageHeader } from "../lib/images/image_header.ts";
import { pageRules } from "../lib/pages/page_rules.ts";
import { EXAMPLE } from "../examples/astro/demo.ts";

const PAGES = join(EXAMPLE, "src/content/pages");

async function pages(): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for await (const locale of Deno.readDir(PAGES)) {
    for await (const file of Deno.readDir(join(PAGES, locale.name))) {
      const path = `${locale.name}/${file.name}`;
      out.push([path, await Deno.readTextFile(join(PAGES, path))]);
    }
  }
  return out.sort();
}

function media(value: unknown, found: Record<string, unknown>[] = []) {
  if (Array.isArray(value)) value.forEach((item) => media(item, found));
  else if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    if ("src" in record) found.push(record);
    Object.values(record).forEach((item) => media(item, found));
  }
  return found;
}

Deno.test("astro example: en and fr, home and about, each written as the routes would write it", async () => {
  const all = await pages();
  assert.deepEqual(all.map(([path]) => path), [
    "en/about.json",
    "en/home.json",
    "fr/about.json",
    "fr/home.json",
  ]);
  for (const [path, text] of all) {
    assert.equal(pageRules(text), text, path);
  }
});

Deno.test("astro example: every image is in public/images/ with the page's width and height", async () => {
  let count = 0;
  for (const [path, text] of await pages()) {
    for (const image of media(JSON.parse(text))) {
      const bytes = await Deno.readFile(
        join(EXAMPLE, "public/images", String(image.src)),
      );
      const header = imageHeader(bytes);
      assert.deepEqual(
        [header.width, header.height],
        [image.width, image.height],
        `${path}: ${image.src}`,
      );
      count++;
    }
  }
  assert.equal(count, 4);
});

Deno.test("astro example: the layout loads the overlay, the template writes regions with the helper, astro is pinned", async () => {
  const layout = await Deno.readTextFile(
    join(EXAMPLE, "src/layouts/Page.astro"),
  );
  assert.match(
    layout,
    /<script type="module" src="\/_inpage\/loader\.js"><\/script>/,
  );
  const template = await Deno.readTextFile(
    join(EXAMPLE, "src/pages/[lang]/[...page].astro"),
  );
  const section = await Deno.readTextFile(
    join(EXAMPLE, "src/components/Section.astro"),
  );
  assert.match(template, /from "@inpage\/editor\/regions"/);
  assert.match(section, /from "@inpage\/editor\/regions"/);
  for (
    const helper of [
      "page",
      "fields",
      "list",
      "item",
      "link",
      "text",
      "template",
    ]
  ) {
    assert.match(template, new RegExp(`inpage\\.${helper}\\(`), helper);
  }
  for (const helper of ["item", "text", "html", "image", "link"]) {
    assert.match(section, new RegExp(`inpage\\.${helper}\\(`), helper);
  }
  assert.match(
    layout,
    /<meta name="description" content=\{description\} \/>/,
  );
  assert.match(template, /<a \{\.\.\.item\.link\}/);
  const manifest = JSON.parse(
    await Deno.readTextFile(join(EXAMPLE, "package.json")),
  );
  assert.match(manifest.dependencies.astro, /^\d+\.\d+\.\d+$/);
  const lock = JSON.parse(
    await Deno.readTextFile(join(EXAMPLE, "package-lock.json")),
  );
  assert.equal(
    lock.packages["node_modules/astro"].version,
    manifest.dependencies.astro,
  );
});

Deno.test("astro example: its deno.json maps the package for deploy.ts, turns on KV and leaves dynamic imports until they run", async () => {
  const config = JSON.parse(
    await Deno.readTextFile(join(EXAMPLE, "deno.json")),
  );
  assert.match(config.imports["@inpage/editor"], /^jsr:@inpage\/editor@/);
  assert.deepEqual(config.unstable, ["kv", "lazy-dynamic-imports"]);
});

Deno.test("astro example: its CI checks the pages with editor check, then builds, checks the built regions, then deploys deploy.ts", async () => {
  const workflow = await Deno.readTextFile(
    join(EXAMPLE, ".github/workflows/deploy.yml"),
  );
  const check = workflow.indexOf("@inpage/editor@2/cli check --repo .\n");
  const build = workflow.indexOf("npm:astro build");
  const html = workflow.indexOf(
    "@inpage/editor@2/cli check --repo . --html dist\n",
  );
  const deploy = workflow.indexOf("entrypoint: deploy.ts");
  assert.ok(check > 0 && check < build && build < html && html < deploy);
});
