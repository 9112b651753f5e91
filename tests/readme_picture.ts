/**
 * Takes the README's picture of the overlay, `docs/images/overlay.png`: the
 * demo (`deno task demo`, started for real) in Debian's Chromium at
 * 1120×780, logged in, its title retyped and a word of the lead made bold,
 * the rich-text toolbar showing and the bar counting the unsaved changes.
 *
 * ```sh
 * npx --yes deno@2.9.6 run -A tests/readme_picture.ts
 * ```
 *
 * An argument names another file to write. Not a test: run it again when
 * the overlay's look changes, look at the picture, and commit it.
 *
 * @module
 */

import { join } from "node:path";
import { launchChromium, startDemo } from "./browser/overlay_support.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const OUT = Deno.args[0] ?? join(ROOT, "docs/images/overlay.png");

await using site = await startDemo();
await using browser = await launchChromium();
const context = await browser.newContext({
  viewport: { width: 1120, height: 780 },
  deviceScaleFactor: 1,
});
const page = await context.newPage();
page.setDefaultTimeout(30_000);

const status = (text: string) =>
  page.getByRole("status").filter({ hasText: new RegExp(`^${text}$`) })
    .waitFor();

await page.goto(`${site.url}en/?edit`);
await page.getByLabel("Site key").fill(site.key);
await page.keyboard.press("Enter");
await status("No unsaved changes");

// A plain-text change: the title retyped.
const title = page.getByRole("textbox", { name: "Edit title" });
await title.click();
await page.keyboard.press("Control+a");
await page.keyboard.type("Small sites, edited in the page");
await status("1 unsaved change");

// A rich-text change: "repository" in the lead made bold, its toolbar shown.
const lead = page.locator('[data-inpage-html="/lead"]');
await lead.click();
await page.evaluate(`(() => {
  const field = document.querySelector('[data-inpage-html="/lead"]');
  const walker = document.createTreeWalker(field, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.indexOf("repository");
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + "repository".length);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    return;
  }
  throw new Error("no word 'repository' in the lead");
})()`);
await page.keyboard.press("Control+b");
await status("2 unsaved changes");
await page.evaluate("scrollTo(0, 0)");
await page.waitForTimeout(300);

await Deno.mkdir(join(OUT, ".."), { recursive: true });
await page.screenshot({ path: OUT, type: "png" });
await context.close();
console.log(`wrote ${OUT}`);
