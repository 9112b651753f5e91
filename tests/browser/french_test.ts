/**
 * The overlay on /fr/, in Debian's Chromium on the demo, at 1280×800 and
 * 390×844: no English word in any control, dialog or status the overlay
 * shows (the bar, More, the list controls, the link and alt controls, the
 * toolbar, the Page panel, History, the link, image and restore dialogs);
 * one format for every date; and a publish made on the English page is
 * not announced on the French one. Photographed as `french-*`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { en } from "../../overlay/i18n/en.ts";
import { fr } from "../../overlay/i18n/fr.ts";
import {
  ARTIFACTS,
  BOTH_SIZES,
  type EditingSite,
  launchChromium,
  openMore,
  startDemo,
} from "./overlay_support.ts";

const SIZES = BOTH_SIZES;

/** The words of the English table that the French one says otherwise. */
function englishWords(): Set<string> {
  const strings = (value: unknown): string[] =>
    typeof value === "string"
      ? [value]
      : Object.values(value as Record<string, string>);
  const french = new Set(
    Object.values(fr).flatMap(strings).flatMap((value) =>
      value.match(/\p{L}+/gu) ?? []
    ),
  );
  const words = new Set<string>();
  for (const value of Object.values(en).flatMap(strings)) {
    for (
      const word of value.replace(/\{\w+\}/g, "").match(/\p{L}{3,}/gu) ?? []
    ) {
      if (!french.has(word)) words.add(word);
    }
  }
  return words;
}

/**
 * Every string the overlay shows or names: the text, names, titles and
 * placeholders in its shadow roots (its interface, the list, link and alt
 * controls) and the names it gives the page's regions.
 */
const OVERLAY_STRINGS = `(() => {
  const found = [];
  const take = (element) => {
    for (const name of ["aria-label", "title", "placeholder"]) {
      const value = element.getAttribute(name);
      if (value) found.push(value);
    }
  };
  const walk = (root) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let node = walker.currentNode; node; node = walker.nextNode()) {
      if (node.nodeType === Node.TEXT_NODE) {
        const parent = node.parentElement;
        if (parent && parent.closest("style")) continue;
        if (parent && parent.checkVisibility && !parent.checkVisibility()) continue;
        const text = node.textContent.trim();
        if (text) found.push(text);
      } else if (node.nodeType === Node.ELEMENT_NODE) {
        take(node);
        if (node.shadowRoot) walk(node.shadowRoot);
      }
    }
  };
  for (const host of document.querySelectorAll("[data-inpage-overlay], [data-inpage-controls], [data-inpage-link-control], [data-inpage-alt-control], [data-inpage-empty]")) {
    if (host.shadowRoot) walk(host.shadowRoot);
  }
  for (const region of document.querySelectorAll("[data-inpage-text], [data-inpage-html], [data-inpage-image], [data-inpage-html] [role=textbox]")) {
    take(region);
  }
  return found;
})()`;

/** The overlay's strings holding an English word, in the state shown now. */
async function english(page: Page, state: string): Promise<string[]> {
  const words = englishWords();
  const strings = await page.evaluate(OVERLAY_STRINGS) as string[];
  return strings.filter((value) =>
    (value.match(/\p{L}+/gu) ?? []).some((word) => words.has(word))
  ).map((value) => `${state}: ${value}`);
}

/** A French date as the overlay writes one, in a string. */
const FRENCH_DATE = /\b\d{1,2} [\p{L}]+\.? \d{4}(?:,| à) \d{1,2}:\d{2}\b/u;

async function login(page: Page, site: EditingSite, path: string) {
  await page.goto(`${site.url}${path}?edit`);
  const key = page.getByLabel(/^(Site key|Clé du site)/);
  await key.waitFor();
  await key.fill(site.key);
  await page.keyboard.press("Enter");
}

Deno.test("in Chromium at both sizes: on /fr/ no English word in any control, dialog or status, one date format, and no publish of the English page announced", async () => {
  await using site = await startDemo();
  await using browser = await launchChromium();
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  const shoot = (page: Page, name: string) =>
    page.screenshot({ path: join(ARTIFACTS, `french-${name}.png`) });
  for (const size of SIZES) {
    const context = await browser.newContext({
      viewport: { width: size.width, height: size.height },
    });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const found: string[] = [];
    // A publish on the English page.
    await login(page, site, "en/");
    await page.getByRole("status").filter({ hasText: "No unsaved changes" })
      .waitFor();
    await page.getByRole("textbox", { name: "Edit title" }).click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type(` (${size.name})`);
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await page.getByRole("status").filter({ hasText: /^Published$/ }).waitFor();
    // The same tab on the French page: that publish is not announced.
    await page.goto(`${site.url}fr/?edit`);
    const status = page.getByRole("status");
    await status.filter({ hasText: "Aucune modification non enregistrée" })
      .waitFor();
    found.push(...await english(page, "bar"));
    await shoot(page, `bar-${size.name}`);
    await openMore(page);
    found.push(...await english(page, "more"));
    await page.getByRole("button", { name: "Page", exact: true }).click();
    found.push(...await english(page, "page panel"));
    await shoot(page, `page-panel-${size.name}`);
    await page.getByRole("dialog").getByRole("button", { name: "Annuler" })
      .click();
    // A change, then a reload: the restore dialog's date.
    await page.getByRole("textbox", { name: "Modifier titre", exact: true })
      .click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type(" !");
    await status.filter({ hasText: "1 modification non enregistrée" })
      .waitFor();
    // The list controls, the link and alt controls, the toolbar.
    await page.locator(".sections > section").first().hover();
    const body = page.getByRole("textbox", {
      name: /^Modifier texte, section 1/,
    });
    await body.click();
    await page.getByRole("toolbar").waitFor();
    found.push(...await english(page, "editing"));
    await shoot(page, `editing-${size.name}`);
    await page.keyboard.press("Control+k");
    found.push(...await english(page, "link dialog"));
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: /^Remplacer l’image/ }).click();
    found.push(...await english(page, "image dialog"));
    await shoot(page, `image-dialog-${size.name}`);
    await page.keyboard.press("Escape");
    await page.reload();
    const restore = page.getByRole("dialog", {
      name: "Restaurer les modifications non enregistrées ?",
    });
    await restore.waitFor();
    const restoreText = await restore.innerText();
    assert.match(restoreText, FRENCH_DATE);
    found.push(...await english(page, "restore dialog"));
    await shoot(page, `restore-${size.name}`);
    await restore.getByRole("button", { name: "Restaurer" }).click();
    // History: its dates in the same format.
    await openMore(page);
    await page.getByRole("button", { name: "Historique", exact: true }).click();
    const history = page.getByRole("dialog", { name: "Historique" });
    await history.getByRole("listitem").first().waitFor();
    for (const entry of await history.getByRole("listitem").allInnerTexts()) {
      assert.match(entry, FRENCH_DATE, entry);
    }
    found.push(...await english(page, "history"));
    await shoot(page, `history-${size.name}`);
    await page.keyboard.press("Escape");
    assert.deepEqual(found, []);
    await context.close();
  }
});
