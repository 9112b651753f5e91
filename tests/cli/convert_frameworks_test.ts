/**
 * `editor convert` on the shapes of Eleventy and Hugo sites: the seven
 * pages of the official eleventy-base-blog (YAML and `---js` front matter,
 * links to source files, an image beside a post in raw HTML, a link to a
 * template), and Hugo's TOML (`+++`), YAML and JSON front matter, a page
 * bundle with its image, a shortcode. Each page is converted or refused
 * with one line naming its file; nothing is mangled; a refusal exits 1.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../support/cli.ts";
import { tree } from "../support/files.ts";
import { checkPages } from "../../cli/check.ts";
import { readJsFrontMatter } from "../../cli/js_front_matter.ts";

const BLOG =
  new URL("../fixtures/markdown/eleventy-base-blog/", import.meta.url)
    .pathname;
const POSSUM = new URL(
  "../../examples/eleventy/public/images/possum-660908463e3c.png",
  import.meta.url,
).pathname;
const PAGES = "src/content/pages/en";

/** A checkout holding the base blog's content folder, as the starter has it. */
async function baseBlog(): Promise<AsyncDisposable & { root: string }> {
  const root = await Deno.makeTempDir({ prefix: "editor-convert-11ty-" });
  const files: Record<string, string> = {
    "content/404.md": "404.md",
    "content/about.md": "about.md",
    "content/blog/firstpost.md": "firstpost.md",
    "content/blog/secondpost.md": "secondpost.md",
    "content/blog/thirdpost.md": "thirdpost.md",
    "content/blog/fourthpost/fourthpost.md": "fourthpost.md",
    "content/blog/fifthpost.md": "fifthpost.md",
  };
  for (const [to, from] of Object.entries(files)) {
    await Deno.mkdir(join(root, to, ".."), { recursive: true });
    await Deno.copyFile(join(BLOG, from), join(root, to));
  }
  await Deno.copyFile(POSSUM, join(root, "content/blog/fourthpost/possum.png"));
  await Deno.writeTextFile(join(root, "content/index.njk"), "<h1>Home</h1>\n");
  return {
    root,
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

const page = async (root: string, name: string) =>
  JSON.parse(await Deno.readTextFile(join(root, PAGES, `${name}.json`)));

Deno.test("the base blog's seven pages: six converted, links to posts rewritten, the possum copied; 404.md refused in one line naming index.njk; exit 1", async () => {
  await using site = await baseBlog();
  const sources = await tree(site.root, "content");
  const dry = await runCli([
    "convert",
    "--repo",
    site.root,
    "content",
    "--dry-run",
  ]);
  assert.equal(dry.code, 1);
  assert.deepEqual(await tree(site.root, "content"), sources);
  await assert.rejects(Deno.stat(join(site.root, "src")));

  const run = await runCli(["convert", "--repo", site.root, "content"]);
  assert.equal(run.code, 1, run.stderr);
  const possum =
    "A possum parent and two possum kids hanging from the iconic red balloon";
  assert.deepEqual(run.stdout.split("\n"), [
    `write ${PAGES}/about.json (from content/about.md)`,
    `write ${PAGES}/blog/fifthpost.json (from content/blog/fifthpost.md)`,
    `write ${PAGES}/blog/firstpost.json (from content/blog/firstpost.md)`,
    `write ${PAGES}/blog/fourthpost.json (from content/blog/fourthpost/fourthpost.md)`,
    `rewrite "<img src=\\"./possum.png\\" alt=\\"${possum}\\">" as "![${possum}](/images/possum.png)" in ${PAGES}/blog/fourthpost.json`,
    `write ${PAGES}/blog/secondpost.json (from content/blog/secondpost.md)`,
    `rewrite "/blog/firstpost.md" as "/en/blog/firstpost/" in ${PAGES}/blog/secondpost.json`,
    `rewrite "blog/thirdpost.md" as "/en/blog/thirdpost/" in ${PAGES}/blog/secondpost.json`,
    `write ${PAGES}/blog/thirdpost.json (from content/blog/thirdpost.md)`,
    "copy content/blog/fourthpost/possum.png to public/images/possum.png",
    'not converted: content/404.md: /body: links to "index.njk", a source file not converted here: write the URL of its page, then run again',
    "",
  ]);
  assert.equal(
    run.stderr,
    "6 pages of 7 converted, 1 image copied, 1 problem\n",
  );
  // The dry run said the same, with "would".
  assert.equal(
    dry.stdout,
    run.stdout.replace(/^(write|rewrite|copy) /gm, "would $1 "),
  );
  // The sources are never changed; the refused page is not written.
  assert.deepEqual(await tree(site.root, "content"), sources);
  await assert.rejects(Deno.stat(join(site.root, PAGES, "404.json")));

  // ---js front matter read as values, never run.
  assert.deepEqual(await page(site.root, "about"), {
    eleventyNavigation: { key: "About", order: 3 },
    body: "# About\n\nI am a person that writes stuff.",
  });
  assert.deepEqual(await page(site.root, "blog/fifthpost"), {
    title: "This is a fifth post",
    date: "2023-01-23",
    draft: true,
    body: "This is a draft post",
  });
  // YAML front matter kept; the body byte for byte but what was rewritten.
  const third = await page(site.root, "blog/thirdpost");
  assert.deepEqual(third.tags, ["second tag", "posts with two tags"]);
  const source = await Deno.readTextFile(join(BLOG, "thirdpost.md"));
  assert.equal(
    third.body,
    source.slice(source.indexOf("---\n", 4) + 4).trimEnd(),
  );
  const second = (await page(site.root, "blog/secondpost")).body;
  assert.match(
    second,
    /<a href="\/en\/blog\/firstpost\/">First post<\/a>\n<a href="\/en\/blog\/thirdpost\/">Third post<\/a>/,
  );
  const fourth = (await page(site.root, "blog/fourthpost")).body;
  assert.ok(fourth.includes(`![${possum}](/images/possum.png)`), fourth);
  assert.deepEqual(
    await Deno.readFile(join(site.root, "public/images/possum.png")),
    await Deno.readFile(POSSUM),
  );
  // What was written passes the publish rules.
  assert.deepEqual((await checkPages({ repo: site.root })).failures, []);

  // With the link to the home's URL, its HTML comment is named in turn.
  const notFound = join(site.root, "content/404.md");
  const text = await Deno.readTextFile(notFound);
  await Deno.writeTextFile(
    notFound,
    text.replace('href="index.njk"', 'href="/"'),
  );
  const comment = await runCli(["convert", "--repo", site.root, "content"]);
  assert.equal(comment.code, 1);
  assert.match(
    comment.stdout,
    /^not converted: content\/404\.md: \/body: markup \(.*\): an HTML comment \(<!-- … -->\) in the text, which the page rules refuse; remove it, then run again$/m,
  );
  // Without it, the seventh page converts too.
  await Deno.writeTextFile(
    notFound,
    text.replace('href="index.njk"', 'href="/"').replace(
      /\n<!--[\s\S]*-->\n/,
      "\n",
    ),
  );
  const again = await runCli(["convert", "--repo", site.root, "content"]);
  assert.equal(again.code, 0, again.stdout);
  // The possum is in public/images already, with the same bytes.
  assert.equal(again.stderr, "7 pages of 7 converted, 0 images copied\n");
  assert.deepEqual(await page(site.root, "404"), {
    permalink: "404.html",
    eleventyExcludeFromCollections: true,
    body: (await Deno.readTextFile(notFound)).split("---\n")[2]!.trimEnd(),
  });
});

Deno.test("Hugo's shapes: TOML, YAML and JSON front matter, a page bundle's image; a shortcode and code in ---js refused, each in one line", async () => {
  const root = await Deno.makeTempDir({ prefix: "editor-convert-hugo-" });
  try {
    const files: Record<string, string | Uint8Array> = {
      "content/_index.md":
        '+++\ntitle = "Home"\ndate = 2024-01-02\n[params]\nhero = "A hero"\n+++\n\nWelcome **home**.\n',
      "content/posts/first.md":
        "---\ntitle: First\ntags: [a, b]\n---\nSee [the second](/posts/second.md).\n",
      "content/posts/second.md":
        '{\n  "title": "Second",\n  "draft": false\n}\nThe body.\n',
      "content/about/index.md":
        '+++\ntitle = "About"\n+++\n![A harbour](harbour.png)\n',
      "content/about/harbour.png": await Deno.readFile(
        new URL(
          "../../examples/astro/public/images/harbour-2c9e41d07b3a.png",
          import.meta.url,
        ),
      ),
      "content/posts/shortcode.md":
        '+++\ntitle = "Figure"\n+++\n{{< figure src="x.png" >}}\n',
      "content/posts/code.md": "---js\nconst when = new Date();\n---\nBody\n",
      "content/posts/open.md": '+++\ntitle = "No end"\n',
      "content/posts/coffee.md": "---coffee\ntitle: 'x'\n---\n",
    };
    for (const [path, content] of Object.entries(files)) {
      await Deno.mkdir(join(root, path, ".."), { recursive: true });
      if (typeof content === "string") {
        await Deno.writeTextFile(join(root, path), content);
      } else await Deno.writeFile(join(root, path), content);
    }
    const run = await runCli(["convert", "--repo", root, "content"]);
    assert.equal(run.code, 1);
    const lines = run.stdout.trimEnd().split("\n");
    assert.deepEqual(
      lines.filter((line) => !line.startsWith("not converted")),
      [
        `write ${PAGES}/home.json (from content/_index.md)`,
        `write ${PAGES}/about.json (from content/about/index.md)`,
        `rewrite "harbour.png" as "/images/harbour.png" in ${PAGES}/about.json`,
        `write ${PAGES}/posts/first.json (from content/posts/first.md)`,
        `rewrite "/posts/second.md" as "/en/posts/second/" in ${PAGES}/posts/first.json`,
        `write ${PAGES}/posts/second.json (from content/posts/second.md)`,
        "copy content/about/harbour.png to public/images/harbour.png",
      ],
    );
    const refused = lines.filter((line) => line.startsWith("not converted"));
    assert.equal(refused.length, 4, refused.join("\n"));
    assert.match(
      refused[0]!,
      /^not converted: content\/posts\/code\.md: \(page\): its ---js front matter is code, which only Eleventy can run \(line 1: code \(new\)/,
    );
    assert.match(
      refused[1]!,
      /^not converted: content\/posts\/coffee\.md: \(page\): its front matter is ---coffee, which editor convert does not read/,
    );
    assert.match(
      refused[2]!,
      /^not converted: content\/posts\/open\.md: \(page\): its front matter \(\+\+\+\) has no closing \+\+\+ line$/,
    );
    assert.match(
      refused[3]!,
      /^not converted: content\/posts\/shortcode\.md: \/body: template syntax \(\{\{\) in the body: the generator ran it as a template \(a shortcode, an include, a variable\); a page file holds content only: write what it gave, then run again$/,
    );
    const home = JSON.parse(
      await Deno.readTextFile(join(root, PAGES, "home.json")),
    );
    assert.deepEqual(home, {
      title: "Home",
      date: "2024-01-02",
      params: { hero: "A hero" },
      body: "Welcome **home**.",
    });
    const second = JSON.parse(
      await Deno.readTextFile(join(root, PAGES, "posts/second.json")),
    );
    assert.deepEqual(second, {
      title: "Second",
      draft: false,
      body: "The body.",
    });
    await assert.rejects(Deno.stat(join(root, PAGES, "posts/shortcode.json")));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("---js front matter: literal values read, comments skipped; code refused with its line", () => {
  assert.deepEqual(
    readJsFrontMatter(`// <script>
const pagination = {
  data: "collections", // what to page over
  size: 1,
  'alias': 'tag',
  filter: ["all", "posts",],
  ratio: -1.5e2,
  /* off */ none: null,
};
let title = \`Tagged\`
var escaped = "a\\tb\\u00e9\\x41";`),
    {
      pagination: {
        data: "collections",
        size: 1,
        alias: "tag",
        filter: ["all", "posts"],
        ratio: -150,
        none: null,
      },
      title: "Tagged",
      escaped: "a\tbéA",
    },
  );
  for (
    const [code, said] of [
      [
        "const a = { permalink: function(data) { return 1; } };",
        /line 1: code \(function\)/,
      ],
      ["const a = `Tagged ${tag}`;", /template literal with \$\{…\}/],
      ["const a = b;", /code \(b\)/],
      ["const a = { b };", /shorthand or method/],
      ["export default {};", /code \(export\)/],
      ["const a = 1 const b = 2;", /";" expected/],
      ['const a = "open', /without its closing quote/],
    ] as const
  ) {
    assert.throws(() => readJsFrontMatter(code), said, code);
  }
});
