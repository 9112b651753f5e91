/**
 * Chosen images stay in the edit session until publish, in Debian's
 * Chromium on the demo (`deno task demo`): an image chosen and then
 * discarded never reaches the repository; one chosen and published lands
 * with its page; where the canvas cannot make WebP, the image goes up as
 * JPEG (or PNG) and the overlay says so.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import {
  ARTIFACTS,
  type EditingSite,
  launchChromium,
  startDemo,
} from "./overlay_support.ts";

const IMAGE = new URL(
  "../../examples/site/public/images/hills-at-dawn-98c9ac741e4e.png",
  import.meta.url,
).pathname;

/** A canvas that gives PNG when asked for WebP, as some browsers do. */
const NO_WEBP = `(() => {
  const toBlob = HTMLCanvasElement.prototype.toBlob;
  HTMLCanvasElement.prototype.toBlob = function (callback, type, quality) {
    return toBlob.call(this, callback, type === "image/webp" ? "image/png" : type, quality);
  };
})()`;

async function waitStatus(page: Page, text: string): Promise<void> {
  await page.getByRole("status").filter({ hasText: new RegExp(`^${text}$`) })
    .waitFor();
}

async function openEditor(
  browser: Browser,
  site: EditingSite,
  script?: string,
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
  });
  if (script) await context.addInitScript(script);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on("pageerror", (error) => console.error("page error:", error.message));
  page.on("dialog", (dialog) => void dialog.accept());
  await page.goto(`${site.url}en/?edit`);
  await page.getByLabel("Site key").fill(site.key);
  await page.keyboard.press("Enter");
  await waitStatus(page, "No unsaved changes");
  return page;
}

async function chooseImage(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Replace image: image" }).click();
  await page.getByLabel("Image file").setInputFiles(IMAGE);
  await page.locator("button:enabled", { hasText: "Use this image" })
    .waitFor();
  // A new file needs its own alt text.
  await page.getByLabel("Alt text").fill("Hills at dawn");
}

async function repository(site: EditingSite) {
  return {
    commits: Number((await site.git("rev-list", "--count", "HEAD")).trim()),
    images: (await Array.fromAsync(
      Deno.readDir(join(site.root, "public/images")),
    )).map((entry) => entry.name).sort(),
  };
}

Deno.test("in Chromium: an image chosen then discarded never reaches the repository; one chosen and published lands with its page", async () => {
  await using site = await startDemo();
  await using browser = await launchChromium();
  const page = await openEditor(browser, site);
  const before = await repository(site);

  await chooseImage(page);
  await page.getByRole("button", { name: "Use this image" }).click();
  await waitStatus(page, "1 unsaved change");
  // The page shows the chosen image from its object URL, at once.
  assert.match(
    await page.locator('[data-inpage-image="/image"]').getAttribute("src") ??
      "",
    /^blob:/,
  );
  await page.getByRole("button", { name: "Discard all" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Discard all" })
    .click();
  await waitStatus(page, "No unsaved changes");
  await page.waitForTimeout(300);
  assert.deepEqual(await repository(site), before);

  // Kept across a reload, as a draft with its image.
  await chooseImage(page);
  await page.getByLabel("Alt text").fill("Hills, chosen");
  await page.getByRole("button", { name: "Use this image" }).click();
  await waitStatus(page, "1 unsaved change");
  assert.deepEqual(await repository(site), before);
  await page.reload();
  await page.getByRole("button", { name: "Restore" }).click();
  await waitStatus(page, "1 unsaved change");
  const shown = await page.locator('[data-inpage-image="/image"]')
    .getAttribute("src");
  assert.match(shown ?? "", /^blob:/);
  assert.ok(
    await page.locator('[data-inpage-image="/image"]').evaluate((image) =>
      (image as unknown as { naturalWidth: number }).naturalWidth > 0
    ),
    "the restored image shows",
  );
  await page.getByLabel("Message", { exact: true }).fill("New picture");
  await page.getByRole("button", { name: "Publish" }).click();
  await waitStatus(page, "Published");
  const after = await repository(site);
  const media = (await site.page()).image as Record<string, unknown>;
  assert.match(String(media.src), /^hills-at-dawn-[0-9a-f]{12}\.webp$/);
  assert.equal(media.alt, "Hills, chosen");
  assert.deepEqual(
    after.images,
    [...before.images, String(media.src)].sort(),
  );
  assert.equal(
    after.commits,
    before.commits + 1,
    "one commit: the page and its image (the upload was staged)",
  );
  assert.deepEqual(
    (await site.git("show", "--name-only", "--format=", "HEAD")).trim()
      .split("\n"),
    [`public/images/${media.src}`, "src/content/pages/en/home.json"],
  );
  // Another change before the site renders the page again: the image goes
  // on showing as chosen (a static site may not serve its file yet).
  await page.getByRole("textbox", { name: "Edit title" }).click();
  await page.keyboard.press("End");
  await page.keyboard.type("!");
  await waitStatus(page, "1 unsaved change");
  const region = page.locator('[data-inpage-image="/image"]');
  assert.match(await region.getAttribute("src") ?? "", /^blob:/);
  assert.equal(await region.getAttribute("data-inpage-src"), media.src);
  assert.ok(
    await region.evaluate((image) =>
      (image as unknown as { naturalWidth: number }).naturalWidth > 0
    ),
    "the chosen image still shows",
  );
  await page.context().close();
});

Deno.test("in Chromium: a canvas without WebP gives a JPEG upload, and the overlay says so", async () => {
  await using site = await startDemo();
  await using browser = await launchChromium();
  const page = await openEditor(browser, site, NO_WEBP);
  await chooseImage(page);
  await page.getByText("This browser cannot make WebP images").waitFor();
  await page.screenshot({ path: join(ARTIFACTS, "image-no-webp.png") });
  await page.getByRole("button", { name: "Use this image" }).click();
  await waitStatus(page, "1 unsaved change");
  await page.getByRole("alert").getByText("saved as JPEG").waitFor();
  await page.getByRole("button", { name: "Publish" }).click();
  await waitStatus(page, "Published");
  const media = (await site.page()).image as Record<string, unknown>;
  assert.match(String(media.src), /^hills-at-dawn-[0-9a-f]{12}\.(jpg|png)$/);
  const bytes = await Deno.readFile(
    join(site.root, "public/images", String(media.src)),
  );
  const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
  const png = bytes[0] === 0x89 && bytes[1] === 0x50;
  assert.ok(jpeg || png, "a JPEG or a PNG");
  await page.context().close();
});
