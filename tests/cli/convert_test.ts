import assert from "node:assert/strict";
import { join } from "node:path";
import { assertHelpMentions, runCli } from "../support/cli.ts";
import { tree } from "../support/files.ts";
import { checkPages } from "../../cli/check.ts";
import { convertSite, pageName, splitFrontMatter } from "../../cli/convert.ts";
import { copyTree } from "../../cli/demo_site.ts";

const FIXTURE = new URL("../fixtures/adopt/", import.meta.url).pathname;
const PAGES = "src/content/pages";

/** A temporary folder, removed when disposed. */
async function folder(): Promise<AsyncDisposable & { root: string }> {
  const root = await Deno.makeTempDir({ prefix: "editor-convert-" });
  return {
    root,
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

async function write(root: string, files: Record<string, string | Uint8Array>) {
  for (const [path, content] of Object.entries(files)) {
    await Deno.mkdir(join(root, path, ".."), { recursive: true });
    if (typeof content === "string") {
      await Deno.writeTextFile(join(root, path), content);
    } else await Deno.writeFile(join(root, path), content);
  }
}

const PNG = await Deno.readFile(
  join(FIXTURE, "public/images/call-to-action.png"),
);

Deno.test("the fixture converts: media objects with the files' sizes, accepted names, the body as markdown, the <h3> named; once fixed, editor check passes", async () => {
  await using site = await folder();
  await copyTree(FIXTURE, site.root, new Set());
  const sources = await tree(site.root, PAGES);

  const first = await runCli(["convert", "--repo", site.root]);
  assert.equal(first.code, 1, first.stderr);
  const lines = first.stdout.split("\n");
  assert.deepEqual(lines.slice(0, 4), [
    "write src/content/pages/en/about.json (from src/content/pages/about.md; media objects at /image, /team/0/avatar)",
    "write src/content/pages/en/home.json (from src/content/pages/home.md; media objects at /banner/image, /features/0/image)",
    "copy public/images/team/Alice_Smith.JPG to public/images/team-alice-smith.jpg",
    "copy public/images/Banner.PNG to public/images/banner.png",
  ]);
  // The rules' own sentence in the brackets, then what to do.
  assert.match(
    lines[4]!,
    /^not converted: src\/content\/pages\/contact\.md: \/body: markup \(.+\): raw HTML <h3> in the text, which the page rules refuse; write it in markdown \(### Title, not <h3>Title<\/h3>\), then run again$/,
  );
  assert.deepEqual(lines.slice(5), [""]);
  assert.equal(
    first.stderr,
    "2 pages of 3 converted, 2 images copied, 1 problem\n",
  );
  // The sources are never changed; the page with a problem is not written.
  for (const [path, bytes] of sources) {
    assert.equal((await tree(site.root, PAGES)).get(path), bytes, path);
  }
  await assert.rejects(Deno.stat(join(site.root, PAGES, "en/contact.json")));

  const home = JSON.parse(
    await Deno.readTextFile(join(site.root, PAGES, "en/home.json")),
  );
  assert.deepEqual(home.banner.image, {
    src: "banner.png",
    width: 1200,
    height: 630,
    alt: "",
  });
  assert.deepEqual(home.features[0].image, {
    src: "call-to-action.png",
    width: 32,
    height: 32,
    alt: "",
  });
  // Everything else as it was, in its order: unknown keys, lists, booleans.
  assert.deepEqual(Object.keys(home), [
    "title",
    "meta_title",
    "description",
    "draft",
    "banner",
    "features",
    "body",
  ]);
  assert.equal(home.draft, false);
  assert.deepEqual(home.banner.buttons, [
    { label: "Get started", link: "/contact/" },
    { label: "About us", link: "/about/" },
  ]);
  assert.deepEqual(home.features[0].button, {
    enable: true,
    label: "Read more",
    link: "/about/",
  });
  assert.equal(
    home.body,
    "## Why plain files\n\nEvery page is a file in git, so **every change** has a history.",
  );
  const about = JSON.parse(
    await Deno.readTextFile(join(site.root, PAGES, "en/about.json")),
  );
  // An object with a path src keeps its alt and gets its sides.
  assert.deepEqual(about.team[0].avatar, {
    src: "team-alice-smith.jpg",
    width: 123,
    height: 456,
    alt: "Alice at her desk",
  });
  // The copies hold the same bytes; the originals stay.
  assert.deepEqual(
    await Deno.readFile(join(site.root, "public/images/banner.png")),
    await Deno.readFile(join(site.root, "public/images/Banner.PNG")),
  );

  // The body in markdown: the second run converts everything.
  const contact = join(site.root, PAGES, "contact.md");
  await Deno.writeTextFile(
    contact,
    (await Deno.readTextFile(contact)).replace(
      "<h3>Office hours</h3>",
      "### Office hours",
    ),
  );
  const second = await runCli(["convert", "--repo", site.root]);
  assert.equal(second.code, 0, second.stdout);
  assert.equal(
    second.stderr,
    "3 pages of 3 converted, 0 images copied\n",
  );
  const report = await checkPages({ repo: site.root });
  assert.equal(report.files, 3);
  assert.deepEqual(report.failures, []);
});

Deno.test("--dry-run prints what it would do and writes nothing", async () => {
  await using site = await folder();
  await copyTree(FIXTURE, site.root, new Set());
  const before = await tree(site.root);
  const run = await runCli(["convert", "--repo", site.root, "--dry-run"]);
  assert.equal(run.code, 1);
  assert.match(
    run.stdout,
    /^would write src\/content\/pages\/en\/home\.json \(from src\/content\/pages\/home\.md; media objects at \/banner\/image, \/features\/0\/image\)$/m,
  );
  assert.match(
    run.stdout,
    /^would copy public\/images\/Banner\.PNG to public\/images\/banner\.png$/m,
  );
  assert.match(
    run.stdout,
    /^not converted: src\/content\/pages\/contact\.md: /m,
  );
  assert.equal(
    run.stderr,
    "2 pages of 3 would be converted, 2 images to copy, 1 problem (dry run: nothing written)\n",
  );
  assert.deepEqual(await tree(site.root), before);
});

Deno.test("what cannot be converted is reported, exit 1, and its page is not written", async () => {
  await using site = await folder();
  // The checkout is a folder inside the temporary one, which holds a file
  // that a path out of the checkout names.
  const repo = join(site.root, "repo");
  await write(site.root, { "outside.png": PNG });
  await write(repo, {
    [`${PAGES}/gif.md`]: "---\nlogo: /images/logo.gif\n---\n",
    [`${PAGES}/missing.md`]: "---\nimage: /images/ghost.png\n---\n",
    [`${PAGES}/outside.md`]: "---\nimage: ../../../../outside.png\n---\n",
    [`${PAGES}/yaml.md`]: "---\ntitle: [unclosed\n---\n",
    [`${PAGES}/list.md`]: "---\n- a\n- b\n---\n",
    [`${PAGES}/hostile.md`]: "---\nlink:\n  onclick: alert(1)\n---\n",
    [`${PAGES}/body.md`]: "---\nbody: kept\n---\nThe markdown body\n",
    [`${PAGES}/Über Uns.md`]: "---\ntitle: Über uns\n---\n",
    "public/images/logo.gif": new TextEncoder().encode(
      "GIF89a\x01\x00\x01\x00",
    ),
  });
  const report = await convertSite({ repo });
  assert.deepEqual(report.pages.map((page) => page.file), [
    `${PAGES}/en/uber-uns.json`,
  ]);
  const problems = report.problems.map((p) =>
    `${p.source}: ${p.pointer}: ${p.detail}`
  );
  assert.equal(problems.length, 7, problems.join("\n"));
  assert.match(
    problems[0]!,
    /^src\/content\/pages\/body\.md: \/body: the front matter has a key body/,
  );
  assert.match(
    problems[1]!,
    /^src\/content\/pages\/gif\.md: \/logo: "\/images\/logo\.gif" is not a JPEG, PNG or WebP image/,
  );
  assert.match(
    problems[2]!,
    /^src\/content\/pages\/hostile\.md: \/link\/onclick: key \(/,
  );
  assert.match(
    problems[3]!,
    /^src\/content\/pages\/list\.md: : the front matter is not a mapping/,
  );
  assert.match(
    problems[4]!,
    /^src\/content\/pages\/missing\.md: \/image: no image file for "\/images\/ghost\.png"/,
  );
  // A path out of the checkout is not read, though the file is there.
  assert.match(
    problems[5]!,
    /^src\/content\/pages\/outside\.md: \/image: no image file for "\.\.\/\.\.\/\.\.\/\.\.\/outside\.png"/,
  );
  assert.match(
    problems[6]!,
    /^src\/content\/pages\/yaml\.md: : the front matter is not YAML: /,
  );
  assert.deepEqual(report.copies, []);
});

Deno.test("names: index files stand for their folder, --lang puts the pages under it, two files never share a name, a page file that differs is not overwritten", async () => {
  await using site = await folder();
  // Another image, the same name once slugged.
  const other = await Deno.readFile(join(FIXTURE, "public/images/Banner.PNG"));
  await write(site.root, {
    "src/content/about/-index.md": "---\nimage: /images/Team.png\n---\n",
    "src/content/blog/First Post.md": "---\nimage: /images/team.PNG\n---\n",
    "src/content/blog/-index.md": "---\ntitle: Blog\n---\n",
    [`${PAGES}/fr/blog.json`]: '{"title":"Autre"}\n',
    "public/images/Team.png": PNG,
    "public/images/team.PNG": other,
  });
  const report = await convertSite({
    repo: site.root,
    sources: ["src/content/about", "src/content/blog/"],
    lang: "fr",
  });
  assert.deepEqual(report.pages.map((page) => [page.source, page.file]), [
    ["src/content/about/-index.md", `${PAGES}/fr/about.json`],
    ["src/content/blog/First Post.md", `${PAGES}/fr/first-post.json`],
  ]);
  assert.deepEqual(report.problems, [{
    source: "src/content/blog/-index.md",
    pointer: "",
    detail: `${PAGES}/fr/blog.json exists and differs; not overwritten`,
  }]);
  const [about, post] = await Promise.all(
    ["about", "first-post"].map(async (name) =>
      JSON.parse(
        await Deno.readTextFile(join(site.root, PAGES, `fr/${name}.json`)),
      )
    ),
  );
  assert.equal(about.image.src, "team.png");
  assert.equal(post.image.src, "team-2.png");
  assert.deepEqual(report.copies, [
    { from: "public/images/Team.png", to: "public/images/team.png" },
    { from: "public/images/team.PNG", to: "public/images/team-2.png" },
  ]);
});

Deno.test("front matter and page names", () => {
  assert.deepEqual(splitFrontMatter("\uFEFF---\r\na: 1\r\n---\r\nBody\r\n"), {
    yaml: "a: 1\n",
    body: "Body",
  });
  assert.deepEqual(splitFrontMatter("# Only a body\n"), {
    yaml: "",
    body: "# Only a body",
  });
  assert.deepEqual(splitFrontMatter("---\na: 1\n...\n"), {
    yaml: "a: 1\n",
    body: "",
  });
  assert.equal(pageName("Café Crème.md", "pages"), "cafe-creme");
  assert.equal(pageName("_index.md", "contact"), "contact");
  assert.equal(
    pageName("docs/Getting_Started.mdx", "pages"),
    "docs/getting-started",
  );
});

Deno.test("editor convert --help names the options and the sentence on raw HTML; a bad language is one line and exit 1", async () => {
  await assertHelpMentions("convert", [
    "--repo <dir>",
    "--lang <code>",
    "--dry-run",
    "[sources...]",
    "media object {src, width, height, alt}",
    "raw HTML in a body does not: write markdown",
    "deno task editor convert --repo ../my-site --dry-run",
  ]);
  await using site = await folder();
  await Deno.mkdir(join(site.root, PAGES), { recursive: true });
  const bad = await runCli(["convert", "--repo", site.root, "--lang", "EN!"]);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /^editor: .+\n$/);
  const none = await runCli(["convert", "--repo", site.root]);
  assert.equal(none.code, 1);
  assert.match(none.stderr, /no \.md or \.mdx file found/);
});
