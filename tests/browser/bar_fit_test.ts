/**
 * The bar fits the window, in Debian's Chromium, in English and in French,
 * at laptop and tablet widths between the phone's layout and a wide
 * screen (1024, 1100, 1280 and 1440 pixels), with no change and with one:
 * its status is read whole, and every control of the bar is inside the
 * window (a bar too wide for the window wraps onto a second row). In
 * French at 1280×800 the status was cut ("Aucune modification n"), and at
 * 1024 More and the minimise button were past the window's edge.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import {
  ARTIFACTS,
  launchChromium,
  startDemo,
  waitStatus,
} from "./overlay_support.ts";

/** What does not fit: controls outside the window, a status cut. */
function misfits(page: Page): Promise<string[]> {
  return page.locator(".bar").evaluate((bar) => {
    const found: string[] = [];
    const width = bar.ownerDocument.documentElement.clientWidth;
    for (const button of bar.querySelectorAll("button")) {
      const box = button.getBoundingClientRect();
      if (box.width === 0 || button.closest(".menu")) continue;
      if (box.left < 0 || box.right > width) {
        found.push(`${button.textContent} at ${box.left}–${box.right}`);
      }
    }
    const status = bar.querySelector(".status")!.getBoundingClientRect();
    const state = bar.querySelector(".state")!.getBoundingClientRect();
    if (status.right > state.right + 0.5) {
      found.push(`the status cut at ${state.right} of ${status.right}`);
    }
    return found;
  });
}

Deno.test("in Chromium: the bar's status is whole and its controls are in the window from 1024 to 1440 pixels wide, in English and in French", async () => {
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  await using site = await startDemo();
  await using browser = await launchChromium();
  // One login for every page (the login budget is small).
  const context = await browser.newContext();
  const first = await context.newPage();
  await first.goto(`${site.url}en/?edit`);
  await first.getByLabel("Site key").fill(site.key);
  await first.keyboard.press("Enter");
  await waitStatus(first, "No unsaved changes");
  await first.close();
  for (const language of ["en", "fr"]) {
    for (const width of [1024, 1100, 1280, 1440]) {
      const page = await context.newPage();
      await page.setViewportSize({ width, height: 800 });
      page.setDefaultTimeout(20_000);
      await page.goto(`${site.url}${language}/?edit`);
      await waitStatus(page, /^(No unsaved changes|Aucune modification)/);
      assert.deepEqual(await misfits(page), [], `${language} ${width}`);
      await page.getByRole("textbox").first().click();
      await page.keyboard.type(" x");
      await waitStatus(page, /^1 (unsaved change|modification)/);
      assert.deepEqual(await misfits(page), [], `${language} ${width}, 1`);
      await page.screenshot({
        path: join(ARTIFACTS, `bar-fit-${language}-${width}.png`),
        clip: { x: 0, y: 800 - 130, width, height: 130 },
      });
      // The change is left unpublished: the next page starts clean.
      const discard = /^(Discard all|Tout abandonner)$/;
      await page.getByRole("button", { name: discard }).click();
      await page.getByRole("dialog").getByRole("button", { name: discard })
        .click();
      await waitStatus(page, /^(No unsaved changes|Aucune modification)/);
      await page.close();
    }
  }
});
