/**
 * What the Eleventy and Hugo end-to-end tests share: a dev server behind
 * `editor serve --proxy`, Chromium logged in through the overlay, and the
 * navigation list of the language's `site.json` reordered and published:
 * the commit changes the list's lines and nothing else, and the dev server
 * reloads the page with the new order.
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

/**
 * Opens the site's English home behind the editor in Chromium, logs in,
 * moves the navigation's second item up, publishes, and checks the commit
 * and the reloaded page.
 *
 * @param options the site's checkout, its dev server, where the test keeps
 *   its files, a name for the screenshots, the editor's extra arguments and
 *   its port (the one the dev server was told, if any)
 */
export async function reorderNavigation(options: {
  root: string;
  server: RunningProcess;
  work: string;
  name: string;
  editorArgs?: string[];
  port?: number;
}): Promise<void> {
  const { root, server, work, name } = options;
  const key = `${name} key`;
  await using editor = await startEditorProxy(root, server.url, {
    port: options.port ?? 0,
    args: ["--kv", join(work, "kv.sqlite3"), ...options.editorArgs ?? []],
    env: { EDITOR_KEY_HASH: await fastHash(key) },
  });
  await using browser = await launchChromium(work);
  const page = await browser.context.newPage();
  const origin = editor.url.slice(0, -1);
  await page.goto(origin + "/en/?edit");
  await logIn(page, key);
  const before = await Deno.readTextFile(join(root, EN_SITE));
  const nav = JSON.parse(before).nav as { text: string }[];
  assert.deepEqual(await navTexts(page), nav.map((item) => item.text));

  const second = page.locator('[data-inpage-item="/nav/1"]');
  await second.hover();
  await second.getByRole("button", { name: "Move up" }).click();
  await until(
    async () => (await navTexts(page))[0] === nav[1]!.text,
    "the moved item to show first",
  );
  await keep(page, `${name}-nav-moved.png`);
  await page.getByPlaceholder("What did you change?").fill(
    "Put the second link first",
  );
  await page.evaluate(() => {
    (globalThis as unknown as { inpageMark: boolean }).inpageMark = true;
  });
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  // The dev server rebuilds and reloads the page, which shows the new order.
  await until(
    async () => {
      try {
        const marked = await page.evaluate(() =>
          (globalThis as unknown as { inpageMark?: boolean }).inpageMark ===
            true
        );
        return !marked && (await navTexts(page))[0] === nav[1]!.text;
      } catch {
        return false; // the document is being replaced
      }
    },
    `${server.url}'s reload with the new order`,
    60_000,
  );
  // Nothing to restore: what the page holds now is what was published.
  await page.waitForLoadState("networkidle").catch(() => {});
  await page.locator(
    '[data-inpage-list="/nav"][data-inpage-item], [data-inpage-item="/nav/0"]',
  )
    .first().waitFor();
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
  await keep(page, `${name}-nav-published.png`);

  const after = await Deno.readTextFile(join(root, EN_SITE));
  const parsed = JSON.parse(after);
  const old = JSON.parse(before);
  assert.deepEqual(parsed.nav, [old.nav[1], old.nav[0], ...old.nav.slice(2)]);
  assert.deepEqual({ ...parsed, nav: [] }, { ...old, nav: [] });
  assert.equal(
    (await git(root, ["log", "-1", "--format=%s"])).trim(),
    "Put the second link first",
  );
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
