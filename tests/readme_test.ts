/**
 * The README is a front page: at most 200 lines, opening with the two
 * commands CI runs. Every relative link and anchor of the README and of
 * `docs/` resolves, as GitHub renders them (its heading slugs), and what the
 * pages copy from the code (the Deno Deploy entry, the budgets and caps) is
 * what the code holds.
 */
import assert from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";
import GithubSlugger from "github-slugger";
import markdownIt, { type Token } from "markdown-it";
import { BUDGETS, CONTENT_MAX } from "../lib/limits.ts";
import * as LIMITS from "../lib/limits.ts";
import { ROUTES } from "../lib/wire/names.ts";
import { documentedPages } from "./support/docs.ts";

const ROOT = normalize(join(dirname(new URL(import.meta.url).pathname), ".."));

const read = (path: string) => Deno.readTextFile(join(ROOT, path));

const readme = await read("README.md");

const pages = () => documentedPages(ROOT);

const markdown = markdownIt({ html: true });

/** Every token of a page, inline children included, in order. */
function tokens(source: string): Token[] {
  return markdown.parse(source, {}).flatMap((token) => [
    token,
    ...(token.children ?? []),
  ]);
}

/** The anchors GitHub gives a page's headings (`github-slugger`'s rules). */
function anchors(source: string): Set<string> {
  const slugger = new GithubSlugger();
  const all = markdown.parse(source, {});
  const found = new Set<string>();
  all.forEach((token, index) => {
    if (token.type !== "heading_open") return;
    const text = (all[index + 1]?.children ?? [])
      .filter((child) => child.type === "text" || child.type === "code_inline")
      .map((child) => child.content).join("");
    found.add(slugger.slug(text));
  });
  return found;
}

/** The relative links and images of a page: `[target, anchor]`. */
function relativeLinks(source: string): [string, string | undefined][] {
  const targets: string[] = [];
  for (const token of tokens(source)) {
    if (token.type === "link_open") {
      targets.push(String(token.attrGet("href") ?? ""));
    }
    if (token.type === "image") {
      targets.push(String(token.attrGet("src") ?? ""));
    }
  }
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => {
      const hash = target.indexOf("#");
      return hash < 0
        ? [target, undefined]
        : [target.slice(0, hash), decodeURIComponent(target.slice(hash + 1))];
    });
}

Deno.test("the README is a front page of at most 200 lines", () => {
  const lines = readme.endsWith("\n")
    ? readme.slice(0, -1).split("\n")
    : readme.split("\n");
  assert.ok(lines.length <= 200, `the README has ${lines.length} lines`);
});

Deno.test("the README opens with the two commands that CI runs", async () => {
  const lines = readme.split("\n");
  assert.equal(lines[2], "```sh");
  assert.match(
    lines[3] ?? "",
    /^npx --yes deno@2\.9\.6 task demo /,
  );
  assert.match(lines[4] ?? "", /^npx --yes deno@2\.9\.6 task test /);
  const ci = await Deno.readTextFile(new URL("../.ci/run", import.meta.url));
  assert.match(ci, /^npx --yes deno@2\.9\.6 task test$/m);
});

Deno.test("the README shows the overlay's picture, and links to every page of docs/", async () => {
  const links = relativeLinks(readme).map(([target]) => target);
  assert.ok(links.includes("docs/images/overlay.png"));
  const picture = await Deno.stat(join(ROOT, "docs/images/overlay.png"));
  assert.ok(
    picture.size < 300_000,
    `docs/images/overlay.png is ${picture.size} B`,
  );
  for (const page of await pages()) {
    if (page === "README.md") continue;
    assert.ok(links.includes(page), `the README does not link to ${page}`);
  }
});

Deno.test("every relative link and anchor of the README and docs/ resolves", async () => {
  const all = await pages();
  const sources = new Map<string, string>();
  for (const page of all) sources.set(page, await read(page));
  let checked = 0;
  for (const [page, source] of sources) {
    for (const [target, anchor] of relativeLinks(source)) {
      const path = target === ""
        ? page
        : relative(ROOT, normalize(join(ROOT, dirname(page), target)));
      assert.ok(
        !path.startsWith(".."),
        `${page}: ${target} leaves the repository`,
      );
      const stat = await Deno.stat(join(ROOT, path)).catch(() => undefined);
      assert.ok(stat, `${page}: ${target} names no file (${path})`);
      if (anchor !== undefined) {
        assert.ok(path.endsWith(".md"), `${page}: #${anchor} on ${path}`);
        const text = sources.get(path) ?? await read(path);
        assert.ok(
          anchors(text).has(anchor),
          `${page}: ${target}#${anchor}: no such heading in ${path}`,
        );
      }
      checked++;
    }
  }
  assert.ok(checked > 50, `only ${checked} links checked`);
});

Deno.test("the anchors are GitHub's: punctuation dropped, spaces to hyphens, repeats numbered", () => {
  const found = anchors(
    "# The `editor` CLI\n\n## `POST /api/auth` and `DELETE /api/auth`\n\n" +
      "## Cloudflare (Pages Functions, workerd)\n\n## The overlay's files\n\n" +
      "## Notes\n\n## Notes\n",
  );
  assert.deepEqual([...found], [
    "the-editor-cli",
    "post-apiauth-and-delete-apiauth",
    "cloudflare-pages-functions-workerd",
    "the-overlays-files",
    "notes",
    "notes-1",
  ]);
  assert.deepEqual(
    relativeLinks("[a](x.md#b) [c](https://e.org) ![d](i.png)"),
    [
      ["x.md", "b"],
      ["i.png", undefined],
    ],
  );
});

Deno.test("Deploy's entry point is examples/deno-deploy/main.ts, which the tests start for real", async () => {
  const deploy = await read("docs/deploy.md");
  const example = await read("examples/deno-deploy/main.ts");
  // The file is quoted whole, its doc comment included.
  const block = /```ts ignore\n(\/\*\*[\s\S]*?)```/.exec(deploy)?.[1];
  assert.equal(block, example);
});

Deno.test("the routes page's budgets and caps are those of lib/limits.ts", async () => {
  const routes = await read("docs/routes.md");
  const section = routes.slice(
    routes.indexOf("\n## Budgets and caps\n"),
    routes.indexOf("\n## Every route\n"),
  );
  assert.ok(section.length > 100, "docs/routes.md has its budgets");
  const rows = section.split("\n").filter((line) => /^\| `/.test(line));
  const named = new Set<string>();
  for (const row of rows) {
    const [route = "", requests = "", window = ""] = row.split("|").slice(1)
      .map((cell) => cell.trim());
    const paths = [...route.matchAll(/\/api\/[a-z]+(?:\/[a-z]+)*/g)].map((m) =>
      m[0]
    );
    assert.ok(paths.length > 0, row);
    for (const path of paths) {
      const entry = Object.values(ROUTES).find((r) => r.path === path);
      assert.ok(entry, `${path} is a route`);
      named.add(path);
      const budget = BUDGETS[entry.budget];
      assert.equal(Number(requests), budget.limit, row);
      assert.equal(window, `${budget.windowMs / 60_000} minutes`, row);
    }
  }
  assert.deepEqual(
    [...named].sort(),
    Object.values(ROUTES).map((route) => route.path).sort(),
  );
  const number = (value: number) => value.toLocaleString("en-US");
  for (
    const value of [
      LIMITS.AUTH_BODY_MAX,
      LIMITS.KEY_MAX,
      CONTENT_MAX,
      LIMITS.ENVELOPE_MAX,
      LIMITS.VERSION_MAX,
      LIMITS.UPLOAD_FILE_MAX,
      LIMITS.UPLOAD_BODY_MAX - LIMITS.UPLOAD_FILE_MAX,
      LIMITS.UPLOAD_NAME_MAX,
      LIMITS.HISTORY_PAGE_MAX,
    ]
  ) {
    assert.match(
      section,
      new RegExp(`(?<![\\d,.])${number(value)}(?!\\d|,\\d)`),
      `${number(value)} in the caps`,
    );
  }
  assert.ok(section.includes(`${LIMITS.SESSION_SECONDS / 3600} hours`));
});
