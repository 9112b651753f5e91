/**
 * "Adopt an existing theme" (docs/adopt/astro.md), run on its fixture
 * (tests/fixtures/adopt: front-matter pages, image paths, Astro templates):
 * `editor convert` names the `<h3>` and writes the rest; once the body is
 * markdown it converts everything; `editor check` passes; `astro build`
 * succeeds; every built page carries regions, image regions included
 * through the site's `<Image>` wrapper, and no template uses `set:html`.
 *
 * Slow (npm install, astro build): run by `deno task test-astro`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type DefaultTreeAdapterMap, parse } from "parse5";
import {
  ASTRO_ENV,
  EXAMPLE,
  installPackages,
} from "../../examples/astro/demo.ts";
import { copyTree } from "../../cli/demo_site.ts";
import { runCli } from "../support/cli.ts";

type Node = DefaultTreeAdapterMap["node"];
type Element = DefaultTreeAdapterMap["element"];

const FIXTURE = new URL("../fixtures/adopt/", import.meta.url).pathname;
const PAGES = "src/content/pages";

/** Every element of a document, in order. */
function elements(node: Node): Element[] {
  const found: Element[] = [];
  const walk = (current: Node) => {
    if ("tagName" in current) found.push(current);
    const children = "childNodes" in current ? current.childNodes : [];
    for (const child of children) walk(child);
    if ("content" in current) walk(current.content);
  };
  walk(node);
  return found;
}

function attribute(element: Element, name: string): string | undefined {
  return element.attrs.find((attr) => attr.name === name)?.value;
}

/**
 * Runs `astro build` in the site, with the loader or without it.
 *
 * @param root the site's folder, packages installed
 * @param editor whether the build is the one served behind the routes
 */
async function build(root: string, editor: boolean): Promise<void> {
  const { success, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "npm:astro", "build"],
    cwd: root,
    env: {
      NO_COLOR: "1",
      ...ASTRO_ENV,
      ...(editor ? { PUBLIC_INPAGE_EDITOR: "1" } : {}),
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  assert.ok(
    success,
    `astro build failed:\n${decoder.decode(stdout)}\n${decoder.decode(stderr)}`,
  );
}

/** The HTML files of a build, by path from `dist/`. */
async function htmlFiles(dist: string, inside = ""): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(join(dist, inside))) {
    const path = inside ? `${inside}/${entry.name}` : entry.name;
    if (entry.isDirectory) found.push(...await htmlFiles(dist, path));
    else if (entry.name.endsWith(".html")) found.push(path);
  }
  return found.sort();
}

Deno.test("a front-matter site adopted: convert, check, astro build, and every built page carries regions", async () => {
  const root = await Deno.makeTempDir({ prefix: "inpage-adopt-" });
  try {
    await copyTree(FIXTURE, root, new Set());
    for (const file of ["package.json", "package-lock.json"]) {
      await Deno.copyFile(join(EXAMPLE, file), join(root, file));
    }

    // 1. Convert: the <h3> is named, the rest is written.
    const first = await runCli(["convert", "--repo", root]);
    assert.equal(first.code, 1, first.stdout + first.stderr);
    assert.match(
      first.stdout,
      /^not converted: src\/content\/pages\/contact\.md: \/body: markup \(.*\): raw HTML <h3> in the text, which the page rules refuse; write it in markdown/m,
    );
    // 2. The body in markdown, then everything converts.
    const contact = join(root, PAGES, "contact.md");
    await Deno.writeTextFile(
      contact,
      (await Deno.readTextFile(contact)).replace(
        /<h3>(.*)<\/h3>/,
        "### $1",
      ),
    );
    const second = await runCli(["convert", "--repo", root]);
    assert.equal(second.code, 0, second.stdout + second.stderr);
    // 3. The sources go; the page files pass the rules.
    for await (const entry of Deno.readDir(join(root, PAGES))) {
      if (entry.name.endsWith(".md")) {
        await Deno.remove(join(root, PAGES, entry.name));
      }
    }
    const check = await runCli(["check", "--repo", root]);
    assert.equal(check.code, 0, check.stdout + check.stderr);
    assert.match(check.stdout, /^3 page files checked \(locales en\)/m);

    // 4. The templates write no value as HTML.
    for (
      const template of [
        "src/pages/[...page].astro",
        "src/components/Img.astro",
        "src/components/Markdown.astro",
      ]
    ) {
      const text = await Deno.readTextFile(join(root, template));
      assert.doesNotMatch(text, /set:html\s*=/, template);
    }

    // 5. astro build, and the regions in every built page.
    const installMs = await installPackages(root);
    console.log(`npm install: ${(installMs / 1000).toFixed(1)} s`);
    await build(root, true);
    const dist = join(root, "dist");
    const pages = await htmlFiles(dist);
    assert.deepEqual(pages, [
      "about/index.html",
      "contact/index.html",
      "index.html",
    ]);
    const expected: Record<string, { file: string; images: string[] }> = {
      "index.html": {
        file: "home",
        images: ["/images/banner.png", "/images/call-to-action.png"],
      },
      "about/index.html": {
        file: "about",
        images: [
          "/images/team-alice-smith.jpg",
          "/images/team-alice-smith.jpg",
        ],
      },
      "contact/index.html": { file: "contact", images: [] },
    };
    for (const page of pages) {
      const all = elements(parse(await Deno.readTextFile(join(dist, page))));
      const containers = all.filter((element) =>
        attribute(element, "data-inpage-page") !== undefined
      );
      assert.deepEqual(
        containers.map((element) => attribute(element, "data-inpage-page")),
        [`${PAGES}/en/${expected[page]!.file}.json`],
        page,
      );
      const texts = all.filter((element) =>
        attribute(element, "data-inpage-text") !== undefined
      );
      assert.ok(texts.length >= 2, `${page}: ${texts.length} text regions`);
      // Astro's <Image>, through the wrapper, keeps the image regions.
      const images = all.filter((element) =>
        attribute(element, "data-inpage-image") !== undefined
      );
      assert.deepEqual(
        images.map((element) => [
          element.tagName,
          attribute(element, "src"),
        ]),
        expected[page]!.images.map((src) => ["img", src]),
        page,
      );
      for (const image of images) {
        assert.ok(attribute(image, "width"), `${page}: an image has width`);
        assert.ok(attribute(image, "height"), `${page}: an image has height`);
      }
      // The loader is in every page of the build served behind the routes.
      assert.ok(
        all.some((element) =>
          element.tagName === "script" &&
          attribute(element, "src") === "/_inpage/loader.js"
        ),
        `${page}: the loader`,
      );
    }
    // The images the pages name are in the build.
    for (
      const name of ["banner.png", "call-to-action.png", "team-alice-smith.jpg"]
    ) {
      assert.ok((await Deno.stat(join(dist, "images", name))).isFile, name);
    }

    // 6. The build for visitors' hosting has no loader, so no request that
    // this hosting would answer with a 404.
    await build(root, false);
    for (const page of await htmlFiles(dist)) {
      const html = await Deno.readTextFile(join(dist, page));
      assert.ok(!html.includes("/_inpage/"), `${page} names /_inpage/`);
      assert.match(html, /data-inpage-text=/, page);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
