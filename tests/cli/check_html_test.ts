/**
 * `editor check --html DIR` on small built pages: a page whose regions fit
 * its page file passes; a pointer changed by hand, a renumbered item, a
 * region of the wrong kind, a missing page file, a template that drifted,
 * each fails with its exact line.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import { checkHtml, formatHtmlProblem } from "../../cli/check_html.ts";
import { inpage } from "../../regions/mod.ts";
import { runCli } from "../support/cli.ts";
import { openLocalCheckout } from "../../lib/repository/local/mod.ts";
import type { RepositoryError } from "../../lib/repository/repository.ts";

const HOME = "src/content/pages/en/home.json";

const PAGE = {
  title: "Home",
  description: "A small site",
  draft: false,
  nav: [
    { text: "Home", link: { href: "/en/", title: "Home" } },
    { text: "About", link: { href: "/en/about/" } },
  ],
  sections: [
    { id: "one", heading: "One", body: "<p>1</p>" },
    {
      id: "two",
      heading: "Two",
      image: { src: "a-0123456789ab.png", width: 1, height: 1, alt: "" },
    },
  ],
  tags: [],
};

const NEW_SECTION = { id: "section", heading: "New section", body: "<p></p>" };

/** Writes attributes as a template engine would: escaped, double-quoted. */
function attrs(...objects: object[]): string {
  return objects.flatMap((object) =>
    Object.entries(object as Record<string, string>).map(([name, value]) =>
      ` ${name}="${value.replaceAll("&", "&amp;").replaceAll('"', "&quot;")}"`
    )
  ).join("");
}

/** The built home page, as a site's templates would write it. */
function built(page = PAGE): string {
  const nav = page.nav.map((item, i) =>
    `<a href="${item.link.href}"${
      attrs(
        inpage.item(["nav", i]),
        inpage.link(["nav", i, "link"]),
        inpage.text(["nav", i, "text"]),
      )
    }>${item.text}</a>`
  ).join("");
  const section = (s: Record<string, unknown>, i: number) =>
    `<section${attrs(inpage.item(["sections", i]))}>
      <h2${attrs(inpage.text(["sections", i, "heading"]))}>${s.heading}</h2>
      ${
      s.body === undefined
        ? ""
        : `<div${attrs(inpage.html(["sections", i, "body"]))}>${s.body}</div>`
    }
      ${
      s.image === undefined
        ? ""
        : `<img${attrs(inpage.image(["sections", i, "image"]))} src="x.png">`
    }
    </section>`;
  return `<!doctype html>
<html><head><meta name="description" content="${page.description}"></head>
<body>
<div${attrs(inpage.page(HOME), inpage.fields(["/description", "/draft"]))}>
  <nav${attrs(inpage.list("/nav"))}>${nav}</nav>
  <main>
    <h1${attrs(inpage.text("/title"))}>${page.title}</h1>
    <div${attrs(inpage.list("/sections"))}>
      ${page.sections.map(section).join("\n")}
      <template${attrs(inpage.template("/sections", NEW_SECTION))}>${
    section(NEW_SECTION, 0)
  }</template>
    </div>
    <ul${attrs(inpage.list("/tags"))}><template${
    attrs(inpage.template("/tags", "tag"))
  }><li${
    attrs(inpage.item("/tags/0"), inpage.text("/tags/0"))
  }>tag</li></template></ul>
  </main>
</div>
</body></html>`;
}

/** A checkout with the home page and a `dist/` of the files given. */
async function site(
  html: Record<string, string>,
  pages: Record<string, unknown> = { [HOME]: PAGE },
): Promise<AsyncDisposable & { root: string; dist: string }> {
  const root = await Deno.makeTempDir({ prefix: "editor-check-html-" });
  const files: Record<string, string> = {
    "src/content/pages/fr/.gitkeep": "",
  };
  for (const [path, page] of Object.entries(pages)) {
    files[path] = typeof page === "string" ? page : JSON.stringify(page);
  }
  for (const [path, text] of Object.entries(html)) files[`dist/${path}`] = text;
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(root, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  }
  return {
    root,
    dist: join(root, "dist"),
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

/** The lines `editor check --html` prints for a site, by the module. */
async function lines(dist: string, root: string): Promise<string[]> {
  const report = await checkHtml({ html: dist, repo: root });
  return report.problems.map((problem) =>
    formatHtmlProblem({ ...problem, file: problem.file.slice(dist.length + 1) })
  );
}

Deno.test("check --html: a built page whose regions fit its page file passes, through the CLI", async () => {
  await using fixture = await site({
    "en/index.html": built(),
    "index.html": "<!doctype html><title>Redirect</title>",
    "_astro/x.css": "a{}",
  });
  const report = await checkHtml({ html: fixture.dist, repo: fixture.root });
  assert.deepEqual(report.problems, []);
  assert.equal(report.files, 2);
  assert.equal(report.containers, 1);
  // nav: list, 2 × (item, link, text); fields; title; sections: list,
  // 2 × (item, heading, body or image); the template: itself, item,
  // heading, body; tags: list, template, item, text.
  assert.equal(report.regions, 1 + 6 + 1 + 1 + 1 + 6 + 4 + 4);

  const run = await runCli([
    "check",
    "--repo",
    fixture.root,
    "--html",
    fixture.dist,
  ]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(
    run.stdout,
    "2 HTML files checked (1 page element, 24 regions): every region fits its page file\n",
  );
  assert.equal(run.stderr, "");
});

Deno.test("check --html: a pointer changed by hand and an item renumbered fail with their exact lines", async () => {
  const html = built()
    .replace(
      'data-inpage-text="/sections/1/heading"',
      'data-inpage-text="/sections/1/headline"',
    )
    .replace(
      'data-inpage-item="/nav/1"',
      'data-inpage-item="/nav/2"',
    );
  await using fixture = await site({ "en/index.html": html });
  assert.deepEqual(await lines(fixture.dist, fixture.root), [
    "en/index.html: /nav/2: data-inpage-item: child 1 of the list /nav is numbered /nav/1",
    "en/index.html: /nav/2: data-inpage-item names nothing in src/content/pages/en/home.json",
    "en/index.html: /nav/1/link: data-inpage-link inside the item /nav/2 names a place outside it",
    "en/index.html: /nav/1/text: data-inpage-text inside the item /nav/2 names a place outside it",
    "en/index.html: /sections/1/headline: data-inpage-text names nothing in src/content/pages/en/home.json",
  ]);

  const run = await runCli([
    "check",
    "--repo",
    fixture.root,
    "--html",
    fixture.dist + "/",
  ]);
  assert.equal(run.code, 1);
  assert.equal(
    run.stdout,
    [
      `${fixture.dist}/en/index.html: /nav/2: data-inpage-item: child 1 of the list /nav is numbered /nav/1`,
      `${fixture.dist}/en/index.html: /nav/2: data-inpage-item names nothing in src/content/pages/en/home.json`,
      `${fixture.dist}/en/index.html: /nav/1/link: data-inpage-link inside the item /nav/2 names a place outside it`,
      `${fixture.dist}/en/index.html: /nav/1/text: data-inpage-text inside the item /nav/2 names a place outside it`,
      `${fixture.dist}/en/index.html: /sections/1/headline: data-inpage-text names nothing in src/content/pages/en/home.json`,
      "",
    ].join("\n"),
  );
  assert.equal(run.stderr, "5 problems in 1 of 1 HTML file\n");
});

Deno.test("check --html: each kind must fit its value", async () => {
  const page = {
    ...PAGE,
    sections: [{
      id: "one",
      heading: { text: "not a string" },
      body: 3,
      image: "a-0123456789ab.png",
    }],
    link: { url: "/en/" },
    titled: { href: "/en/", title: 1 },
    meta: { a: 1 },
    photo: { src: "b-0123456789ab.png", alt: 7 },
  };
  const html = `<main${
    attrs(inpage.page(HOME), inpage.fields(["/description", "/meta", "/nope"]))
  }>
    <div${attrs(inpage.list("/title"))}></div>
    <div${attrs(inpage.list("/sections"))}>
      <section${attrs(inpage.item("/sections/0"))}>
        <h2${attrs(inpage.text("/sections/0/heading"))}></h2>
        <div${attrs(inpage.html("/sections/0/body"))}></div>
        <img${attrs(inpage.image("/sections/0/image"))}>
        <a${attrs(inpage.link("/sections/0"))}></a>
      </section>
    </div>
    <a${attrs(inpage.link("/link"))}></a>
    <a${attrs(inpage.link("/titled"))}></a>
    <img${attrs(inpage.image("/nav/0"))}>
    <img${attrs(inpage.image("/photo"))}>
  </main>`;
  await using fixture = await site({ "a.html": html }, { [HOME]: page });
  assert.deepEqual(await lines(fixture.dist, fixture.root), [
    "a.html: /meta: data-inpage-fields names an object; a page field is a string, a number or a boolean",
    "a.html: /nope: data-inpage-fields names nothing in src/content/pages/en/home.json",
    "a.html: /title: data-inpage-list names a string; a list needs an array",
    "a.html: /sections/0/heading: data-inpage-text names an object; a text region needs a string",
    "a.html: /sections/0/body: data-inpage-html names a number; a rich-text region needs a string",
    "a.html: /sections/0/image: data-inpage-image names a string; an image region needs a media object (a string src, a string alt if any, numbers for width and height)",
    "a.html: /sections/0: data-inpage-link names an object; a link region needs a link object (a string href, a string title if any)",
    "a.html: /link: data-inpage-link names an object; a link region needs a link object (a string href, a string title if any)",
    "a.html: /titled: data-inpage-link names an object; a link region needs a link object (a string href, a string title if any)",
    "a.html: /nav/0: data-inpage-image names an object; an image region needs a media object (a string src, a string alt if any, numbers for width and height)",
    "a.html: /photo: data-inpage-image names an object; an image region needs a media object (a string src, a string alt if any, numbers for width and height)",
  ]);
});

Deno.test("check --html: a markdown region needs a string; a rich-text region holding markdown is named, and nothing is rewritten", async () => {
  const page = {
    ...PAGE,
    body: "## Setup\n\nRun **it**.",
    intro: "First.\n\nSecond.",
    rich: "<p>First.</p><p>Second, **not** markdown here.</p>",
    plain: "Just words.",
    count: 3,
  };
  const html = `<main${attrs(inpage.page(HOME))}>
    <div${
    attrs(inpage.markdown("/body"))
  }><h2>Setup</h2><p>Run <strong>it</strong>.</p></div>
    <div${attrs(inpage.html("/intro"))}><p>First.</p><p>Second.</p></div>
    <div${attrs(inpage.html("/rich"))}></div>
    <div${attrs(inpage.html("/plain"))}>Just words.</div>
    <div${attrs(inpage.markdown("/count"))}></div>
  </main>`;
  await using fixture = await site({ "a.html": html }, { [HOME]: page });
  const before = await Deno.readTextFile(join(fixture.root, HOME));
  assert.deepEqual(await lines(fixture.dist, fixture.root), [
    "a.html: /intro: data-inpage-html names a string that looks like markdown (a blank line between paragraphs); if the site renders it as markdown, mark it data-inpage-markdown: the rich-text editor would rewrite it as HTML",
    "a.html: /count: data-inpage-markdown names a number; a markdown region needs a string",
  ]);
  assert.equal(await Deno.readTextFile(join(fixture.root, HOME)), before);
  // Through the CLI: exit 1, the line printed.
  const run = await runCli([
    "check",
    "--repo",
    fixture.root,
    "--html",
    fixture.dist,
  ]);
  assert.equal(run.code, 1);
  assert.match(
    run.stdout,
    /\/intro: data-inpage-html names a string that looks like markdown/,
  );
});

Deno.test("check --html: page files, containers, lists and templates that drifted", async () => {
  const html = `<h1${attrs(inpage.text("/title"))}>Outside</h1>
  <div data-inpage-page="src/content/pages/en/gone.json"><p data-inpage-text="/x"></p></div>
  <div data-inpage-page="../secret.json" data-inpage-image-format="gif"></div>
  <div data-inpage-page="src/content/pages/en/broken.json"></div>
  <div data-inpage-page="src/content/pages/en/broken.json"></div>
  <p data-inpage-fields="/description"></p>
  <div${attrs(inpage.page(HOME))}>
    <p data-inpage-text="title"></p>
    <p data-inpage-text="/nav/0/text&#x1b;[31m"></p>
    <section${attrs(inpage.item("/sections/0"))}></section>
    <div${attrs(inpage.list("/sections"))}>
      <section${attrs(inpage.item("/sections/0"))}></section>
      <p>Not an item</p>
      <div data-inpage-template="/nav" data-inpage-default="{"></div>
      <template data-inpage-template="/nav" data-inpage-default='{"text":"x","link":{"href":"/"}}'></template>
      <template data-inpage-template="/sections" data-inpage-default="{}"><section data-inpage-item="/sections/1"><h2 data-inpage-text="/sections/1/heading"></h2></section></template>
      <template data-inpage-template="/sections"></template>
    </div>
  </div>`;
  await using fixture = await site({ "b.html": html }, {
    [HOME]: PAGE,
    "src/content/pages/en/broken.json": "{",
  });
  assert.deepEqual(await lines(fixture.dist, fixture.root), [
    "b.html: /title: data-inpage-text outside any data-inpage-page element",
    'b.html: [data-inpage-page="src/content/pages/en/gone.json"]: no page file src/content/pages/en/gone.json in the checkout',
    'b.html: [data-inpage-page="../secret.json"]: not a page path: src/content/pages/{en|fr}/{page}.json',
    'b.html: [data-inpage-image-format="gif"]: data-inpage-image-format is webp, jpeg or png',
    'b.html: [data-inpage-page="src/content/pages/en/broken.json"]: src/content/pages/en/broken.json is not JSON',
    'b.html: [data-inpage-page="src/content/pages/en/broken.json"]: a second data-inpage-page element for the same page file: the overlay would publish it twice',
    'b.html: [data-inpage-page="src/content/pages/en/broken.json"]: src/content/pages/en/broken.json is not JSON',
    'b.html: [data-inpage-fields="/description"]: data-inpage-fields on an element without data-inpage-page',
    'b.html: [data-inpage-text="title"]: data-inpage-text is not a JSON Pointer',
    "b.html: /nav/0/text\\u{1b}[31m: data-inpage-text names nothing in src/content/pages/en/home.json",
    "b.html: /sections/0: data-inpage-item on an element whose parent has no data-inpage-list",
    "b.html: /sections: child 1 of the list (a <p>) has no data-inpage-item",
    "b.html: /sections: child 2 of the list (a <div>) has no data-inpage-item",
    "b.html: /sections: the list shows 3 items, the page file holds 2",
    'b.html: [data-inpage-template="/nav"]: data-inpage-template on a <div>; it goes on a <template>',
    'b.html: [data-inpage-template="/nav"]: data-inpage-template is not a child of the element with data-inpage-list="/nav"',
    "b.html: /nav: the template of the list holds 0 items; it holds one, /nav/0",
    "b.html: /sections/1: data-inpage-item: child 0 of the list /sections is numbered /sections/0",
    "b.html: /sections/1: data-inpage-item names nothing in src/content/pages/en/home.json with the template's data-inpage-default as /sections/0",
    "b.html: /sections/1/heading: data-inpage-text names nothing in src/content/pages/en/home.json with the template's data-inpage-default as /sections/0",
    'b.html: [data-inpage-template="/sections"]: data-inpage-default is missing or not JSON',
  ]);
});

Deno.test("check --html: a folder without HTML or a checkout without pages is refused with a message", async () => {
  await using fixture = await site({ "a.txt": "x" });
  const empty = await runCli([
    "check",
    "--repo",
    fixture.root,
    "--html",
    fixture.dist,
  ]);
  assert.equal(empty.code, 1);
  assert.equal(empty.stdout, "");
  assert.equal(empty.stderr, `editor: No .html file under ${fixture.dist}\n`);
  const missing = await runCli([
    "check",
    "--repo",
    fixture.root,
    "--html",
    join(fixture.root, "nowhere"),
  ]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /nowhere is not a folder: pass --html/);
  const noPages = await runCli([
    "check",
    "--repo",
    fixture.dist,
    "--html",
    fixture.dist,
  ]);
  assert.equal(noPages.code, 1);
  assert.match(noPages.stderr, /has no src\/content\/pages folder/);
});

Deno.test("check --html: the example site's rendered pages pass", async () => {
  const { renderSite } = await import("../../examples/site/render.ts");
  const example = new URL("../../examples/site/", import.meta.url).pathname;
  const dist = await Deno.makeTempDir({ prefix: "editor-check-html-site-" });
  try {
    for (const path of ["/en/", "/en/about/", "/fr/", "/fr/about/"]) {
      const response = await renderSite(
        new Request(`http://site.example${path}`),
        example,
      );
      assert.equal(response?.status, 200, path);
      await Deno.mkdir(join(dist, path), { recursive: true });
      await Deno.writeTextFile(
        join(dist, path, "index.html"),
        await response!.text(),
      );
    }
    const report = await checkHtml({ html: dist, repo: example });
    assert.deepEqual(report.problems, []);
    assert.equal(report.files, 4);
    assert.equal(report.containers, 4);
  } finally {
    await Deno.remove(dist, { recursive: true });
  }
});

Deno.test("check --html: any item renumbered by hand is found, at its pointer", async () => {
  await using fixture = await site({ "en/index.html": built() });
  const file = join(fixture.dist, "en/index.html");
  const items = [["nav", 0], ["nav", 1], ["sections", 0], ["sections", 1]];
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...items),
      fc.nat({ max: 40 }),
      async ([list, index], wrong) => {
        fc.pre(wrong !== index);
        await Deno.writeTextFile(
          file,
          built().replace(
            `data-inpage-item="/${list}/${index}"`,
            `data-inpage-item="/${list}/${wrong}"`,
          ),
        );
        const report = await checkHtml({
          html: fixture.dist,
          repo: fixture.root,
        });
        assert.ok(
          report.problems.some((problem) =>
            problem.at === `/${list}/${wrong}` &&
            problem.reason ===
              `data-inpage-item: child ${index} of the list /${list} is numbered /${list}/${index}`
          ),
          JSON.stringify(report.problems),
        );
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("check --html: a FIFO named as a page file is reported, never opened: no hang", async () => {
  await using fixture = await site({ "en/index.html": built() }, {});
  await Deno.mkdir(join(fixture.root, "src/content/pages/en"));
  const made = await new Deno.Command("mkfifo", {
    args: [join(fixture.root, HOME)],
  }).output();
  assert.ok(made.success, "mkfifo");
  const run = await runCli(
    ["check", "--repo", fixture.root, "--html", fixture.dist],
    "",
    {},
    30_000,
  );
  assert.equal(run.code, 1, run.stderr);
  assert.match(
    run.stdout,
    /: \[data-inpage-page="src\/content\/pages\/en\/home\.json"\]: src\/content\/pages\/en\/home\.json is not a regular file \(a FIFO, socket or device\): not read\n/,
  );
});

Deno.test("check --html: a page file that is a symbolic link, or under a locale folder linked out of the checkout, is refused as the server refuses it", async () => {
  await using fixture = await site({
    "en/index.html": built(),
    "de/index.html": built().replace(HOME, "src/content/pages/de/home.json"),
    "fr/index.html": built().replace(HOME, "src/content/pages/fr/home.json"),
  }, {});
  const outside = await Deno.makeTempDir({ prefix: "editor-outside-" });
  try {
    await Deno.writeTextFile(join(outside, "home.json"), JSON.stringify(PAGE));
    await Deno.mkdir(join(fixture.root, "src/content/pages/en"));
    // The page file itself a link (out of the checkout); a locale folder
    // linked out of it; a locale folder linked inside it (followed).
    await Deno.symlink(join(outside, "home.json"), join(fixture.root, HOME));
    await Deno.symlink(outside, join(fixture.root, "src/content/pages/de"));
    await Deno.mkdir(join(fixture.root, "inside"));
    await Deno.writeTextFile(
      join(fixture.root, "inside/home.json"),
      JSON.stringify(PAGE),
    );
    await Deno.remove(join(fixture.root, "src/content/pages/fr"), {
      recursive: true,
    });
    await Deno.symlink(
      join(fixture.root, "inside"),
      join(fixture.root, "src/content/pages/fr"),
    );
    const report = await checkHtml({
      html: fixture.dist,
      repo: fixture.root,
      locales: ["en", "de", "fr"],
    });
    assert.deepEqual(
      report.problems.map(({ file, reason }) => [
        file.slice(fixture.dist.length + 1),
        reason,
      ]),
      [
        [
          "de/index.html",
          "src/content/pages/de/home.json is reached through a symbolic link out of the checkout: the server refuses to read it",
        ],
        [
          "en/index.html",
          "src/content/pages/en/home.json is a symbolic link: the server refuses to read a page file that is one",
        ],
      ],
    );
    // The server's reads of the same files: refused, and the one inside read.
    const checkout = await openLocalCheckout({
      root: fixture.root,
      commit: false,
    });
    for (const path of [HOME, "src/content/pages/de/home.json"]) {
      await assert.rejects(
        checkout.read(path),
        (error: RepositoryError) => error.code === "unauthorized",
      );
    }
    assert.ok(await checkout.read("src/content/pages/fr/home.json"));
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("check --html: 20,000 nested elements are walked without a crash, the region at the bottom checked", async () => {
  const depth = 20_000;
  const html = `<!doctype html><body><main${attrs(inpage.page(HOME))}>${
    "<div>".repeat(depth)
  }<p${attrs(inpage.text("/nothing-here"))}>x</p>${
    "</div>".repeat(depth)
  }</main></body>`;
  await using fixture = await site({ "index.html": html });
  const run = await runCli(
    ["check", "--repo", fixture.root, "--html", fixture.dist],
    "",
    {},
    60_000,
  );
  assert.equal(run.code, 1, run.stderr);
  assert.equal(
    run.stdout,
    `${fixture.dist}/index.html: /nothing-here: data-inpage-text names nothing in ${HOME}\n`,
  );
  assert.equal(run.stderr, "1 problem in 1 of 1 HTML file\n");
});
