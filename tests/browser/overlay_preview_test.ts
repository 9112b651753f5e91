/**
 * Preview and links, in Debian's Chromium on the demo (`deno task demo`):
 * Preview shows the page as a visitor will see it, changes included (a
 * screenshot above the bar equal, pixel for pixel, to a logged-out
 * visitor's render once the same changes are published), with live links
 * and no outlines; in Edit, Ctrl+click follows a link; "Published" and its
 * message stay after the page reloads.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { ARTIFACTS, launchChromium, startDemo } from "./overlay_support.ts";

const VIEWPORT = { width: 1280, height: 800 };

async function waitStatus(page: Page, text: string): Promise<void> {
  await page.getByRole("status").filter({ hasText: new RegExp(`^${text}$`) })
    .waitFor();
}

/** The top of the overlay's bar, in CSS pixels. */
const BAR_TOP = `document.querySelector("[data-inpage-overlay]").shadowRoot
  .querySelector(".bar").getBoundingClientRect().top`;

Deno.test("in Chromium: Preview is the visitor's page with the changes, links live; Ctrl+click follows a link in Edit; Published survives a reload", async () => {
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  await using site = await startDemo();
  await using browser = await launchChromium();
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on("pageerror", (error) => console.error("page error:", error.message));
  page.on("dialog", (dialog) => void dialog.accept());
  await page.goto(`${site.url}en/?edit`);
  await page.getByLabel("Site key").fill(site.key);
  await page.keyboard.press("Enter");
  await waitStatus(page, "No unsaved changes");

  // Two changes: plain text and rich text.
  await page.getByRole("textbox", { name: "Edit title" }).click();
  await page.keyboard.press("End");
  await page.keyboard.type(" (previewed)");
  await page.getByRole("textbox", { name: /^Edit text \(rich text/ }).click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(" Shown in preview.");
  await waitStatus(page, "2 unsaved changes");

  // Preview: no outlines, nothing editable, no toolbar.
  await page.getByRole("button", { name: "Preview" }).click();
  assert.equal(
    await page.getByRole("button", { name: "Preview" }).getAttribute(
      "aria-pressed",
    ),
    "true",
  );
  assert.equal(
    await page.evaluate(
      `document.documentElement.hasAttribute("data-inpage-editing")`,
    ),
    false,
  );
  assert.equal(await page.locator("[contenteditable=true]").count(), 0);
  assert.equal(await page.locator(".tiptap").count(), 0);
  assert.equal(await page.getByRole("toolbar").isVisible(), false);
  // The list shortcuts do nothing in Preview (Alt+Shift+D copies an item).
  await page.locator('[data-inpage-link="/nav/1/link"]').focus();
  await page.keyboard.press("Alt+Shift+D");
  await page.keyboard.press("Alt+Shift+ArrowUp");
  await waitStatus(page, "2 unsaved changes");
  assert.equal(await page.locator('[data-inpage-link^="/nav/"]').count(), 2);
  await page.evaluate("document.activeElement.blur()");
  await page.evaluate("scrollTo(0, 0)");
  const barTop = Math.floor(await page.evaluate(BAR_TOP) as number);
  // Above the bar and its shadow.
  const clip = { x: 0, y: 0, width: VIEWPORT.width, height: barTop - 40 };
  const preview = await page.screenshot({
    clip,
    path: join(ARTIFACTS, "preview-editor.png"),
  });

  // Publish the same changes; a visitor's render of them.
  await page.getByLabel("Message", { exact: true }).fill("Preview check");
  await page.getByRole("button", { name: "Publish" }).click();
  await waitStatus(page, "Published");
  const visitorContext = await browser.newContext({ viewport: VIEWPORT });
  const visitor = await visitorContext.newPage();
  await visitor.goto(`${site.url}en/`);
  await visitor.waitForLoadState("networkidle");
  const seen = await visitor.screenshot({
    clip,
    path: join(ARTIFACTS, "preview-visitor.png"),
  });
  // Pixel for pixel, but for a rounding of one or two levels in a channel:
  // the editor's page composites more layers (the overlay's host, the list
  // controls' hosts, hidden in Preview), and Chromium may then anti-alias a
  // rounded corner one level apart (seen: 9 pixels of a card's corner off
  // by 1 in red).
  assert.deepEqual(
    await pixelsApart(visitor, preview, seen, 2),
    0,
    "the preview and the visitor's render differ (see preview-*.png)",
  );
  await visitorContext.close();

  // After a reload, the bar still says Published, with the message.
  await page.reload();
  await waitStatus(page, "Published");
  await page.getByText("“Preview check”").waitFor();
  await page.screenshot({
    path: join(ARTIFACTS, "published-after-reload.png"),
  });

  // In Edit, a click places the caret in the button's text; Ctrl+click
  // follows its link in a new tab.
  const cta = page.getByRole("textbox", {
    name: "Edit link text",
    exact: true,
  });
  await cta.click();
  assert.equal(page.url(), `${site.url}en/?edit`);
  const opened = context.waitForEvent("page");
  await cta.click({ modifiers: ["Control"] });
  const tab = await opened;
  await tab.waitForLoadState();
  assert.equal(new URL(tab.url()).pathname, "/en/about/");
  await tab.close();
  assert.equal(page.url(), `${site.url}en/?edit`);

  // In Preview, links are live.
  await page.getByRole("button", { name: "Preview" }).click();
  await page.getByRole("link", { name: "Meet the team" }).click();
  await page.waitForURL(`${site.url}en/about/`);
  await context.close();
});

/**
 * How many pixels of two PNG screenshots of the same size differ by more
 * than `tolerance` in any channel, decoded by the browser's own canvas.
 */
async function pixelsApart(
  page: Page,
  a: Uint8Array,
  b: Uint8Array,
  tolerance: number,
): Promise<number> {
  const url = (png: Uint8Array) =>
    `data:image/png;base64,${Buffer.from(png).toString("base64")}`;
  // Run in the page as a string: the tests are checked without DOM types.
  const count = `(async (first, second, most) => {
    const pixels = async (src) => {
      const image = new Image();
      image.src = src;
      await image.decode();
      const canvas = new OffscreenCanvas(image.width, image.height);
      const context = canvas.getContext("2d");
      context.drawImage(image, 0, 0);
      return context.getImageData(0, 0, image.width, image.height).data;
    };
    const [x, y] = [await pixels(first), await pixels(second)];
    if (x.length !== y.length) return -1;
    let apart = 0;
    for (let index = 0; index < x.length; index += 4) {
      for (let channel = 0; channel < 4; channel++) {
        if (Math.abs(x[index + channel] - y[index + channel]) > most) {
          apart++;
          break;
        }
      }
    }
    return apart;
  })(${JSON.stringify(url(a))}, ${JSON.stringify(url(b))}, ${tolerance})`;
  return await page.evaluate(count) as number;
}
