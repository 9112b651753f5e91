/**
 * The rich text editor as a lazily loaded part, in Debian's Chromium on the
 * demo (`deno task demo`): the overlay is ready without it; it is fetched
 * once, when a rich text region is first approached; what a person types
 * before it arrives is kept where it was typed and publishes; and when it
 * cannot be loaded the overlay says so, keeps the words, and tries again.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page, Route } from "playwright-core";
import { ARTIFACTS, launchChromium, startDemo } from "./overlay_support.ts";

/** The rich text part, under its own URL or a retry's (`?retry=N`). */
const PART = /\/_inpage\/rich_text-[A-Z0-9]{8}\.js(?:\?retry=\d+)?$/;

async function waitStatus(page: Page, text: string): Promise<void> {
  await page.getByRole("status").filter({ hasText: new RegExp(`^${text}$`) })
    .waitFor();
}

/** The lead's editable area: the site's markup, then the editor. */
const lead = (page: Page) =>
  page.getByRole("textbox", { name: /^Edit text \(rich text/ });

/** Opens the English home page with `?edit` and logs in. */
async function logIn(page: Page, url: string, key: string): Promise<void> {
  page.setDefaultTimeout(20_000);
  page.on("pageerror", (error) => console.error("page error:", error.message));
  page.on("dialog", (dialog) => void dialog.accept());
  await page.goto(`${url}en/?edit`);
  await page.getByLabel("Site key").fill(key);
  await page.keyboard.press("Enter");
  await waitStatus(page, "No unsaved changes");
}

Deno.test("in Chromium: the rich text editor loads once, when a rich text region is first approached, and what is typed before it arrives is kept and publishes", async () => {
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  await using site = await startDemo();
  await using browser = await launchChromium();
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  const parts: string[] = [];
  page.on("request", (request) => {
    if (/\/_inpage\/rich_text-/.test(request.url())) parts.push(request.url());
  });
  // The part is held back until the words are typed.
  const held = Promise.withResolvers<void>();
  await page.route(PART, async (route: Route) => {
    await held.promise;
    await route.continue();
  });
  await logIn(page, site.url, site.key);
  assert.deepEqual(parts, [], "ready without the rich text editor");
  assert.equal(await page.locator(".tiptap").count(), 0);

  // Pointing at the region fetches the part; typing goes on meanwhile.
  await lead(page).click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(" Typed before the editor.");
  assert.equal(parts.length, 1, "fetched when the pointer came over it");
  assert.equal(await page.locator(".tiptap").count(), 0, "still held");
  await page.screenshot({ path: join(ARTIFACTS, "lazy-before-editor.png") });
  held.resolve();
  await page.locator('[data-inpage-html="/lead"] .tiptap').waitFor();
  await waitStatus(page, "1 unsaved change");
  // The caret stayed where the person was typing.
  await page.keyboard.type(" And after.");
  assert.match(
    await page.locator('[data-inpage-html="/lead"]').innerText(),
    /change any of this text\. Typed before the editor\. And after\.$/,
  );
  // The toolbar came with the editor, for the focused field.
  await page.getByRole("toolbar").waitFor();

  // The other rich text regions use the same part: no second request.
  await page.getByRole("textbox", { name: /^Edit text, section 1 \(rich text/ })
    .click();
  await page.locator('[data-inpage-html="/sections/0/body"] .tiptap')
    .waitFor();
  assert.equal(parts.length, 1);
  await page.screenshot({ path: join(ARTIFACTS, "lazy-after-editor.png") });

  await page.getByLabel("Message", { exact: true }).fill("Lazy editor");
  await page.getByRole("button", { name: "Publish" }).click();
  await waitStatus(page, "Published");
  const file = await site.page();
  assert.match(
    String(file.lead),
    /change any of this text\. Typed before the editor\. And after\.<\/p>$/,
  );
  assert.equal(
    (await site.git("log", "-1", "--format=%s")).trim(),
    "Lazy editor",
  );
});

Deno.test("in Chromium: when the rich text editor cannot be loaded, the overlay says so, keeps what was typed, and loads it on the next try", async () => {
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  await using site = await startDemo();
  await using browser = await launchChromium();
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  const page = await context.newPage();
  let refused = 0;
  const asked: string[] = [];
  // The connection drops for the first attempt only.
  await page.route(PART, async (route: Route) => {
    asked.push(route.request().url());
    if (refused++ === 0) await route.abort("internetdisconnected");
    else await route.continue();
  });
  await logIn(page, site.url, site.key);

  await lead(page).tap();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(" Kept offline.");
  await page.getByRole("alert").filter({
    hasText: "The text editor could not be loaded",
  }).waitFor();
  await page.screenshot({ path: join(ARTIFACTS, "lazy-failed-390.png") });
  assert.match(await lead(page).innerText(), /Kept offline\.$/);

  // Leaving the field and coming back tries again.
  await page.getByRole("textbox", { name: "Edit title" }).tap();
  await lead(page).tap();
  await page.locator('[data-inpage-html="/lead"] .tiptap').waitFor();
  await waitStatus(page, "1 unsaved change");
  assert.match(
    await page.locator('[data-inpage-html="/lead"]').innerText(),
    /change any of this text\. Kept offline\.$/,
  );
  assert.equal(refused, 2);
  // The retry asks for a URL of its own: a browser may keep the failed
  // fetch of the first URL and never ask the network for it again.
  const [first = "", retry = ""] = asked;
  assert.match(first, /\/_inpage\/rich_text-[A-Z0-9]{8}\.js$/);
  assert.equal(retry, `${first}?retry=1`);
});
