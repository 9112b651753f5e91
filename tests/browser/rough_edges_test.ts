/**
 * The rough edges a newcomer met, in Debian's Chromium on the demo, at
 * 1280×800 and at 390×844, each photographed (tests/browser/artifacts/,
 * `rough-*`):
 *
 * - two tabs on one page each change a different field: both changes are
 *   kept and published, each tab knowing of the other;
 * - a list item removed, and an "Add after" undone, leave no problem;
 * - the image dialog fits the screen with a large image, Escape asks
 *   before throwing it away, the decorative switch keeps the alt typed,
 *   and the alt typed is the page's `alt` at once;
 * - a flagged `<script>` heading holds Publish back, with the list, and
 *   nothing is sent;
 * - the rich-text link dialog refuses `javascript:` as it is typed and
 *   clears its error once the address is allowed; it offers "Remove link"
 *   only on a link;
 * - a notice never covers the field it is about;
 * - an image publish under the dev server's reload shows "Published"
 *   after the reload, with no leave prompt and no conflict.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import {
  ARTIFACTS,
  BOTH_SIZES,
  type EditingSite,
  EN_HOME,
  launchChromium,
  openMore,
  region,
  startDemo,
  typeAtEnd,
  waitStatus,
} from "./overlay_support.ts";

const SIZES = BOTH_SIZES;

type Size = (typeof SIZES)[number];

/** A page of a new browser context at a size, logged in on the English home. */
async function editor(
  browser: Browser,
  site: EditingSite,
  size: Size,
  path = "en/",
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: size.width, height: size.height },
    hasTouch: size.name === "phone",
  });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on("pageerror", (error) => console.error("page error:", error.message));
  await page.goto(`${site.url}${path}?edit`);
  await page.getByLabel(/^(Site key|Clé du site)/).fill(site.key);
  await page.keyboard.press("Enter");
  await page.locator("[data-inpage-overlay] .status[data-state]").filter({
    hasText: /No unsaved changes|Aucune modification/,
  }).waitFor();
  return page;
}

async function shoot(page: Page, name: string): Promise<void> {
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `rough-${name}.png`) });
}

/** Undo from the bar (on a phone, More shows it). */
async function undo(page: Page, size: Size): Promise<void> {
  if (size.name === "phone") await openMore(page);
  await page.getByRole("button", { name: "Undo", exact: true }).click();
}

/** The text of the element holding the focus, inside shadow roots too. */
const DEEP_FOCUS = `(() => {
  let element = document.activeElement;
  while (element?.shadowRoot?.activeElement) {
    element = element.shadowRoot.activeElement;
  }
  return element?.textContent ?? "";
})()`;

/** Whether two boxes overlap. */
function overlap(
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width &&
    a.y < b.y + b.height && b.y < a.y + a.height;
}

Deno.test("in Chromium at both sizes: two tabs on one page each change a different field; both changes are kept and published, and each tab knows of the other", async () => {
  await using site = await startDemo();
  await using browser = await launchChromium();
  for (const size of SIZES) {
    const one = await editor(browser, site, size);
    const two = await one.context().newPage();
    two.setDefaultTimeout(20_000);
    await two.goto(`${site.url}en/?edit`);
    await waitStatus(two, "No unsaved changes");
    for (const page of [one, two]) {
      await page.locator("[data-inpage-overlay] .tabs:not([hidden])").waitFor();
    }
    await typeAtEnd(one, "Edit title", ` (tab one, ${size.name})`);
    await typeAtEnd(two, "Edit heading, section 1", ` (tab two, ${size.name})`);
    await waitStatus(one, "1 unsaved change");
    await waitStatus(two, "1 unsaved change");
    await shoot(one, `tabs-${size.name}`);
    // Tab one reloads: its own work comes back, tab two's stays its own.
    await one.reload();
    await one.getByRole("button", { name: "Restore" }).click();
    await waitStatus(one, "1 unsaved change");
    assert.match(await region(one, "Edit title").innerText(), /tab one/);
    const drafts = await one.evaluate(
      'Object.keys(localStorage).filter((key) => key.includes("draft"))',
    ) as string[];
    assert.equal(drafts.length, 2, JSON.stringify(drafts));
    // Tab one publishes: tab two takes it, its own change on top.
    await one.getByRole("button", { name: "Publish", exact: true }).click();
    await waitStatus(one, "Published");
    await two.waitForFunction(
      'document.querySelector("h1")?.textContent?.includes("tab one")',
    );
    await shoot(two, `tabs-after-${size.name}`);
    await two.getByRole("button", { name: "Publish", exact: true }).click();
    await waitStatus(two, "Published");
    assert.equal(
      await two.getByRole("heading", { name: "Someone published meanwhile" })
        .count(),
      0,
    );
    const home = await site.page(EN_HOME);
    assert.match(String(home.title), new RegExp(`tab one, ${size.name}`));
    const sections = home.sections as Array<Record<string, string>>;
    assert.match(sections[0]!.heading!, new RegExp(`tab two, ${size.name}`));
    await one.context().close();
  }
});

Deno.test("in Chromium at both sizes: a list item removed and an Add after undone leave no problem; the count moves with each operation; one item's controls show", async () => {
  await using site = await startDemo();
  await using browser = await launchChromium();
  for (const size of SIZES) {
    const page = await editor(browser, site, size);
    const sections = page.locator(".sections > section");
    const addAfter = async (index: number) => {
      await sections.nth(index).locator("h2").click();
      await sections.nth(index).locator("[data-inpage-controls][data-shown]")
        .waitFor();
      await sections.nth(index).getByRole("button", { name: "Add after" })
        .click();
    };
    await addAfter(1);
    await waitStatus(page, "1 unsaved change");
    assert.equal(
      await page.locator("[data-inpage-controls][data-shown]").count(),
      1,
    );
    await addAfter(2);
    await waitStatus(page, "2 unsaved changes");
    await typeAtEnd(page, "Edit heading, section 4", " <b>");
    await page.getByRole("region", { name: "Problems to fix" }).waitFor();
    await shoot(page, `problem-${size.name}`);
    await sections.nth(3).getByRole("button", { name: "Remove" }).click();
    await waitStatus(page, "1 unsaved change");
    await page.getByRole("region", { name: "Problems to fix" }).waitFor({
      state: "hidden",
    });
    assert.equal(await page.locator("[data-inpage-invalid]").count(), 0);
    await undo(page, size); // the removal
    await undo(page, size); // the typing
    await undo(page, size); // the second Add after
    await undo(page, size); // the first Add after
    await waitStatus(page, "No unsaved changes");
    assert.equal(await sections.count(), 3);
    assert.equal(
      await page.getByRole("region", { name: "Problems to fix" }).isVisible(),
      false,
    );
    assert.equal(await page.locator("[data-inpage-invalid]").count(), 0);
    // On a phone, an item's controls are docked above the bar: they cover
    // no region.
    await sections.nth(1).locator("h2").click();
    const controls = page.locator("[data-inpage-controls][data-shown]");
    const box = await controls.boundingBox();
    assert.ok(box);
    if (size.name === "phone") {
      for (const other of await page.locator("[data-inpage-text]").all()) {
        const region = await other.boundingBox();
        if (region) {
          assert.ok(!overlap(box, region), "controls over a region");
        }
      }
    }
    await shoot(page, `controls-${size.name}`);
    await page.context().close();
  }
});

/** A 3,200 × 2,400 PNG drawn in the page, as bytes. */
async function largeImage(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(`(async () => {
    const canvas = new OffscreenCanvas(3200, 2400);
    const context = canvas.getContext("2d");
    const gradient = context.createLinearGradient(0, 0, 3200, 2400);
    gradient.addColorStop(0, "#1e3a8a");
    gradient.addColorStop(1, "#fbbf24");
    context.fillStyle = gradient;
    context.fillRect(0, 0, 3200, 2400);
    const blob = await canvas.convertToBlob({ type: "image/png" });
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let text = "";
    for (const byte of bytes) text += String.fromCharCode(byte);
    return btoa(text);
  })()`) as string;
  return Buffer.from(base64, "base64");
}

Deno.test("in Chromium at both sizes: the image dialog fits the screen with a large image; Escape asks first, Enter keeping the work; the decorative switch keeps the alt; the alt typed is the page's alt at once", async () => {
  await using site = await startDemo();
  await using browser = await launchChromium();
  for (const size of SIZES) {
    const page = await editor(browser, site, size);
    const buffer = await largeImage(page);
    await page.getByRole("button", { name: "Replace image: image" }).click();
    await page.getByLabel("Image file").setInputFiles({
      name: "big-hills.png",
      mimeType: "image/png",
      buffer,
    });
    await page.locator(".cropper-container").waitFor();
    for (const name of ["Use this image", "Cancel"]) {
      const box = await page.getByRole("button", { name, exact: true })
        .boundingBox();
      assert.ok(box, name);
      assert.ok(
        box.y >= 0 && box.y + box.height <= size.height && box.x >= 0 &&
          box.x + box.width <= size.width,
        `${name} at ${
          JSON.stringify(box)
        } lies outside ${size.width}×${size.height}`,
      );
    }
    await shoot(page, `image-dialog-${size.name}`);
    // Escape with a file chosen asks first; keeping edits goes on.
    await page.keyboard.press("Escape");
    await page.getByRole("heading", { name: "Discard the chosen image?" })
      .waitFor();
    await shoot(page, `image-escape-${size.name}`);
    // Enter after an Escape keeps the work: Keep editing has the focus.
    assert.equal(await page.evaluate(DEEP_FOCUS), "Keep editing");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Discard the chosen image?" })
      .waitFor({ state: "detached" });
    await page.locator(".cropper-container").waitFor();
    const alt = page.getByRole("textbox", { name: "Alt text" });
    await alt.fill("Big hills at dusk");
    const decorative = page.getByRole("checkbox", { name: "Decorative image" });
    await decorative.check();
    assert.equal(await alt.isDisabled(), true);
    assert.equal(await alt.inputValue(), "Big hills at dusk");
    await decorative.uncheck();
    assert.equal(await alt.inputValue(), "Big hills at dusk");
    await page.getByRole("button", { name: "Use this image" }).click();
    await page.locator(
      'img[data-inpage-image="/image"][alt="Big hills at dusk"]',
    )
      .waitFor({ state: "attached", timeout: 5_000 });
    await waitStatus(page, "1 unsaved change");
    await shoot(page, `image-applied-${size.name}`);
    await page.context().close();
  }
});

Deno.test("in Chromium at both sizes: a flagged <script> heading holds Publish back, with the list, and nothing is sent; a notice never covers the field it is about", async () => {
  await using site = await startDemo();
  await using browser = await launchChromium();
  for (const size of SIZES) {
    const page = await editor(browser, site, size);
    const saves: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/save")) saves.push(request.url());
    });
    // The last heading, near the bottom of the screen.
    const heading = region(page, "Edit heading, section 3");
    await heading.scrollIntoViewIfNeeded();
    await page.evaluate("scrollBy(0, -80)");
    await typeAtEnd(page, "Edit heading, section 3", " <script>");
    const problems = page.getByRole("region", { name: "Problems to fix" });
    await problems.waitFor();
    await page.waitForTimeout(200);
    const field = await heading.boundingBox();
    const notice = await problems.boundingBox();
    assert.ok(field && notice);
    assert.ok(
      !overlap(field, notice),
      `the problems ${JSON.stringify(notice)} cover the heading ${
        JSON.stringify(field)
      }`,
    );
    await shoot(page, `notice-${size.name}`);
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    const dialog = page.getByRole("dialog", {
      name: "Fix these fields before publishing",
    });
    await dialog.waitFor();
    assert.match(await dialog.innerText(), /Heading, section 3/);
    await shoot(page, `held-back-${size.name}`);
    await dialog.getByRole("button", { name: "Heading, section 3" }).click();
    await waitStatus(page, /^Not published: fix the outlined field first$/);
    assert.deepEqual(saves, []);
    await page.context().close();
  }
});

Deno.test("in Chromium at both sizes: the rich-text link dialog refuses javascript: as it is typed, clears its error once allowed, and offers Remove link only on a link", async () => {
  await using site = await startDemo();
  await using browser = await launchChromium();
  for (const size of SIZES) {
    const page = await editor(browser, site, size);
    const body = page.getByRole("textbox", {
      name: /^Edit text, section 1 \(rich text/,
    });
    await body.click();
    await page.keyboard.press("Control+Home");
    await page.keyboard.press("Shift+ArrowRight");
    await page.keyboard.press("Shift+ArrowRight");
    await page.keyboard.press("Control+k");
    const dialog = page.getByRole("dialog", { name: "Link" });
    await dialog.waitFor();
    assert.equal(
      await dialog.getByRole("button", { name: "Remove link" }).count(),
      0,
    );
    const address = dialog.getByRole("textbox", { name: "Address" });
    await address.pressSequentially("javascript:alert(1)");
    const refusal = dialog.getByText("This address is not allowed.");
    await refusal.waitFor();
    assert.equal(await address.getAttribute("aria-invalid"), "true");
    await shoot(page, `link-refused-${size.name}`);
    await address.fill("");
    await address.pressSequentially("/en/about/");
    await refusal.waitFor({ state: "detached" });
    assert.equal(await address.getAttribute("aria-invalid"), null);
    await dialog.getByRole("button", { name: "Apply" }).click();
    await body.locator('a[href="/en/about/"]').waitFor();
    // On a link, Remove link is offered.
    await body.locator('a[href="/en/about/"]').click();
    await page.keyboard.press("Control+k");
    await dialog.getByRole("button", { name: "Remove link" }).waitFor();
    await page.keyboard.press("Escape");
    await page.context().close();
  }
});

Deno.test("in Chromium at both sizes: an image publish under the dev server's reload shows Published after the reload, with no leave prompt and no conflict", async () => {
  await using site = await startDemo();
  await using browser = await launchChromium();
  const image = new URL(
    "../../examples/site/public/images/workbench-2ed45495a5b0.png",
    import.meta.url,
  ).pathname;
  for (const size of SIZES) {
    const page = await editor(browser, site, size);
    const prompts: string[] = [];
    page.on("dialog", (dialog) => {
      prompts.push(dialog.type());
      void dialog.accept();
    });
    await page.getByRole("button", { name: "Replace image: image" }).click();
    await page.getByLabel("Image file").setInputFiles(image);
    await page.getByRole("textbox", { name: "Alt text" }).fill(
      `A workbench (${size.name})`,
    );
    await page.getByRole("button", { name: "Use this image" }).click();
    await waitStatus(page, "1 unsaved change");
    // The dev server reloads the page as soon as the page file is written,
    // before the publish's answer comes back.
    await page.route("**/api/save", async (route) => {
      await route.fetch();
      await page.evaluate("location.reload()").catch(() => {});
      await route.abort().catch(() => {});
    });
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await page.waitForEvent("load");
    await page.unroute("**/api/save");
    await waitStatus(page, "Published");
    assert.equal(
      await page.getByRole("heading", {
        name: /Someone published meanwhile|Restore unsaved changes\?/,
      }).count(),
      0,
    );
    assert.deepEqual(prompts, []);
    const home = await site.page(EN_HOME);
    assert.equal(
      (home.image as Record<string, string>).alt,
      `A workbench (${size.name})`,
    );
    await shoot(page, `published-after-reload-${size.name}`);
    await page.context().close();
  }
});

Deno.test("in Chromium at both sizes: the bar keeps one size as its status changes (one row at 1,280 px); Escape closes More; the toolbar covers no neighbour; the Page panel's Escape takes its changes back and a long text keeps its text area; the drag grip has a name", async () => {
  await using site = await startDemo();
  await using browser = await launchChromium();
  for (const size of SIZES) {
    const page = await editor(browser, site, size);
    const bar = page.getByRole("region", { name: "Page editor" });
    const heights = [(await bar.boundingBox())!.height];
    await typeAtEnd(page, "Edit title", ".");
    await waitStatus(page, "1 unsaved change");
    heights.push((await bar.boundingBox())!.height);
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await waitStatus(page, "Published");
    heights.push((await bar.boundingBox())!.height);
    assert.deepEqual(new Set(heights).size, 1, JSON.stringify(heights));
    if (size.name === "desktop") assert.ok(heights[0]! < 60, `${heights[0]}`);
    // The toolbar of a rich text region: over no heading, button, link,
    // field or control; or docked above the bar, which the page keeps
    // room for.
    await page.getByRole("textbox", { name: /^Edit text, section 2 \(rich/ })
      .click();
    const toolbar = page.getByRole("toolbar", { name: "Text formatting" });
    await toolbar.waitFor();
    const box = (await toolbar.boundingBox())!;
    const docked = await toolbar.getAttribute("data-docked") !== null;
    if (!docked) {
      const others = page.locator(
        "h1, h2, button, a[href], [data-inpage-alt-control], [data-inpage-link-control], [data-inpage-text]",
      );
      for (const other of await others.all()) {
        const seen = await other.boundingBox();
        if (seen && seen.width > 0) {
          assert.ok(
            !overlap(box, seen),
            `the toolbar covers ${await other.evaluate((e) =>
              e.outerHTML.slice(0, 80)
            )}`,
          );
        }
      }
    } else {
      const barBox = (await bar.boundingBox())!;
      assert.ok(box.y + box.height <= barBox.y, "docked above the bar");
    }
    await shoot(page, `toolbar-${size.name}`);
    // The drag grip of a list item has a name.
    await page.locator(".sections > section").first().hover();
    if (size.name === "desktop") {
      await page.getByRole("img", { name: "Drag to move this section" }).first()
        .waitFor();
    }
    // Escape closes More, the focus back on it.
    await openMore(page);
    const more = page.getByRole("button", { name: "More", exact: true });
    assert.equal(await more.getAttribute("aria-expanded"), "true");
    await page.keyboard.press("Escape");
    assert.equal(await more.getAttribute("aria-expanded"), "false");
    assert.equal(await page.evaluate(DEEP_FOCUS), "More");
    // The Page panel: Escape takes its changes back; a long description
    // shortened keeps its text area.
    await openMore(page);
    await page.getByRole("button", { name: "Page", exact: true }).click();
    const description = page.getByRole("textbox", { name: "Description" });
    assert.equal(await description.evaluate((e) => e.tagName), "TEXTAREA");
    await description.fill("Short.");
    await waitStatus(page, "1 unsaved change");
    await page.keyboard.press("Escape");
    await waitStatus(page, /^(Published|No unsaved changes)$/);
    await openMore(page);
    await page.getByRole("button", { name: "Page", exact: true }).click();
    await description.fill("Short.");
    await page.getByRole("button", { name: "Done" }).click();
    await waitStatus(page, "1 unsaved change");
    await openMore(page);
    await page.getByRole("button", { name: "Page", exact: true }).click();
    assert.equal(await description.evaluate((e) => e.tagName), "TEXTAREA");
    assert.equal(await description.inputValue(), "Short.");
    await shoot(page, `page-panel-${size.name}`);
    await page.getByRole("button", { name: "Done" }).click();
    await page.context().close();
  }
});

Deno.test("in Chromium at both sizes: the conflict view's question goes once every field is chosen; History restores a field no region shows, from a list in its banner that covers no field", async () => {
  await using site = await startDemo();
  await using browser = await launchChromium();
  for (const size of SIZES) {
    const page = await editor(browser, site, size);
    // Someone else publishes the title meanwhile.
    await typeAtEnd(page, "Edit title", ` (mine, ${size.name})`);
    const home = await site.page(EN_HOME);
    await Deno.writeTextFile(
      join(site.root, EN_HOME),
      JSON.stringify({ ...home, title: `Theirs (${size.name})` }, null, 2) +
        "\n",
    );
    await site.git("commit", "-qam", "Their title");
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    const conflict = page.getByRole("dialog", {
      name: "Someone published meanwhile",
    });
    await conflict.waitFor();
    await conflict.getByRole("button", { name: "Keep mine" }).click();
    const ask = conflict.getByText(
      "Choose “Use mine” or “Use theirs” for each field.",
    );
    await ask.waitFor();
    await conflict.getByRole("button", { name: "Use mine" }).click();
    await ask.waitFor({ state: "detached" });
    await shoot(page, `conflict-${size.name}`);
    await conflict.getByRole("button", { name: "Keep mine" }).click();
    await waitStatus(page, "Published");
    // The description, which no region shows, changed in the Page panel
    // and published; then History brings the old one back.
    await openMore(page);
    await page.getByRole("button", { name: "Page", exact: true }).click();
    await page.getByRole("textbox", { name: "Description" }).fill(
      `A new description (${size.name}).`,
    );
    await page.getByRole("button", { name: "Done" }).click();
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await waitStatus(page, "Published");
    await openMore(page);
    await page.getByRole("button", { name: "History", exact: true }).click();
    const panel = page.getByRole("dialog", { name: "History" });
    await panel.getByRole("listitem").nth(1).waitFor();
    await panel.getByRole("listitem").nth(1).getByRole("button").click();
    const banner = page.getByRole("region", { name: /^Viewing the version/ });
    await banner.waitFor();
    const restore = banner.getByRole("button", {
      name: "Restore this field: Description",
    });
    await restore.waitFor();
    // The restore buttons are in the banner, not over the page; the page
    // keeps room for the banner: its last field scrolls above it.
    const fields = await banner.getByRole("button", {
      name: /^Restore this field: /,
    }).count();
    assert.equal(
      await page.locator("[data-inpage-overlay] button").filter({
        hasText: /^Restore this field$/,
      }).count(),
      fields,
    );
    await page.evaluate("scrollTo(0, document.documentElement.scrollHeight)");
    const last = await page.locator("[data-inpage-text]").last().boundingBox();
    const under = await banner.boundingBox();
    assert.ok(last && under && last.y + last.height <= under.y + 0.5);
    await shoot(page, `history-${size.name}`);
    await restore.click();
    await banner.getByRole("button", { name: "Restored: Description" })
      .waitFor();
    await banner.getByRole("button", { name: "Back to current" }).click();
    await waitStatus(page, "1 unsaved change");
    await page.context().close();
  }
});
