/**
 * What the Eleventy and Hugo end-to-end tests share: a dev server behind
 * `editor serve --proxy`, Chromium logged in through the overlay, and two
 * edits, each published and checked in the commit: the navigation list of
 * the language's `site.json` reordered (the commit changes the list's lines
 * and nothing else, and the dev server reloads the page with the new
 * order), and a post's markdown body edited in place, one word made bold
 * and one list item added (the commit changes the body's line, and in the
 * body's markdown exactly those two lines).
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { RunningProcess } from "../../examples/dev_servers.ts";
import { startEditorProxy } from "../../examples/dev_servers.ts";
import { fastHash } from "../support/helpers.ts";
import { ARTIFACTS, launchChromium, until } from "./astro_support.ts";

/** The site-wide page file holding the navigation list. */
export const EN_SITE = "src/content/pages/en/site.json";

/** Runs git in a folder and returns its standard output. */
export async function git(root: string, args: string[]): Promise<string> {
  const output = await new Deno.Command("git", {
    args: ["-C", root, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  return new TextDecoder().decode(output.stdout);
}

/** The line ranges (from 1) a commit changed in a file, old side. */
export async function changedLines(
  root: string,
  path: string,
): Promise<[number, number][]> {
  const diff = await git(root, ["diff", "-U0", "HEAD~1", "HEAD", "--", path]);
  return [...diff.matchAll(/^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/gm)].map((
    match,
  ) => {
    const start = Number(match[1]);
    const count = match[2] === undefined ? 1 : Number(match[2]);
    return [start, start + Math.max(count, 1) - 1];
  });
}

/** The lines (from 1) of a JSON file's array `key`, from `[` to `]`. */
export function arrayLines(text: string, key: string): [number, number] {
  const lines = text.split("\n");
  const first = lines.findIndex((line) => line.startsWith(`  "${key}": [`));
  const last = lines.findIndex((line, i) =>
    i > first && line === "  ]" ||
    i > first && line === "  ],"
  );
  assert.ok(first >= 0 && last > first, `no array ${key}`);
  return [first + 1, last + 1];
}

/** Keeps a screenshot as a test artefact. */
export async function keep(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, name) }).catch(() => {});
}

/** A page opened in edit mode, logged in through the overlay's dialog. */
export async function logIn(page: Page, key: string): Promise<void> {
  await page.getByLabel("Site key").fill(key, { timeout: 60_000 });
  await page.keyboard.press("Enter");
  const status = page.getByRole("status");
  await until(
    async () => /No unsaved changes/.test(await status.textContent() ?? ""),
    "the overlay to be ready after logging in",
    60_000,
  );
}

/** The texts of the navigation list, in order. */
export function navTexts(page: Page): Promise<string[]> {
  return page.locator('[data-inpage-list="/nav"] > [data-inpage-item] a')
    .allTextContents().then((texts) => texts.map((text) => text.trim()));
}

/** A site behind the editor, opened in Chromium. */
export interface EditingSession {
  /** The site's checkout. */
  root: string;
  /** The dev server. */
  server: RunningProcess;
  /** The editor's origin (no final slash). */
  origin: string;
  /** The browser's page. */
  page: Page;
  /** A name for the screenshots. */
  name: string;
}

/**
 * Starts the editor in front of a dev server, opens Chromium, and runs
 * the steps one after the other, logged in.
 *
 * @param options the site's checkout, its dev server, where the test keeps
 *   its files, a name for the screenshots, the editor's extra arguments and
 *   its port (the one the dev server was told, if any)
 * @param steps what is done and checked, in order
 */
export async function editBehindProxy(
  options: {
    root: string;
    server: RunningProcess;
    work: string;
    name: string;
    editorArgs?: string[];
    port?: number;
  },
  steps: Array<(session: EditingSession) => Promise<void>>,
): Promise<void> {
  const { root, server, work, name } = options;
  const key = `${name} key`;
  await using editor = await startEditorProxy(root, server.url, {
    port: options.port ?? 0,
    args: ["--kv", join(work, "kv.sqlite3"), ...options.editorArgs ?? []],
    env: { EDITOR_KEY_HASH: await fastHash(key) },
  });
  await using browser = await launchChromium(work);
  const page = await browser.context.newPage();
  page.on("pageerror", (error) => console.error("page error:", error.message));
  const origin = editor.url.slice(0, -1);
  let logged = false;
  for (const step of steps) {
    if (!logged) {
      await page.goto(origin + "/en/?edit");
      await logIn(page, key);
      logged = true;
    }
    await step({ root, server, origin, page, name });
  }
}

/**
 * Publishes what the overlay holds with a message, and waits until the
 * dev server has reloaded the page (a mark set on the old document is
 * gone) and the reloaded overlay is ready.
 */
async function publishAndReload(
  session: EditingSession,
  message: string,
  shown: () => Promise<boolean>,
): Promise<void> {
  const { page, server } = session;
  await page.getByPlaceholder("What did you change?").fill(message);
  await page.evaluate(() => {
    (globalThis as unknown as { inpageMark: boolean }).inpageMark = true;
  });
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await until(
    async () => {
      try {
        const marked = await page.evaluate(() =>
          (globalThis as unknown as { inpageMark?: boolean }).inpageMark ===
            true
        );
        return !marked && await shown();
      } catch {
        return false; // the document is being replaced
      }
    },
    `${server.url}'s reload after "${message}"`,
    60_000,
  );
  await page.waitForLoadState("networkidle").catch(() => {});
  await until(
    async () =>
      /No unsaved changes|Published/.test(
        await page.getByRole("status").textContent() ?? "",
      ),
    "the reloaded overlay to be ready",
    30_000,
  );
  assert.equal(
    await page.getByText("Restore unsaved changes?").isVisible(),
    false,
    "a published change offered as a draft to restore",
  );
  assert.equal(
    (await git(session.root, ["log", "-1", "--format=%s"])).trim(),
    message,
  );
}

/**
 * On the English home: moves the navigation's second item up, publishes,
 * and checks the commit and the reloaded page.
 *
 * @param session the site behind the editor, in Chromium
 */
export async function reorderNavigation(
  session: EditingSession,
): Promise<void> {
  const { root, page, name, origin } = session;
  if (!page.url().startsWith(origin + "/en/?")) {
    await page.goto(origin + "/en/?edit");
  }
  const before = await Deno.readTextFile(join(root, EN_SITE));
  const nav = JSON.parse(before).nav as { text: string }[];
  await until(
    async () =>
      JSON.stringify(await navTexts(page)) ===
        JSON.stringify(nav.map((item) => item.text)),
    "the navigation as the file holds it",
  );

  const second = page.locator('[data-inpage-item="/nav/1"]');
  await second.hover();
  await second.getByRole("button", { name: "Move up" }).click();
  await until(
    async () => (await navTexts(page))[0] === nav[1]!.text,
    "the moved item to show first",
  );
  await keep(page, `${name}-nav-moved.png`);
  await publishAndReload(
    session,
    "Put the second link first",
    async () => (await navTexts(page))[0] === nav[1]!.text,
  );
  await keep(page, `${name}-nav-published.png`);

  const after = await Deno.readTextFile(join(root, EN_SITE));
  const parsed = JSON.parse(after);
  const old = JSON.parse(before);
  assert.deepEqual(parsed.nav, [old.nav[1], old.nav[0], ...old.nav.slice(2)]);
  assert.deepEqual({ ...parsed, nav: [] }, { ...old, nav: [] });
  // The commit changes the list's lines and nothing else.
  const [first, last] = arrayLines(before, "nav");
  const changed = await changedLines(root, EN_SITE);
  assert.ok(changed.length > 0);
  for (const [from, to] of changed) {
    assert.ok(from > first && to < last, `lines ${from}-${to} of ${EN_SITE}`);
  }
  assert.deepEqual(
    (await git(root, ["diff", "--name-only", "HEAD~1", "HEAD"])).trim(),
    EN_SITE,
  );
}

/** The English first post's page file. */
export const EN_POST = "src/content/pages/en/posts/first-post.json";

/**
 * The word made bold, the words typed before the editor is there (at the
 * end of the same paragraph), and the list item added, in the post's body.
 */
const WORD = "robust";
const EARLY = " Typed early.";
const ITEM = "Ship the new item.";

/** The lazily loaded part holding the markdown editor. */
const PART = /\/_inpage\/rich_text-[A-Z0-9]{8}\.js(?:\?retry=\d+)?$/;

/**
 * The lines of two texts that differ: those of the old one taken out and
 * those of the new one put in (a plain longest-common-subsequence diff).
 *
 * @param before the old text
 * @param after the new text
 * @returns the lines removed and the lines added
 */
export function lineDiff(
  before: string,
  after: string,
): { removed: string[]; added: string[] } {
  const a = before.split("\n");
  const b = after.split("\n");
  const common: number[][] = Array.from(
    { length: a.length + 1 },
    () => new Array(b.length + 1).fill(0),
  );
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      common[i]![j] = a[i] === b[j]
        ? common[i + 1]![j + 1]! + 1
        : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
    }
  }
  const removed: string[] = [];
  const added: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i++;
      j++;
    } else if (
      j < b.length &&
      (i === a.length || common[i]![j + 1]! >= common[i + 1]![j]!)
    ) added.push(b[j++]!);
    else removed.push(a[i++]!);
  }
  return { removed, added };
}

/**
 * On the English first post: in its markdown body, types at the end of the
 * first paragraph before the editor is there (its part held back), then
 * selects a word and makes it bold with Ctrl+B, adds an item at the end
 * of its list with the keyboard, publishes, and checks the commit: the
 * page file's body line only, and in the body's markdown the word's line
 * (bold word and words typed early) and the new item's line only; the
 * reloaded page shows them.
 *
 * @param session the site behind the editor, in Chromium
 */
/**
 * Waits until a page has gone 3 s without loading again (a dev server's
 * live reload after a publish), at most 30 s.
 *
 * @param page the page
 */
async function settled(page: Page): Promise<void> {
  let last = Date.now();
  const loaded = () => last = Date.now();
  page.on("load", loaded);
  try {
    await until(() => Date.now() - last > 3_000, "the page to stay loaded");
  } finally {
    page.off("load", loaded);
  }
  await page.getByRole("status").waitFor();
}

export async function editMarkdownBody(
  session: EditingSession,
): Promise<void> {
  const { root, page, name, origin } = session;
  const before = await Deno.readTextFile(join(root, EN_POST));
  const body = page.locator('[data-inpage-markdown="/body"]');
  // The editor's part is held back: what is typed before it is there is
  // kept, and played again in it where it was typed.
  const held = Promise.withResolvers<void>();
  await page.route(PART, async (route) => {
    await held.promise;
    await route.continue();
  });
  await page.goto(origin + "/en/posts/first-post/?edit");
  await until(
    async () =>
      /No unsaved changes|Published/.test(
        await page.getByRole("status").textContent() ?? "",
      ),
    "the overlay to be ready on the post",
    60_000,
  );
  // The site's dev server rebuilds after the previous step's publish and
  // reloads every page it serves: edit once the page has stayed loaded.
  await settled(page);
  const end = await body.locator("p").first().evaluate((element) => {
    const text = element.lastChild!;
    const range = element.ownerDocument.createRange();
    range.setStart(text, text.textContent!.length - 1);
    range.setEnd(text, text.textContent!.length);
    const { right, top, height } = range.getBoundingClientRect();
    return { x: right - 1, y: top + height / 2 };
  });
  await page.mouse.click(end.x, end.y);
  await page.keyboard.press("End");
  await page.keyboard.type(EARLY);
  assert.equal(await body.locator(".tiptap").count(), 0, "the part is held");
  await keep(page, `${name}-markdown-early.png`);
  held.resolve();
  await body.locator(".tiptap").waitFor({ timeout: 60_000 });
  await page.unroute(PART);
  await until(
    async () =>
      (await body.locator(".tiptap > p").first().innerText()).endsWith(EARLY),
    "the words typed early to be in the editor",
  );
  // The word selected as a person would: a double click on it.
  const paragraph = body.locator(".tiptap > p").first();
  const box = await paragraph.evaluate((element, word) => {
    const text = element.firstChild!;
    const at = text.textContent!.indexOf(word);
    const range = element.ownerDocument.createRange();
    range.setStart(text, at);
    range.setEnd(text, at + word.length);
    const { x, y, width, height } = range.getBoundingClientRect();
    return { x, y, width, height };
  }, WORD);
  await page.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2);
  // Ctrl+B once the double click has selected the word (a key sent at
  // once is tested on its own: tests/browser/key_after_click_test.ts).
  await until(
    async () => await page.evaluate("String(document.getSelection())") === WORD,
    "the double-clicked word to be selected",
  );
  await page.keyboard.press("Control+b");
  await body.locator("strong", { hasText: WORD }).waitFor();
  // A new item after the list's last one: its end, Enter, the words.
  const last = body.locator(".tiptap li").last();
  // A click just after its last character (End would stop at the end of
  // the first visual line of an item that wraps).
  const after = await last.evaluate((item) => {
    const walker = item.ownerDocument.createTreeWalker(item, 4);
    let text = walker.nextNode();
    for (let node = text; node; node = walker.nextNode()) text = node;
    const range = item.ownerDocument.createRange();
    range.setStart(text!, text!.textContent!.length);
    range.setEnd(text!, text!.textContent!.length);
    const { right, top, height } = range.getBoundingClientRect();
    return { x: right - 1, y: top + height / 2 };
  });
  await page.mouse.click(after.x, after.y);
  await until(
    async () =>
      await last.evaluate((item) =>
        item.contains(item.ownerDocument.getSelection()?.anchorNode ?? null)
      ),
    "the caret to be in the last item",
  );
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await page.keyboard.type(ITEM);
  await until(
    async () => (await body.locator(".tiptap li").last().innerText()) === ITEM,
    "the new item to show last in the list",
  );
  await keep(page, `${name}-markdown-edited.png`);
  await publishAndReload(
    session,
    "A bold word and a new item",
    async () =>
      await body.locator("strong", { hasText: WORD }).count() === 1 &&
      (await body.locator("li").last().innerText()).trim() === ITEM,
  );
  await keep(page, `${name}-markdown-published.png`);

  // The page file: the body's line and nothing else.
  assert.deepEqual(
    (await git(root, ["diff", "--name-only", "HEAD~1", "HEAD"])).trim(),
    EN_POST,
  );
  const bodyLine =
    before.split("\n").findIndex((line) => line.startsWith('  "body": ')) + 1;
  assert.deepEqual(await changedLines(root, EN_POST), [[bodyLine, bodyLine]]);
  const old = JSON.parse(before);
  const now = JSON.parse(await Deno.readTextFile(join(root, EN_POST)));
  assert.deepEqual({ ...now, body: "" }, { ...old, body: "" });
  // The body's markdown: the word's line and the new item's line only.
  const wordLine = (old.body as string).split("\n").find((line) =>
    line.includes(WORD)
  )!;
  const lastItem = (old.body as string).split("\n").filter((line) =>
    line.startsWith("- ")
  ).at(-1)!;
  assert.deepEqual(lineDiff(old.body, now.body), {
    removed: [wordLine],
    added: [wordLine.replace(WORD, `**${WORD}**`) + EARLY, `- ${ITEM}`],
  });
  assert.ok(
    now.body.includes(`${lastItem}\n- ${ITEM}\n`),
    "the new item follows the list's last one",
  );
}
