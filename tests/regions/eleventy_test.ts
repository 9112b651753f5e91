/**
 * The regions helper for Eleventy, in a real Eleventy 3 build: the same
 * regions written from Nunjucks and from Liquid give the same attributes,
 * escaped, and pass `editor check --html` against the page file; a wrong
 * kind or pointer fails the build with a sentence.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import Eleventy from "@11ty/eleventy";
import { eleventyRegions, inpageAttributes } from "../../regions/eleventy.ts";
import { checkHtml } from "../../cli/check_html.ts";

const PAGE = "src/content/pages/en/home.json";
const DATA = {
  title: 'Tom & "Jerry" <3',
  body: "Some **markdown**.",
  nav: [
    { text: "Home", link: { href: "/en/" } },
    { text: "About", link: { href: "/en/about/" } },
  ],
  hero: { src: "hero-0123456789ab.png", width: 2, height: 1, alt: "" },
  description: "A page",
};

const NUNJUCKS =
  `<main {% inpage "page", path %} {% inpage "fields", "/description" %}>
<h1 {% inpage "text", "/title" %}>{{ page.title }}</h1>
<div {% inpage "markdown", "/body" %}></div>
<img {% inpage "image", "hero" %} src="/images/{{ page.hero.src }}">
<ul {% inpage "list", "/nav" %}>
{%- for link in page.nav %}
<li {% inpage "item", "nav", loop.index0 %}><a href="{{ link.link.href }}" {% inpage "link", "nav", loop.index0, "link" %} {% inpage "text", ["nav", loop.index0, "text"] %}>{{ link.text }}</a></li>
{%- endfor %}
<template {% inpage "template", "/nav", { text: "A link", link: { href: "/en/" } } %}><li {% inpage "item", "/nav/0" %}><a href="/en/" {% inpage "link", "/nav/0/link" %} {% inpage "text", "/nav/0/text" %}>A link</a></li></template>
</ul>
</main>
`;

const LIQUID =
  `<main {% inpage "page", path %} {% inpage "fields", "/description" %}>
<h1 {% inpage "text", "/title" %}>{{ page.title }}</h1>
<div {% inpage "markdown", "/body" %}></div>
<img {% inpage "image", "hero" %} src="/images/{{ page.hero.src }}">
<ul {% inpage "list", "/nav" %}>
{%- for link in page.nav %}
<li {% inpage "item", "nav", forloop.index0 %}><a href="{{ link.link.href }}" {% inpage "link", "nav", forloop.index0, "link" %} {% inpage "text", "nav", forloop.index0, "text" %}>{{ link.text }}</a></li>
{%- endfor %}
<template {% inpage "template", "/nav", '{"text":"A link","link":{"href":"/en/"}}' %}><li {% inpage "item", "/nav/0" %}><a href="/en/" {% inpage "link", "/nav/0/link" %} {% inpage "text", "/nav/0/text" %}>A link</a></li></template>
</ul>
</main>
`;

/** Builds templates with Eleventy into a temporary site with the page file. */
async function build(templates: Record<string, string>) {
  const root = await Deno.makeTempDir({ prefix: "editor-eleventy-" });
  await Deno.mkdir(join(root, "src/content/pages/en"), { recursive: true });
  await Deno.mkdir(join(root, "src/content/pages/fr"), { recursive: true });
  await Deno.writeTextFile(join(root, PAGE), JSON.stringify(DATA));
  await Deno.mkdir(join(root, "site"));
  for (const [name, text] of Object.entries(templates)) {
    await Deno.writeTextFile(join(root, "site", name), text);
  }
  await Deno.writeTextFile(
    join(root, "site", "site.json"),
    JSON.stringify({ page: DATA, path: PAGE }),
  );
  const eleventy = new Eleventy(join(root, "site"), join(root, "_site"), {
    quietMode: true,
    configPath: false,
    config: (config: { addPlugin: (plugin: unknown) => void }) =>
      config.addPlugin(eleventyRegions),
  });
  return {
    root,
    run: () => eleventy.write(),
    read: (name: string) =>
      Deno.readTextFile(join(root, "_site", name, "index.html")),
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

Deno.test("eleventy helper: Nunjucks and Liquid write the same escaped attributes, and editor check --html passes them", async () => {
  await using site = await build({
    "njk.njk": NUNJUCKS,
    "liquid.liquid": LIQUID,
  });
  await site.run();
  const nunjucks = await site.read("njk");
  const liquid = await site.read("liquid");
  const attributes = (html: string) =>
    [...html.matchAll(/data-inpage-[a-z-]+="[^"]*"/g)].map((m) => m[0]);
  assert.deepEqual(attributes(nunjucks), attributes(liquid));
  assert.deepEqual(attributes(nunjucks), [
    `data-inpage-page="${PAGE}"`,
    'data-inpage-fields="/description"',
    'data-inpage-text="/title"',
    'data-inpage-markdown="/body"',
    'data-inpage-image="/hero"',
    'data-inpage-list="/nav"',
    'data-inpage-item="/nav/0"',
    'data-inpage-link="/nav/0/link"',
    'data-inpage-text="/nav/0/text"',
    'data-inpage-item="/nav/1"',
    'data-inpage-link="/nav/1/link"',
    'data-inpage-text="/nav/1/text"',
    'data-inpage-template="/nav"',
    'data-inpage-default="{&quot;text&quot;:&quot;A link&quot;,&quot;link&quot;:{&quot;href&quot;:&quot;/en/&quot;}}"',
    'data-inpage-item="/nav/0"',
    'data-inpage-link="/nav/0/link"',
    'data-inpage-text="/nav/0/text"',
  ]);
  const report = await checkHtml({
    html: join(site.root, "_site"),
    repo: site.root,
  });
  assert.deepEqual(report.problems, []);
  assert.equal(report.files, 2);
  assert.equal(report.regions, 30);
});

Deno.test("eleventy helper: a wrong kind, pointer or page path fails the build, saying why", async () => {
  for (
    const [template, message] of [
      [
        '<h1 {% inpage "txt", "/title" %}></h1>',
        /kind of a region is one of text, html, markdown/,
      ],
      ['<h1 {% inpage "text", "/a~2" %}></h1>', /~/],
      ['<li {% inpage "item", "/nav/first" %}></li>', /ends in an array index/],
      [
        '<main {% inpage "page", "../secret.json" %}></main>',
        /relative \.json path/,
      ],
      [
        '<template {% inpage "template", "/nav", "not json" %}></template>',
        /is not JSON/,
      ],
    ] as const
  ) {
    await using site = await build({ "bad.njk": template });
    await assert.rejects(site.run(), (error: Error) => {
      // Eleventy wraps what the template threw (`originalError`).
      const said: string[] = [];
      for (
        let e: unknown = error;
        e instanceof Error;
        e = (e as { originalError?: unknown }).originalError ?? e.cause
      ) said.push(e.message);
      assert.match(said.join("\n"), message, template);
      return true;
    });
  }
});

Deno.test("eleventy helper: attribute values are escaped, tokens escaped per RFC 6901", () => {
  assert.equal(
    inpageAttributes("text", "a/b", 'q"<&>'),
    'data-inpage-text="/a~1b/q&quot;&lt;&amp;&gt;"',
  );
  assert.equal(inpageAttributes("text", ""), 'data-inpage-text=""');
  assert.equal(
    inpageAttributes("list", ["sections"]),
    'data-inpage-list="/sections"',
  );
  assert.throws(() => inpageAttributes("text"), TypeError);
  assert.throws(() => inpageAttributes("text", { a: 1 }), TypeError);
});
