/**
 * What the overlay puts into the page keeps to the page rules' allowlist,
 * in Debian's Chromium on the demo (`deno task demo`): a page file edited
 * by hand in git (the site not rebuilt yet) whose rich text holds an
 * `<img onerror>`, a `<script>`, a `style` attribute and a `javascript:`
 * link shows without the image, the script and the style, the link marked
 * to be fixed in the editor and unwrapped in Preview; nothing of it runs in
 * the editor's session.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page, Route } from "playwright-core";
import { ARTIFACTS, launchChromium, startDemo } from "./overlay_support.ts";

const HOSTILE = '<p style="color: red">Hand-edited <img src="/missing.png" ' +
  'onerror="window.ran = (window.ran || 0) + 1"> <strong>lead</strong> ' +
  "<script>window.ran = 7</script>with " +
  '<a href="javascript:window.ran = 99">a link</a>.</p>';

async function waitStatus(page: Page, text: string): Promise<void> {
  await page.getByRole("status").filter({ hasText: new RegExp(`^${text}$`) })
    .waitFor();
}

Deno.test("in Chromium: a stored value the markup rule refuses is shown as its text only, in the editor and in Preview, and runs nothing", async () => {
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  await using site = await startDemo();
  await using browser = await launchChromium();
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on("dialog", (dialog) => void dialog.accept());
  // The page file as a hand edit in git left it; the site still shows the
  // build before it.
  await page.route(/\/api\/content\?path=/, async (route: Route) => {
    const response = await route.fetch();
    const body = await response.json() as { content: string };
    const file = JSON.parse(body.content);
    file.lead = HOSTILE;
    await route.fulfill({
      response,
      json: { ...body, content: JSON.stringify(file, null, 2) + "\n" },
    });
  });
  await page.goto(`${site.url}en/?edit`);
  await page.getByLabel("Site key").fill(site.key);
  await page.keyboard.press("Enter");
  await waitStatus(page, "No unsaved changes");
  const lead = page.locator('[data-inpage-html="/lead"]');
  // The file's value differs from the site's: it is shown at once.
  await lead.locator(".tiptap").waitFor();
  assert.match(await lead.innerText(), /^Hand-edited\s+lead with a link\.$/);
  assert.equal(await lead.locator("img, script, [style]").count(), 0);
  assert.equal(await lead.locator("strong").innerText(), "lead");
  // The refused link stays, marked, to be fixed.
  await lead.locator("a[data-inpage-invalid]").waitFor();

  await page.getByRole("button", { name: "Preview" }).click();
  assert.equal(await lead.locator(".tiptap").count(), 0);
  assert.match(await lead.innerText(), /^Hand-edited\s+lead with a link\.$/);
  assert.equal(await lead.locator("img, script, [style], a").count(), 0);
  assert.equal(await lead.locator("p > strong").innerText(), "lead");
  await page.screenshot({ path: join(ARTIFACTS, "allowlist-preview.png") });
  // Give an image's error a moment to fire, had one been inserted.
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate("window.ran ?? 0"), 0);
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await lead.locator(".tiptap").waitFor();
  assert.equal(await page.evaluate("window.ran ?? 0"), 0);
  // Untouched, it is no change.
  await waitStatus(page, "No unsaved changes");
});
