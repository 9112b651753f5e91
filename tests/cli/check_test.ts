import assert from "node:assert/strict";
import { join } from "node:path";
import { assertHelpMentions, type CliRun, runCli } from "../support/cli.ts";

const IMAGE = "hills-at-dawn-98c9ac741e4e.png";

/** A checkout with one valid page and the files given, removed when disposed. */
async function checkout(
  files: Record<string, string>,
): Promise<AsyncDisposable & { root: string }> {
  const root = await Deno.makeTempDir({ prefix: "editor-check-" });
  const all: Record<string, string> = {
    "src/content/pages/en/home.json": JSON.stringify({
      title: "Home",
      image: { src: IMAGE, width: 960, height: 540, alt: "Hills" },
      sections: [{
        id: "intro",
        body: '<p>Hello <a href="/en/about/" title="About">about</a></p>',
      }],
    }),
    "src/content/pages/fr/.gitkeep": "",
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    await Deno.mkdir(join(root, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  }
  await Deno.mkdir(join(root, "public/images"), { recursive: true });
  await Deno.copyFile(
    new URL(`../../examples/site/public/images/${IMAGE}`, import.meta.url),
    join(root, "public/images", IMAGE),
  );
  return {
    root,
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

const INVALID = {
  "src/content/pages/en/duplicate.json": JSON.stringify({
    sections: [{ id: "intro" }, { id: "intro" }],
  }),
  "src/content/pages/en/hostile.json": JSON.stringify({
    sections: [{ id: "a", body: "<p>Hi</p><img src=x onerror=alert(1)>" }],
  }),
  "src/content/pages/fr/missing.json": JSON.stringify({
    image: { src: "ghost-0123456789ab.webp", width: 10, height: 10 },
  }),
};

/** What `editor check` prints for the {@linkcode INVALID} pages. */
const INVALID_FAILURES = [
  'src/content/pages/en/duplicate.json: /sections/1/id: duplicate_id (id "intro" is used twice (first at /sections/0/id))',
  "src/content/pages/en/hostile.json: /sections/0/body: markup (Tag <img> is outside the allowlist (allowed: a b strong i em u s small sub sup br p ul ol li))",
  "src/content/pages/fr/missing.json: /image/src: missing_image (no file public/images/ghost-0123456789ab.webp)",
];

/** Asserts a run that failed: exit 1, one line per failure, the summary. */
function assertFailed(run: CliRun, failures: string[], summary: string) {
  assert.equal(run.code, 1);
  assert.equal(run.stdout, [...failures, ""].join("\n"));
  assert.equal(run.stderr, summary);
}

Deno.test("editor check prints file, pointer and reason for a duplicate id, hostile markup and a missing image, and exits 1", async () => {
  await using site = await checkout(INVALID);
  const run = await runCli(["check", "--repo", site.root]);
  assertFailed(
    run,
    INVALID_FAILURES,
    "3 of 4 page files fail the page rules\n",
  );
});

Deno.test("editor check reports a missing image even when another rule fails in the same file, every problem in document order", async () => {
  await using site = await checkout({
    "src/content/pages/en/both.json": JSON.stringify({
      hero: { src: "ghost-0123456789ab.webp", width: 10, height: 10 },
      sections: [
        { id: "a", body: "<p>Hi</p><img src=x onerror=alert(1)>" },
        { id: "b", image: { src: "other-ghost.png" } },
        { id: "c", image: { src: "Bad Name.PNG" } },
        { id: "d", image: { src: IMAGE } },
      ],
    }),
  });
  const run = await runCli(["check", "--repo", site.root]);
  const file = "src/content/pages/en/both.json";
  assertFailed(run, [
    `${file}: /hero/src: missing_image (no file public/images/ghost-0123456789ab.webp)`,
    `${file}: /sections/0/body: markup (Tag <img> is outside the allowlist (allowed: a b strong i em u s small sub sup br p ul ol li))`,
    `${file}: /sections/1/image/src: missing_image (no file public/images/other-ghost.png)`,
    `${file}: /sections/2/image/src: media (image name not allowed: "Bad Name.PNG" has upper-case letters: image names are lower case)`,
  ], "1 of 2 page files fails the page rules (4 problems)\n");
});

Deno.test("editor check passes a checkout whose pages all pass, with a one-line summary and exit 0", async () => {
  await using site = await checkout({});
  const run = await runCli(["check", "--repo", site.root]);
  assert.deepEqual(run, {
    code: 0,
    stdout: "1 page file checked (locales en, fr): all pass the page rules\n",
    stderr: "",
  });
});

Deno.test("editor check reports a page path outside the declared locales and a file that is a symbolic link", async () => {
  await using site = await checkout({
    "src/content/pages/de/start.json": "{}",
    "src/content/pages/en/Bad_Name.json": "{}",
  });
  await Deno.symlink(
    join(site.root, "src/content/pages/en/home.json"),
    join(site.root, "src/content/pages/en/linked.json"),
  );
  const run = await runCli([
    "check",
    "--repo",
    site.root,
    "--locales",
    "en,fr",
  ]);
  assertFailed(run, [
    "src/content/pages/de/start.json: (page): path (not a page path: src/content/pages/{en|fr}/{page}.json, lower-case words joined by hyphens)",
    "src/content/pages/en/Bad_Name.json: (page): path (not a page path: src/content/pages/{en|fr}/{page}.json, lower-case words joined by hyphens)",
    "src/content/pages/en/linked.json: (page): symlink (a page file must not be a symbolic link)",
  ], "3 of 4 page files fail the page rules\n");
});

Deno.test("editor check passes the example site's pages", async () => {
  const run = await runCli([
    "check",
    "--repo",
    new URL("../../examples/site", import.meta.url).pathname,
  ]);
  assert.equal(run.stderr, "");
  assert.equal(
    run.stdout,
    "4 page files checked (locales en, fr): all pass the page rules\n",
  );
  assert.equal(run.code, 0);
});

Deno.test("editor check refuses a folder without src/content/pages with one line and exit 1", async () => {
  const empty = await Deno.makeTempDir();
  try {
    const run = await runCli(["check", "--repo", empty]);
    assert.equal(run.code, 1);
    assert.equal(
      run.stderr,
      `editor: ${empty} has no src/content/pages folder: pass --repo with the site's checkout\n`,
    );
    assert.equal(run.stdout, "");
  } finally {
    await Deno.remove(empty);
  }
});

Deno.test("editor check --help says what it checks, its options, its exit codes and a CI step", async () => {
  await assertHelpMentions("check", [
    "--repo <dir>",
    "--locales <list>",
    "public/images/",
    "file: pointer: reason",
    "Exit code",
    "editor check --repo .",
  ]);
});

Deno.test("editor check says how to write an image named by a path: its bare name, the file in public/images/", async () => {
  await using site = await checkout({
    "src/content/pages/en/old.json": JSON.stringify({
      sections: [{
        id: "hero",
        image: { src: "/images/hero.jpg", width: 1200, height: 630 },
      }],
    }),
  });
  const run = await runCli(["check", "--repo", site.root]);
  assertFailed(run, [
    'src/content/pages/en/old.json: /sections/0/image/src: media (image name not allowed: "/images/hero.jpg" is a path, not a file name; write the bare name "hero.jpg" of a file in public/images/)',
  ], "1 of 2 page files fails the page rules\n");
});

Deno.test("editor check prints every problem of every file, one line each, naming the tag, the image name's case and the width", async () => {
  await using site = await checkout({
    "src/content/pages/en/theme.json": JSON.stringify({
      body: "<p>Intro</p><h3>Features</h3>",
      hero: { src: "Banner.PNG", width: 1200.5, height: 630 },
      sections: [{ id: "a", card: '<p class="lead">x</p>' }, { id: "a" }],
      button: { link: "javascript:alert(1)" },
    }),
  });
  const run = await runCli(["check", "--repo", site.root]);
  assertFailed(run, [
    "src/content/pages/en/theme.json: /body: markup (Tag <h3> is outside the allowlist (allowed: a b strong i em u s small sub sup br p ul ol li))",
    'src/content/pages/en/theme.json: /hero/src: media (image name not allowed: "Banner.PNG" has upper-case letters: image names are lower case ("banner.png"))',
    "src/content/pages/en/theme.json: /hero/width: shape (width 1200.5 must be a whole number from 1 to 10,000)",
    "src/content/pages/en/theme.json: /sections/0/card: markup (Attribute class is not allowed on <p> (only href and title, on <a>))",
    'src/content/pages/en/theme.json: /sections/1/id: duplicate_id (id "a" is used twice (first at /sections/0/id))',
    'src/content/pages/en/theme.json: /button/link: link ("javascript:alert(1)" is a URL whose scheme runs script or carries a document, under any key)',
  ], "1 of 2 page files fails the page rules (6 problems)\n");
});

Deno.test("editor check writes file names safe for a terminal and for CI annotations: no control character, no line starting with ::", async () => {
  await using site = await checkout({});
  const hostile = [
    "nl\n::error title=Injected::pwned.json",
    "esc\u001b[31mred\u001b]0;title\u0007.json",
    "cr\rover.json",
    "sep\u2028line.json",
  ];
  for (const name of hostile) {
    await Deno.writeTextFile(
      join(site.root, "src/content/pages/en", name),
      "{}",
    );
  }
  const run = await runCli(["check", "--repo", site.root]);
  assert.equal(run.code, 1);
  const lines = run.stdout.split("\n");
  assert.equal(lines.pop(), "");
  assert.equal(lines.length, hostile.length);
  for (const line of [...lines, ...run.stderr.split("\n")]) {
    assert.ok(!line.startsWith("::"), line);
    // deno-lint-ignore no-control-regex
    assert.doesNotMatch(line, /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/, line);
  }
  assert.ok(
    lines.includes(
      "src/content/pages/en/nl\\n::error title=Injected::pwned.json: (page): path (not a page path: src/content/pages/{en|fr}/{page}.json, lower-case words joined by hyphens)",
    ),
    run.stdout,
  );
  assert.ok(
    lines.some((line) =>
      line.startsWith(
        "src/content/pages/en/esc\\x1b[31mred\\x1b]0;title\\x07.json: ",
      )
    ),
    run.stdout,
  );
});

Deno.test("editor check refuses a page that is not UTF-8 or starts with a byte order mark", async () => {
  await using site = await checkout({});
  const pages = join(site.root, "src/content/pages/en");
  await Deno.writeFile(
    join(pages, "latin.json"),
    new Uint8Array([
      ...new TextEncoder().encode('{"title":"caf'),
      0xe9,
      0x22,
      0x7d,
    ]),
  );
  await Deno.writeFile(
    join(pages, "bom.json"),
    new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...new TextEncoder().encode('{"title":"Hi"}'),
    ]),
  );
  const run = await runCli(["check", "--repo", site.root]);
  assertFailed(run, [
    "src/content/pages/en/bom.json: (page): encoding (starts with a byte order mark (BOM), which /api/save never writes)",
    "src/content/pages/en/latin.json: (page): encoding (not UTF-8 (byte 0xE9 at offset 13): /api/save writes UTF-8 only)",
  ], "2 of 3 page files fail the page rules\n");
});

Deno.test("editor check skips a FIFO named like a page with a line saying it is not a regular file, and exits 1 without hanging", async () => {
  await using site = await checkout({});
  const fifo = join(site.root, "src/content/pages/en/pipe.json");
  const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
  assert.ok(made.success, "mkfifo");
  const run = await runCli(["check", "--repo", site.root]);
  assertFailed(run, [
    "src/content/pages/en/pipe.json: (page): not_regular (not a regular file (a FIFO, socket or device): not read)",
  ], "1 of 2 page files fails the page rules\n");
});

Deno.test("editor check names the files of the pages folder that are not page files, and says they are not checked", async () => {
  await using site = await checkout({
    "src/content/pages/en/about.md": "---\ntitle: About\n---\n",
    "src/content/pages/blog.mdx": "# Blog\n",
  });
  const run = await runCli(["check", "--repo", site.root]);
  assert.deepEqual(run, {
    code: 0,
    stdout: "1 page file checked (locales en, fr): all pass the page rules\n",
    stderr:
      "src/content/pages/blog.mdx: not a page file (page files are .json): not checked\n" +
      "src/content/pages/en/about.md: not a page file (page files are .json): not checked\n",
  });
});

Deno.test("editor check on a pages folder with only .md files exits 1 with a sentence saying where page files go", async () => {
  const root = await Deno.makeTempDir({ prefix: "editor-check-md-" });
  try {
    await Deno.mkdir(join(root, "src/content/pages"), { recursive: true });
    await Deno.writeTextFile(
      join(root, "src/content/pages/about.md"),
      "# About\n",
    );
    await Deno.writeTextFile(
      join(root, "src/content/pages/index.mdx"),
      "# Home\n",
    );
    const run = await runCli(["check", "--repo", root]);
    assert.deepEqual(run, {
      code: 1,
      stdout: "",
      stderr:
        "src/content/pages/about.md: not a page file (page files are .json): not checked\n" +
        "src/content/pages/index.mdx: not a page file (page files are .json): not checked\n" +
        "No page file found under src/content/pages: page files go in src/content/pages/{lang}/{page}.json (e.g. src/content/pages/en/home.json): JSON, one file per page\n",
    });
    // An empty pages folder: the same sentence, never "all pass".
    await Deno.remove(join(root, "src/content/pages/about.md"));
    await Deno.remove(join(root, "src/content/pages/index.mdx"));
    const empty = await runCli(["check", "--repo", root]);
    assert.equal(empty.code, 1);
    assert.doesNotMatch(empty.stdout + empty.stderr, /all pass/);
    assert.match(empty.stderr, /src\/content\/pages\/\{lang\}\/\{page\}\.json/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("editor check loads nothing of editor serve", async () => {
  const graph = new Deno.Command(Deno.execPath(), {
    args: [
      "info",
      "--json",
      new URL("../../cli/check.ts", import.meta.url).pathname,
    ],
    stdout: "piped",
    stderr: "null",
  });
  const { stdout } = await graph.output();
  const modules = (JSON.parse(new TextDecoder().decode(stdout)) as {
    modules: { specifier: string }[];
  }).modules.map(({ specifier }) => specifier);
  assert.ok(modules.some((name) => name.endsWith("/cli/check.ts")));
  assert.deepEqual(
    modules.filter((name) =>
      /\/cli\/(serve|proxy|static_site)\.ts$/.test(name)
    ),
    [],
  );
});

Deno.test("editor check writes a locale folder's name safe too when it is not a language code", async () => {
  await using site = await checkout({
    "src/content/pages/e\u001b[2Jn\u2028x/home.json": "{}",
  });
  const run = await runCli(["check", "--repo", site.root]);
  assert.equal(run.code, 1);
  assert.equal(
    run.stderr,
    'editor: Locale "e\\\\u001b[2Jn\\u2028x" is not a language code\n',
  );
});
