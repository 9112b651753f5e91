/**
 * The time from an "Add after" click to the copy shown, on a page of 30
 * sections (the demo, `deno task demo`, in Chromium): the click's own work
 * (the list change in the session, the clone with its pointers rewritten,
 * its regions made editable, a rich-text editor among them) and the next
 * frame after it. The baseline, in the same run and on the same page, is
 * the bare DOM work a site would do itself: the section cloned and
 * inserted, then the next frame. Each is run 15 times, alternating (the
 * copy undone each time); medians are printed.
 * `npx --yes deno@2.9.6 run -A bench/list_copy.ts`.
 *
 * @module
 */

import { join } from "node:path";
import {
  EN_HOME,
  launchChromium,
  startDemo,
} from "../tests/browser/overlay_support.ts";

const SECTIONS = 30;
const RUNS = 15;

await using site = await startDemo();
const page = JSON.parse(await Deno.readTextFile(join(site.root, EN_HOME)));
const sample = page.sections[1];
page.sections = Array.from({ length: SECTIONS }, (_, index) => ({
  ...sample,
  id: `section-${index}`,
  heading: `Section ${index + 1}`,
}));
await Deno.writeTextFile(
  join(site.root, EN_HOME),
  JSON.stringify(page, null, 2) + "\n",
);
await site.git("commit", "-qam", "30 sections");

await using browser = await launchChromium();
const tab = await browser.newPage({ viewport: { width: 1280, height: 800 } });
tab.on("dialog", (dialog) => void dialog.accept());
await tab.goto(`${site.url}en/?edit`);
await tab.getByLabel("Site key").fill(site.key);
await tab.keyboard.press("Enter");
await tab.getByRole("status").filter({ hasText: /^No unsaved changes$/ })
  .waitFor();

declare const document: {
  querySelector(selector: string): {
    shadowRoot: { querySelector(selector: string): { click(): void } };
    cloneNode(deep: boolean): unknown;
    after(node: unknown): void;
    nextElementSibling: { remove(): void };
  };
};
declare function requestAnimationFrame(run: () => void): void;

const copy = () =>
  tab.evaluate(async () => {
    const frame = () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => setTimeout(resolve, 0))
      );
    await frame();
    const button = document.querySelector(
      '[data-inpage-item="/sections/14"] [data-inpage-controls]',
    ).shadowRoot.querySelector('button[aria-label="Add after"]');
    const start = performance.now();
    button.click();
    const done = performance.now();
    await frame();
    return [done - start, performance.now() - start];
  });
const bare = () =>
  tab.evaluate(async () => {
    const frame = () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => setTimeout(resolve, 0))
      );
    await frame();
    const section = document.querySelector('[data-inpage-item="/sections/14"]');
    const start = performance.now();
    section.after(section.cloneNode(true));
    const done = performance.now();
    await frame();
    const shown = performance.now() - start;
    section.nextElementSibling.remove();
    return [done - start, shown];
  });

const ours: number[][] = [];
const theirs: number[][] = [];
for (let run = 0; run < RUNS; run++) {
  ours.push(await copy());
  if (
    await tab.locator('[data-inpage-item="/sections/30"]').count() !== 1
  ) throw new Error("the copy is not shown");
  await tab.getByRole("button", { name: "Undo" }).click();
  await tab.getByRole("status").filter({ hasText: /^No unsaved changes$/ })
    .waitFor();
  theirs.push(await bare());
}
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const work = median(ours.map(([work]) => work!));
const shown = median(ours.map(([, shown]) => shown!));
const baseWork = median(theirs.map(([work]) => work!));
const baseShown = median(theirs.map(([, shown]) => shown!));
console.log(
  `Add after on ${SECTIONS} sections: the click's work ${ms(work)}, ` +
    `the copy shown (next frame) ${ms(shown)}`,
);
console.log(
  `bare clone and insert: ${ms(baseWork)}, shown ${ms(baseShown)}; ` +
    `ratio shown ${(shown / baseShown).toFixed(2)}×`,
);
