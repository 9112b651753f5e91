/**
 * A key pressed in the same moment as the click before it acts where the
 * click put the caret, in Debian's Chromium, in a rich text region and in
 * a markdown region (the demo's home, with a markdown region put on its
 * description). Chromium tells the editor of a new selection in a task of
 * its own, after input already queued: here the selection is moved and
 * the key sent in one task, which no wait can separate, as a fast hand or
 * a script does it. Before the editors read the browser's selection at
 * each key (`overlay/editor_props.ts`), Enter split the paragraph the
 * caret had left, and Ctrl+B made nothing bold.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { launchChromium, startDemo, waitStatus } from "./overlay_support.ts";

declare const document: {
  querySelector(selector: string): DomElement | null;
  createTreeWalker(root: DomElement, show: number): {
    nextNode(): DomText | null;
  };
  getSelection(): {
    setBaseAndExtent(a: DomText, b: number, c: DomText, d: number): void;
  };
};
interface DomElement {
  dispatchEvent(event: unknown): boolean;
  innerHTML: string;
}
interface DomText {
  textContent: string;
}
declare const KeyboardEvent: new (type: string, init: unknown) => unknown;

/** The markdown region put on the home's description. */
const MARKDOWN = '<div class="prose" data-inpage-markdown="/description">' +
  "<p>Inpage Studio builds small static sites whose content is JSON in " +
  "git, edited in place.</p></div>";

/**
 * In one task: selects `word` (or puts the caret at the end of the text
 * when `word` is empty) in the editor under `selector`, and sends a key
 * down to it.
 *
 * @returns the editor's markup after the key
 */
function selectAndPress(
  page: Page,
  selector: string,
  word: string,
  key: { key: string; ctrlKey?: boolean },
): Promise<string> {
  return page.evaluate(({ selector, word, key }) => {
    const editor = document.querySelector(`${selector} .tiptap`)!;
    const walker = document.createTreeWalker(editor, 4);
    let last: DomText | null = null;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = word ? node.textContent.indexOf(word) : -1;
      if (at >= 0) {
        document.getSelection().setBaseAndExtent(
          node,
          at,
          node,
          at + word.length,
        );
        last = null;
        break;
      }
      last = node;
    }
    if (last) {
      const end = last.textContent.length;
      document.getSelection().setBaseAndExtent(last, end, last, end);
    }
    editor.dispatchEvent(
      new KeyboardEvent("keydown", {
        ...key,
        code: key.key === "Enter" ? "Enter" : `Key${key.key.toUpperCase()}`,
        keyCode: key.key === "Enter" ? 13 : key.key.toUpperCase().charCodeAt(0),
        bubbles: true,
        cancelable: true,
      }),
    );
    return editor.innerHTML;
  }, { selector, word, key });
}

Deno.test("in Chromium: Enter and Ctrl+B pressed in the same moment as the selection moved act where it moved, in rich text and in markdown", async () => {
  await using site = await startDemo();
  await using browser = await launchChromium();
  const page = await browser.newPage({
    viewport: { width: 1280, height: 800 },
  });
  page.setDefaultTimeout(20_000);
  page.on("pageerror", (error) => console.error("page error:", error));
  await page.route(`${site.url}en/?edit`, async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace("<main>", MARKDOWN + "<main>");
    await route.fulfill({ response, body: html });
  });
  await page.goto(`${site.url}en/?edit`);
  await page.getByLabel("Site key").fill(site.key);
  await page.keyboard.press("Enter");
  await waitStatus(page, "No unsaved changes");

  for (
    const [selector, word] of [
      ['[data-inpage-html="/lead"]', "repository"],
      ['[data-inpage-markdown="/description"]', "static"],
    ] as const
  ) {
    // The editor is there, its caret at the start (Ctrl+Home).
    await page.locator(selector).click();
    await page.locator(`${selector} .tiptap`).waitFor();
    await page.keyboard.press("Control+Home");
    await page.waitForTimeout(100);

    const bolded = await selectAndPress(page, selector, word, {
      key: "b",
      ctrlKey: true,
    });
    assert.match(
      bolded,
      new RegExp(`<strong>${word}</strong>`),
      `${selector}: Ctrl+B`,
    );

    await page.keyboard.press("Control+Home");
    await page.waitForTimeout(100);
    const before = await page.locator(`${selector} .tiptap > p`).first()
      .innerText();
    const split = await selectAndPress(page, selector, "", { key: "Enter" });
    assert.match(split, /<p><br[^>]*><\/p>$/, `${selector}: Enter at the end`);
    assert.equal(
      await page.locator(`${selector} .tiptap > p`).first().innerText(),
      before,
      `${selector}: the first paragraph is whole`,
    );
  }
});
