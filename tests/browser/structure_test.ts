/**
 * Structure in place, in Debian's Chromium on the demo (`deno task demo`):
 * a section copied and its copy's heading edited, moved to the top, another
 * removed and brought back by undo, a navigation link's address changed and
 * the description set in the Page panel, then one publish holding exactly
 * those changes; a reload shows them as the site renders them. Then a copy
 * and a move by keyboard alone. The list controls, the link dialog and the
 * Page panel are photographed at 1280×800 and 390×844
 * (tests/browser/artifacts/) and audited with axe-core.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import axe from "axe-core";
import type { Page } from "playwright-core";
import {
  ARTIFACTS,
  type EditingSite,
  launchChromium,
  openMore,
  startDemo,
} from "./overlay_support.ts";

const IMAGE = new URL(
  "../../examples/site/public/images/hills-at-dawn-98c9ac741e4e.png",
  import.meta.url,
).pathname;

const SIZES = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

async function waitStatus(page: Page, text: string): Promise<void> {
  try {
    await page.getByRole("status").filter({ hasText: new RegExp(`^${text}$`) })
      .waitFor();
  } catch (error) {
    const shown = await page.locator(".ui").innerText().catch(() => "");
    throw new Error(
      `Expected the status ${text}; the overlay shows: ${shown}`,
      {
        cause: error,
      },
    );
  }
}

async function audit(page: Page, state: string): Promise<void> {
  await page.addScriptTag({ content: axe.source });
  const found = await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const axe = (globalThis as any).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    // deno-lint-ignore no-explicit-any
    return result.violations.flatMap((violation: any) =>
      // deno-lint-ignore no-explicit-any
      violation.nodes.map((node: any) => ({
        id: violation.id,
        impact: node.impact ?? violation.impact,
        target: JSON.stringify(node.target),
        html: String(node.html).slice(0, 160),
      }))
    );
  });
  const serious = found.filter((
    item: { impact: string; target: string; html: string },
  ) =>
    (item.impact === "serious" || item.impact === "critical") &&
    (item.target.includes("data-inpage") || item.html.includes("data-inpage"))
  );
  assert.deepEqual(serious, [], `${state}: ${JSON.stringify(serious)}`);
}

/** What the page's scripts see of an element, here. */
interface Element {
  shadowRoot: { activeElement: Element | null } | null;
  getAttribute(name: string): string | null;
}
declare const document: { activeElement: Element | null };

/** Photographs the page at both sizes, then audits it. */
async function shoot(
  page: Page,
  name: string,
  before?: () => Promise<void>,
): Promise<void> {
  const size = page.viewportSize();
  for (const { name: device, width, height } of SIZES) {
    await page.setViewportSize({ width, height });
    await before?.();
    await page.screenshot({
      path: join(ARTIFACTS, `structure-${name}-${device}.png`),
    });
  }
  if (size) await page.setViewportSize(size);
  await before?.();
  await audit(page, name);
}

const headings = (page: Page) =>
  page.locator(".sections > section h2").allInnerTexts();
const ids = (page: Page) =>
  page.locator(".sections > section").evaluateAll((sections) =>
    sections.map((section) => section.id)
  );
const announced = (page: Page) =>
  page.locator("[data-inpage-overlay] .announce");

Deno.test("in Chromium: sections copied, moved, removed and brought back, a navigation link and the description edited, published as exactly those changes", async (t) => {
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  await using site: EditingSite = await startDemo();
  await using browser = await launchChromium();
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("dialog", (dialog) => void dialog.accept());
  await page.goto(`${site.url}en/?edit`);
  await page.getByLabel("Site key").fill(site.key);
  await page.keyboard.press("Enter");
  await waitStatus(page, "No unsaved changes");
  const before = await site.page();
  const commits = (await site.git("rev-list", "--count", "HEAD")).trim();
  const original = await headings(page);
  assert.deepEqual(await ids(page), ["content", "rules", "next"]);

  await t.step(
    "1. copy the second section and edit the copy's heading",
    async () => {
      await page.locator("#rules").hover();
      await page.locator("#rules").getByRole("button", { name: "Add after" })
        .click();
      assert.deepEqual(await ids(page), [
        "content",
        "rules",
        "rules-2",
        "next",
      ]);
      await waitStatus(page, "1 unsaved change");
      await announced(page).filter({
        hasText: "Added a copy of section 2 as section 3",
      }).waitFor({ state: "attached" });
      const heading = page.getByRole("textbox", {
        name: "Edit heading, section 3",
      });
      assert.equal(await heading.innerText(), original[1]);
      await heading.click();
      await page.keyboard.press("Control+A");
      await page.keyboard.type("A copied section");
      // The copy's body is a rich-text region of its own.
      await page.getByRole("textbox", {
        name: /^Edit text, section 3 \(rich text/,
      })
        .waitFor();
      await shoot(page, "list-controls", async () => {
        await page.locator("#rules-2 .prose").hover();
      });
    },
  );

  await t.step(
    "2. move it to the top, and remove another section",
    async () => {
      const copy = page.locator("#rules-2");
      await copy.hover();
      await copy.getByRole("button", { name: "Move up" }).click();
      await announced(page).filter({
        hasText: "Moved section 3 to position 2",
      }).waitFor({ state: "attached" });
      await copy.getByRole("button", { name: "Move up" }).click();
      await announced(page).filter({
        hasText: "Moved section 2 to position 1",
      }).waitFor({ state: "attached" });
      assert.deepEqual(await ids(page), [
        "rules-2",
        "content",
        "rules",
        "next",
      ]);
      assert.equal(
        await copy.getByRole("button", { name: "Move up" }).isDisabled(),
        true,
      );
      // Its heading still edits the copy, now at /sections/0.
      assert.equal(
        await page.getByRole("textbox", { name: "Edit heading, section 1" })
          .innerText(),
        "A copied section",
      );
      await page.locator("#content").hover();
      await page.locator("#content").getByRole("button", { name: "Remove" })
        .click();
      assert.deepEqual(await ids(page), ["rules-2", "rules", "next"]);
    },
  );

  await t.step("3. undo the remove", async () => {
    await page.getByRole("button", { name: "Undo" }).click();
    assert.deepEqual(await ids(page), ["rules-2", "content", "rules", "next"]);
    assert.deepEqual(await headings(page), [
      "A copied section",
      ...original,
    ]);
    // The section brought back edits its own field.
    const body = page.getByRole("textbox", {
      name: /^Edit text, section 2 \(rich text/,
    });
    assert.match(await body.innerText(), /Each page is one file/);
  });

  await t.step(
    "4. change a navigation link's address, and the description in the Page panel",
    async () => {
      const about = page.locator('[data-inpage-link="/nav/1/link"]');
      await shoot(page, "nav-controls", async () => {
        await about.hover();
      });
      // The navigation's link is an item of its list: Edit link is among its
      // controls, shown below it.
      await page.locator(
        '[data-inpage-link="/nav/1/link"] + [data-inpage-controls]',
      ).getByRole("button", { name: "Edit link" }).click();
      const address = page.getByRole("combobox", { name: "Address" });
      await address.fill("javascript:alert(1)");
      await page.getByText("This address is not allowed.").waitFor();
      await address.fill("/fr/about/");
      await page.getByRole("textbox", { name: "Title (optional)" }).waitFor();
      await shoot(page, "link-popover");
      await page.getByRole("button", { name: "Apply" }).click();
      // Applied when the dialog's close event comes, a task after the click.
      await page.locator('[data-inpage-link="/nav/1/link"][href="/fr/about/"]')
        .waitFor();
      assert.equal(await about.getAttribute("href"), "/fr/about/");

      await openMore(page);

      await openMore(page);
      await page.getByRole("button", { name: "Page", exact: true }).click();
      const description = page.getByRole("textbox", { name: "Description" });
      await description.fill("Small sites whose words are edited in place.");
      await shoot(page, "page-panel");
      await page.getByRole("button", { name: "Done" }).click();
      await waitStatus(page, "3 unsaved changes");
    },
  );

  await t.step(
    "5. publish: the commit holds exactly those changes, and a reload shows them",
    async () => {
      await page.getByRole("button", { name: "Publish" }).click();
      await waitStatus(page, "Published");
      const after = await site.page();
      const expected = structuredClone(before) as {
        sections: Array<Record<string, unknown>>;
        nav: Array<{ link: Record<string, unknown> }>;
        description: string;
      };
      expected.sections = [
        { ...expected.sections[1], id: "rules-2", heading: "A copied section" },
        ...expected.sections,
      ];
      expected.nav[1]!.link.href = "/fr/about/";
      expected.description = "Small sites whose words are edited in place.";
      assert.deepEqual(after, expected);
      assert.equal(
        (await site.git("rev-list", "--count", "HEAD")).trim(),
        String(Number(commits) + 1),
      );

      await page.reload();
      // The publish is still said after the reload (sessionStorage).
      await waitStatus(page, "Published");
      assert.deepEqual(await ids(page), [
        "rules-2",
        "content",
        "rules",
        "next",
      ]);
      assert.deepEqual(await headings(page), [
        "A copied section",
        ...original,
      ]);
      assert.equal(
        await page.locator('[data-inpage-link="/nav/1/link"]').getAttribute(
          "href",
        ),
        "/fr/about/",
      );
      assert.equal(
        await page.locator('meta[name="description"]').getAttribute("content"),
        "Small sites whose words are edited in place.",
      );
    },
  );

  await t.step(
    "keyboard only: a copy and a move, each announced, the focus kept in the field",
    async () => {
      // A navigation link's controls show while it has the focus, and go
      // when a field outside every list item takes it.
      await page.locator('[data-inpage-link="/nav/0/link"]').focus();
      await page.locator("[data-inpage-controls][data-shown]").waitFor();
      await page.getByRole("textbox", { name: "Edit title" }).focus();
      await page.locator("[data-inpage-controls][data-shown]").waitFor({
        state: "detached",
      });
      // Tab from the top of the page to the second section's heading.
      await page.locator("body").focus();
      const target = "Edit heading, section 2";
      let reached = false;
      for (let press = 0; press < 60 && !reached; press++) {
        await page.keyboard.press("Tab");
        reached = await page.evaluate(
          (name) => {
            let active = document.activeElement;
            while (active?.shadowRoot?.activeElement) {
              active = active.shadowRoot.activeElement;
            }
            return active?.getAttribute("aria-label") === name;
          },
          target,
        );
      }
      assert.ok(reached, "Tab reaches the second section's heading");
      await page.keyboard.press("Alt+Shift+D");
      await announced(page).filter({
        hasText: "Added a copy of section 2 as section 3",
      }).waitFor({ state: "attached" });
      assert.deepEqual(await ids(page), [
        "rules-2",
        "content",
        "content-2",
        "rules",
        "next",
      ]);
      const focused = () =>
        page.evaluate(() => document.activeElement?.getAttribute("aria-label"));
      assert.equal(await focused(), "Edit heading, section 3");
      await page.keyboard.press("Alt+Shift+ArrowUp");
      await announced(page).filter({
        hasText: "Moved section 3 to position 2",
      }).waitFor({ state: "attached" });
      assert.deepEqual(await ids(page), [
        "rules-2",
        "content-2",
        "content",
        "rules",
        "next",
      ]);
      assert.equal(await focused(), "Edit heading, section 2");
      await waitStatus(page, "1 unsaved change");
      await audit(page, "keyboard copy and move");
    },
  );

  await t.step(
    "a reload offers the list change as a draft; restored, the items show in its order",
    async () => {
      await page.reload();
      await page.getByRole("button", { name: "Restore" }).click();
      await waitStatus(page, "1 unsaved change");
      const restored = ["rules-2", "content-2", "content", "rules", "next"];
      assert.deepEqual(await ids(page), restored);
      // The restored copy is editable at its place.
      assert.equal(
        await page.getByRole("textbox", { name: "Edit heading, section 2" })
          .innerText(),
        original[0],
      );
      await page.getByRole("button", { name: "Undo" }).click();
      assert.deepEqual(await ids(page), [
        "rules-2",
        "content",
        "rules",
        "next",
      ]);
      await page.getByRole("button", { name: "Redo" }).click();
      assert.deepEqual(await ids(page), restored);
    },
  );

  await t.step(
    "drag: a section dragged by its grip above the first one moves there; undo puts it back",
    async () => {
      const before = await ids(page);
      await page.locator("#next .prose").hover();
      await page.locator("#next [data-inpage-controls]").locator(".grip")
        .dragTo(page.locator("#rules-2 h2"), {
          targetPosition: { x: 20, y: 4 },
        });
      await announced(page).filter({
        hasText: "Moved section 5 to position 1",
      }).waitFor({ state: "attached" });
      assert.deepEqual(await ids(page), [
        "next",
        ...before.filter((id) => id !== "next"),
      ]);
      await page.getByRole("button", { name: "Undo" }).click();
      assert.deepEqual(await ids(page), before);
    },
  );

  await t.step(
    "an empty list gets its first item from its template, with its default JSON; undo empties it again",
    async () => {
      const before = await ids(page);
      for (const id of before) {
        await page.locator(`#${id}`).hover();
        await page.locator(`#${id}`).getByRole("button", { name: "Remove" })
          .click();
      }
      assert.deepEqual(await ids(page), []);
      await page.getByRole("button", { name: "Add a section" }).click();
      await announced(page).filter({ hasText: "Added section 1" }).waitFor({
        state: "attached",
      });
      assert.deepEqual(await ids(page), ["section"]);
      assert.equal(
        await page.getByRole("textbox", { name: "Edit heading, section 1" })
          .innerText(),
        "A new section",
      );
      assert.equal(
        await page.getByRole("button", { name: "Add a section" }).count(),
        0,
      );
      for (let step = 0; step <= before.length; step++) {
        await page.getByRole("button", { name: "Undo" }).click();
      }
      assert.deepEqual(await ids(page), before);
    },
  );

  await t.step(
    "images: the alt text edited on its own, then marked decorative (an empty alt); a new file asks for new words",
    async () => {
      const image = page.locator('img[data-inpage-image="/image"]');
      const src = await image.getAttribute("src");
      await page.getByRole("button", { name: "Alt text" }).click();
      const alt = page.getByRole("textbox", { name: "Alt text" });
      assert.equal(await alt.inputValue(), "Green hills under a rising sun");
      await alt.fill("");
      await page.getByRole("button", { name: "Apply" }).click();
      await page.getByText(
        "Describe the image, or mark it as a decorative image.",
      ).waitFor();
      await alt.fill("Hills at dawn over the valley");
      await shoot(page, "alt-text");
      await page.getByRole("button", { name: "Apply" }).click();
      await page.locator(
        'img[data-inpage-image="/image"][alt="Hills at dawn over the valley"]',
      ).waitFor({ state: "attached", timeout: 5_000 });
      assert.equal(
        await image.getAttribute("alt"),
        "Hills at dawn over the valley",
      );
      await waitStatus(page, "2 unsaved changes");

      await page.getByRole("button", { name: "Alt text" }).click();
      await page.getByRole("checkbox", { name: "Decorative image" }).check();
      assert.equal(await alt.isDisabled(), true);
      await page.getByRole("button", { name: "Apply" }).click();
      // The dialog answers after its close: wait for the change to show.
      await page.locator('img[data-inpage-image="/image"][alt=""]').waitFor({
        state: "attached",
        timeout: 5_000,
      });
      assert.equal(await image.getAttribute("alt"), "");
      // The same file, shown as it was.
      assert.equal(
        new URL(await image.getAttribute("src") ?? "", site.url).href,
        new URL(src ?? "", site.url).href,
      );

      // A new file: the alt field starts empty and words (or Decorative
      // image) are asked for.
      await page.getByRole("button", { name: "Replace image: image" }).click();
      await page.getByLabel("Image file").setInputFiles(IMAGE);
      assert.equal(
        await page.getByRole("textbox", { name: "Alt text" }).inputValue(),
        "",
      );
      await page.locator("button:enabled", { hasText: "Use this image" })
        .waitFor();
      await page.getByRole("button", { name: "Use this image" }).click();
      await page.getByText(
        "Describe the image, or mark it as a decorative image.",
      ).waitFor();
      // Cancel with a file chosen asks before throwing it away.
      await page.getByRole("button", { name: "Cancel" }).click();
      await page.getByRole("button", { name: "Discard it" }).click();
      await page.getByLabel("Image file").waitFor({ state: "detached" });

      const stored = (await site.page()).image;
      await page.getByRole("button", { name: "Publish" }).click();
      await waitStatus(page, "Published");
      const after = await site.page();
      assert.deepEqual(after.image, {
        ...(stored as Record<string, unknown>),
        alt: "",
      });
    },
  );

  assert.deepEqual(errors, []);
});
