/**
 * Review in Debian's Chromium on the demo (`deno task demo` with
 * `EDITOR_KEYS`): bob, an author, sees Send for review and no Publish, and
 * sends his changes; the preview link, opened in a fresh context (no
 * cookies), shows them outlined under the banner, with no editing; alice,
 * a publisher, opens Reviews, opens the review in place and publishes it
 * from its banner; a visitor sees the published
 * page. The Reviews panel and the preview page are photographed at
 * 1280×800 and 390×844 (tests/browser/artifacts/).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { fastHash } from "../support/helpers.ts";
import {
  ARTIFACTS,
  BOTH_SIZES,
  type EditingSite,
  launchChromium,
  openMore,
  region,
  startDemo,
  typeAtEnd,
  waitStatus,
} from "./overlay_support.ts";

const ALICE = "alice.correct-horse-battery-staple";
const BOB = "bob.staple-river-lantern-window";

declare const document: {
  querySelectorAll(selector: string): { length: number };
};

/** Opens the page in a context of its own and logs in with a named key. */
async function logIn(
  browser: Browser,
  site: EditingSite,
  key: string,
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on("pageerror", (error) => console.error("page error:", error.message));
  await page.goto(`${site.url}en/?edit`);
  await page.getByLabel("Site key").fill(key);
  await page.keyboard.press("Enter");
  await waitStatus(page, "No unsaved changes");
  return page;
}

/** Photographs the page at both sizes. */
async function shoot(page: Page, name: string): Promise<void> {
  const before = page.viewportSize();
  for (const size of BOTH_SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.waitForTimeout(100);
    await page.screenshot({
      path: join(ARTIFACTS, `review-${name}-${size.name}.png`),
    });
  }
  if (before) await page.setViewportSize(before);
}

Deno.test("in Chromium: an author sends changes for review, a preview link shows them to anyone, a publisher publishes them", async (t) => {
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  const editors = {
    alice: {
      hash: await fastHash(ALICE),
      name: "Alice Martin",
      email: "alice@example.com",
    },
    bob: {
      hash: await fastHash(BOB),
      name: "Bob Stone",
      email: "bob@example.com",
      role: "author",
    },
  };
  await using site = await startDemo({ EDITOR_KEYS: JSON.stringify(editors) });
  await using browser = await launchChromium();
  const original = await site.page();
  const head = (await site.git("rev-parse", "HEAD")).trim();
  const title = `${original.title} (reviewed)`;
  let link = "";

  await t.step(
    "1. bob, an author, sees only Send for review, and sends his changes",
    async () => {
      const bob = await logIn(browser, site, BOB);
      assert.equal(
        await bob.getByRole("button", { name: "Publish", exact: true })
          .count(),
        0,
        "an author has no Publish",
      );
      await typeAtEnd(bob, "Edit title", " (reviewed)");
      await typeAtEnd(bob, "Edit heading, section 1", " (reviewed)");
      await bob.getByLabel("Message", { exact: true }).fill("A clearer title");
      await bob.getByRole("button", { name: "Send for review" }).click();
      await waitStatus(bob, /Sent for review: 1 page/);
      assert.equal(await region(bob, "Edit title").innerText(), original.title);
      assert.equal(
        (await site.git("rev-parse", "HEAD")).trim(),
        head,
        "the site branch is untouched",
      );
      const answer = await bob.evaluate(async () => {
        const listed = await (await fetch("/api/reviews")).json();
        const id = listed.reviews[0].id;
        const made = await fetch("/api/reviews/link", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ id, hours: 1 }),
        });
        return { listed, link: await made.json() };
      });
      assert.equal(answer.listed.reviews.length, 1);
      assert.equal(answer.listed.reviews[0].author.name, "Bob Stone");
      link = answer.link.url;
      assert.match(link, /^\/en\/\?inpage-preview=/);
      await bob.context().close();
    },
  );

  await t.step(
    "2. the preview link, without cookies: the changes outlined under the banner, no editing",
    async () => {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 800 },
      });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      await page.goto(new URL(link, site.url).href);
      const banner = page.getByRole("region", { name: "Review preview" });
      await banner.waitFor();
      assert.match(
        await banner.innerText(),
        /Review “A clearer title” by Bob Stone: not published/,
      );
      await page.getByText(title, { exact: true }).waitFor();
      const outlined = await page.evaluate(() =>
        document.querySelectorAll("[data-inpage-differs]").length
      );
      assert.ok(outlined >= 2, `${outlined} changed regions outlined`);
      assert.equal(
        await page.evaluate(() =>
          document.querySelectorAll(
            "[contenteditable='true'], [contenteditable='plaintext-only'], [data-inpage-overlay]:not([data-inpage-overlay='preview'])",
          ).length
        ),
        0,
        "no editing, and no bar (the banner is the preview's own host)",
      );
      assert.equal(await page.getByLabel("Site key").count(), 0, "no login");
      await shoot(page, "preview");
      await context.close();
    },
  );

  await t.step(
    "3. alice, a publisher, opens the review in place and publishes it",
    async () => {
      const alice = await logIn(browser, site, ALICE);
      await openMore(alice);
      await alice.getByRole("button", { name: "Reviews", exact: true })
        .click();
      const panel = alice.getByRole("dialog", { name: "Open reviews" });
      await panel.getByText("A clearer title").waitFor();
      await shoot(alice, "panel");
      // The list opens on its first action, Open, not inside its date field.
      const open = panel.getByRole("button", {
        name: "Open the review “A clearer title”",
        exact: true,
      });
      assert.ok(
        await open.evaluate((button) =>
          (button.getRootNode() as unknown as {
            activeElement: unknown;
          }).activeElement === button
        ),
        "the focus is on the first review's Open",
      );
      await alice.keyboard.press("Enter");
      // The review in place: its values, under its banner, then Publish.
      const banner = alice.getByRole("region", {
        name: "Review “A clearer title” by Bob Stone: not published",
      });
      await banner.waitFor();
      assert.equal(await region(alice, "Edit title").innerText(), title);
      await banner.getByRole("button", {
        name: "Publish the review “A clearer title”",
        exact: true,
      }).press("Enter");
      // The page is loaded again, saying the review was published.
      await alice.waitForEvent("load");
      await waitStatus(alice, "Published");
      assert.match(await alice.locator(".ui").innerText(), /A clearer title/);
      assert.equal(await region(alice, "Edit title").innerText(), title);
      assert.equal((await site.page()).title, title);
      assert.equal(
        (await site.git("log", "-1", "--format=%an|%s")).trim(),
        "Bob Stone|A clearer title",
      );
      assert.equal(
        (await site.git("branch", "--list", "inpage/review/*")).trim(),
        "",
      );
      await alice.context().close();
    },
  );

  await t.step("4. a visitor sees the published page", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${site.url}en/`);
    await page.getByText(title, { exact: true }).waitFor();
    assert.equal(
      await page.getByRole("region", { name: "Review preview" }).count(),
      0,
    );
    await context.close();
  });
});
