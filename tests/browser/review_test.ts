/**
 * Review in Debian's Chromium on the demo (`deno task demo` with
 * `EDITOR_KEYS`): bob, an author, sees Send for review and no Publish; he
 * edits About, then Home, in one tab, the bar saying "Also changed: 1 other
 * page", and sends one review holding both pages; the preview link, opened
 * in a fresh context (no cookies), shows them outlined under the banner,
 * with no editing; alice, a publisher, opens Reviews and publishes both in
 * one commit from the review opened in place (its banner's Publish); a
 * visitor sees the published page. The bar, the Reviews
 * panel and the preview page are photographed at 1280×800 and 390×844
 * (tests/browser/artifacts/).
 */
import assert from "node:assert/strict";
import {
  ALICE,
  ARTIFACTS,
  BOB,
  EN_ABOUT,
  EN_HOME,
  launchChromium,
  logInAs,
  namedEditors,
  openMore,
  region,
  shootBothSizes,
  startDemo,
  typeAtEnd,
  waitStatus,
} from "./overlay_support.ts";

declare const document: {
  querySelectorAll(selector: string): { length: number };
};

Deno.test("in Chromium: an author sends changes for review, a preview link shows them to anyone, a publisher publishes them", async (t) => {
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  await using site = await startDemo({
    EDITOR_KEYS: await namedEditors({ bob: "author" }),
  });
  await using browser = await launchChromium();
  const original = await site.page();
  const about = await site.page(EN_ABOUT);
  const head = (await site.git("rev-parse", "HEAD")).trim();
  const title = `${original.title} (reviewed)`;
  let link = "";

  await t.step(
    "1. bob, an author, sees only Send for review; he edits About, then Home, in one tab, and sends one review holding both pages",
    async () => {
      // The session (and the role) answers 1.5 s late: no Publish meanwhile.
      const bob = await logInAs(browser, site, BOB, {
        path: "en/about/",
        slowSession: 1_500,
      });
      assert.equal(
        await bob.getByRole("button", { name: "Publish", exact: true })
          .count(),
        0,
        "no Publish before the role is known",
      );
      await bob.getByText("Logged in as Bob Stone").waitFor({
        state: "attached",
      });
      assert.equal(
        await bob.getByRole("button", { name: "Publish", exact: true })
          .count(),
        0,
        "an author has no Publish",
      );
      await typeAtEnd(bob, "Edit title", " (reviewed)");
      await waitStatus(bob, "1 unsaved change");
      // Home, in the same tab: About's changes wait in this tab's draft.
      await bob.goto(`${site.url}en/`);
      await waitStatus(bob, "No unsaved changes");
      const also = bob.getByRole("note", {
        name:
          "This tab also changed 1 other page: /en/about/. Send for review carries them too.",
      });
      assert.equal(await also.innerText(), "Also changed: /en/about/");
      await typeAtEnd(bob, "Edit title", " (reviewed)");
      await typeAtEnd(bob, "Edit heading, section 1", " (reviewed)");
      await bob.getByLabel("Message", { exact: true }).fill("Spring update");
      await shootBothSizes(bob, "review-also-changed");
      // More names every page changed elsewhere, in a whole sentence.
      await openMore(bob);
      await bob.getByText(
        "This tab also changed 1 other page: /en/about/. Send for review carries them too.",
      ).waitFor();
      await shootBothSizes(bob, "review-also-more");
      await openMore(bob, false);
      await bob.getByRole("button", { name: "Send for review" }).click();
      await waitStatus(bob, /Sent for review: 2 pages/);
      await also.waitFor({ state: "hidden" });
      assert.equal(await region(bob, "Edit title").innerText(), original.title);
      assert.equal(
        (await site.git("rev-parse", "HEAD")).trim(),
        head,
        "the site branch is untouched",
      );
      assert.equal((await site.page(EN_ABOUT)).title, about.title);
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
      assert.equal(answer.listed.reviews.length, 1, "one review");
      const review = answer.listed.reviews[0];
      assert.equal(review.author.name, "Bob Stone");
      assert.equal(review.message, "Spring update");
      assert.deepEqual(review.pages, [EN_HOME, EN_ABOUT]);
      const branch = `inpage/review/${review.id}`;
      assert.equal(
        (await site.git("rev-list", "--count", `${head}..${branch}`)).trim(),
        "1",
        "one commit on the review branch",
      );
      assert.deepEqual(
        (await site.git("diff", "--name-only", head, branch)).trim().split(
          "\n",
        ).sort(),
        [EN_ABOUT, EN_HOME],
      );
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
        /Review “Spring update” by Bob Stone: not published/,
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
      await shootBothSizes(page, "review-preview");
      await context.close();
    },
  );

  await t.step(
    "3. alice, a publisher, opens the review in place and publishes it",
    async () => {
      const alice = await logInAs(browser, site, ALICE);
      await openMore(alice);
      await alice.getByRole("button", { name: "Reviews", exact: true })
        .click();
      const panel = alice.getByRole("dialog", { name: "Open reviews" });
      await panel.getByText("Spring update").waitFor();
      await shootBothSizes(alice, "review-panel");
      // The list opens on its first action, Open, not inside its date field.
      const open = panel.getByRole("button", {
        name: "Open the review “Spring update”",
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
        name: "Review “Spring update” by Bob Stone: not published",
      });
      await banner.waitFor();
      assert.equal(await region(alice, "Edit title").innerText(), title);
      await banner.getByRole("button", {
        name: "Publish the review “Spring update”",
        exact: true,
      }).press("Enter");
      // The page is loaded again, saying the review was published.
      await alice.waitForEvent("load");
      await waitStatus(alice, "Published");
      assert.match(await alice.locator(".ui").innerText(), /Spring update/);
      assert.equal(await region(alice, "Edit title").innerText(), title);
      assert.equal((await site.page()).title, title);
      assert.equal(
        (await site.git("log", "-1", "--format=%an|%s")).trim(),
        "Bob Stone|Spring update",
      );
      assert.deepEqual(
        (await site.git("show", "--name-only", "--format=", "HEAD")).trim()
          .split("\n").sort(),
        [EN_ABOUT, EN_HOME],
        "both pages in one commit",
      );
      assert.equal(
        (await site.page(EN_ABOUT)).title,
        `${about.title} (reviewed)`,
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
