/**
 * Words typed in a markdown region before its editor has arrived land
 * where they were typed, in Debian's Chromium: at the start of a block,
 * not at the end of the block before it (which has the same number of
 * characters before it). On the demo's home, with its description made two
 * paragraphs and a markdown region put on it, the editor's part held back
 * while the person clicks at the start of the second paragraph and types.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { launchChromium, startDemo, waitStatus } from "./overlay_support.ts";

declare const document: {
  createRange(): {
    setStart(node: unknown, offset: number): void;
    setEnd(node: unknown, offset: number): void;
    getBoundingClientRect(): { left: number; top: number; height: number };
  };
};

const FIRST = "Inpage Studio builds small static sites.";
const SECOND = "Their content is JSON in git, edited in place.";
const REGION = '[data-inpage-markdown="/description"]';

/** The lazily loaded part holding the markdown editor. */
const PART = /\/_inpage\/rich_text-[A-Z0-9]{8}\.js(?:\?retry=\d+)?$/;

Deno.test("in Chromium: words typed at the start of a markdown region's second paragraph before its editor arrives stay at that start", async () => {
  await using site = await startDemo();
  const file = join(site.root, "src/content/pages/en/home.json");
  const home = JSON.parse(await Deno.readTextFile(file));
  home.description = `${FIRST}\n\n${SECOND}`;
  await Deno.writeTextFile(file, JSON.stringify(home, null, 2) + "\n");
  await site.git("commit", "-qam", "Two paragraphs of description");

  await using browser = await launchChromium();
  const page = await browser.newPage({
    viewport: { width: 1280, height: 800 },
  });
  page.setDefaultTimeout(20_000);
  page.on("pageerror", (error) => console.error("page error:", error));
  await page.route(`${site.url}en/?edit`, async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace(
      "<main>",
      `<div class="prose" data-inpage-markdown="/description">` +
        `<p>${FIRST}</p>\n<p>${SECOND}</p></div><main>`,
    );
    await route.fulfill({ response, body: html });
  });
  const held = Promise.withResolvers<void>();
  await page.route(PART, async (route) => {
    await held.promise;
    await route.continue();
  });
  await page.goto(`${site.url}en/?edit`);
  await page.getByLabel("Site key").fill(site.key);
  await page.keyboard.press("Enter");
  await waitStatus(page, "No unsaved changes");

  // A click just before the second paragraph's first character.
  const start = await page.locator(`${REGION} p`).nth(1).evaluate(
    (paragraph) => {
      const range = document.createRange();
      range.setStart(paragraph.firstChild, 0);
      range.setEnd(paragraph.firstChild, 1);
      const { left, top, height } = range.getBoundingClientRect();
      return { x: left + 1, y: top + height / 2 };
    },
  );
  await page.mouse.click(start.x, start.y);
  await page.keyboard.type("Early: ");
  assert.equal(await page.locator(`${REGION} .tiptap`).count(), 0, "held");
  held.resolve();
  await page.locator(`${REGION} .tiptap`).waitFor();
  await page.unroute(PART);
  const paragraphs = page.locator(`${REGION} .tiptap > p`);
  await waitStatus(page, /1 unsaved change/);
  assert.deepEqual(await paragraphs.allInnerTexts(), [
    FIRST,
    `Early: ${SECOND}`,
  ]);
});
