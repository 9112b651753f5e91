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
  "src/content/pages/en/duplicate.json: /sections/1/id: duplicate_id (Page has an id used twice)",
  "src/content/pages/en/hostile.json: /sections/0/body: markup (Page holds hostile markup: A tag outside the allowlist)",
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
    'src/content/pages/en/old.json: /sections/0/image/src: media (Page has an image name not allowed: "/images/hero.jpg" is a path; write the bare name "hero.jpg" of a file in public/images/)',
  ], "1 of 2 page files fails the page rules\n");
});
