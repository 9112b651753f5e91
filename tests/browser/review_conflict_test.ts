/**
 * An open review and a clash at a review's publish, in Debian's Chromium on
 * the demo (`deno task demo` with `EDITOR_KEYS`), by keyboard: bob, an
 * author, sends a new title and a new first heading for review; alice, a
 * publisher, opens it from Reviews and sees it in place (its values in
 * their regions, outlined, editing off, a banner naming it, its author and
 * that it is not published, with her actions), then goes back to the page
 * exactly as it was. She publishes another title meanwhile, so the
 * review's publish clashes on the title: the per-field view shows the
 * review's title against the one published now, she takes the review's,
 * and the review is published in one commit and its branch deleted. From
 * the French page, a review of the English one says so in French and goes
 * there. The open review, the conflict view and the French question are
 * photographed at 1280×800 and 390×844 (tests/browser/artifacts/).
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  ALICE,
  ARTIFACTS,
  BOB,
  EN_HOME,
  launchChromium,
  logInAs,
  namedEditors,
  openMore,
  region,
  shootBothSizes,
  startDemo,
  waitStatus,
} from "./overlay_support.ts";

declare const document: {
  querySelectorAll(selector: string): { length: number };
  documentElement: { hasAttribute(name: string): boolean };
};

/** Changes fields of the home page through the API: saved, or sent for review. */
function change(
  page: Page,
  fields: { title: string; heading?: string },
  review?: string,
): Promise<number> {
  return page.evaluate(async ({ path, fields, review }) => {
    const read = await (await fetch(`/api/content?path=${path}`)).json();
    const content = JSON.parse(read.content);
    content.title = fields.title;
    if (fields.heading) content.sections[0].heading = fields.heading;
    const page = {
      path,
      content: JSON.stringify(content, null, 2),
      version: read.version,
    };
    const sent = await fetch(review ? "/api/reviews" : "/api/save", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(
        review ? { message: review, pages: [page] } : page,
      ),
    });
    return sent.status;
  }, { path: EN_HOME, fields, review });
}

/** Opens Reviews and, by keyboard, the first review in place. */
async function openReview(
  alice: Page,
  message = "Say who we are",
): Promise<void> {
  await openMore(alice);
  await alice.getByRole("button", { name: "Reviews", exact: true }).click();
  const panel = alice.getByRole("dialog", { name: "Open reviews" });
  await panel.getByRole("button", {
    name: `Open the review “${message}”`,
    exact: true,
  }).waitFor();
  await alice.keyboard.press("Enter");
}

Deno.test("in Chromium: a publisher opens a review in place, goes back, and settles a clash at its publish field by field", async (t) => {
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  await using site = await startDemo({
    EDITOR_KEYS: await namedEditors({ bob: "author" }),
  });
  await using browser = await launchChromium();
  const original = await site.page();
  const heading = (original.sections as Array<Record<string, string>>)[0]!
    .heading!;
  const banner = (page: Page) =>
    page.getByRole("region", {
      name: "Review “Say who we are” by Bob Stone: not published",
    });
  let alice: Page;

  await t.step("1. bob sends a title and a heading for review", async () => {
    const bob = await logInAs(browser, site, BOB);
    assert.equal(
      await change(
        bob,
        { title: "Who we are", heading: `${heading} (bob)` },
        "Say who we are",
      ),
      201,
    );
    await bob.context().close();
  });

  await t.step(
    "2. alice opens it: its values in place, outlined, read-only, under its banner; Back puts the page back",
    async () => {
      alice = await logInAs(browser, site, ALICE);
      const panelText = async () => {
        await openMore(alice);
        await alice.getByRole("button", { name: "Reviews", exact: true })
          .click();
        const panel = alice.getByRole("dialog", { name: "Open reviews" });
        await panel.getByText("Say who we are").waitFor();
        const pages = panel.locator(".pages .address");
        assert.equal(await pages.innerText(), "/en/");
        assert.equal(await pages.getAttribute("title"), EN_HOME);
        await alice.keyboard.press("Escape");
      };
      await panelText();
      await openReview(alice);
      await banner(alice).waitFor();
      const title = region(alice, "Edit title");
      assert.equal(await title.innerText(), "Who we are");
      assert.equal(
        await region(alice, "Edit heading, section 1").innerText(),
        `${heading} (bob)`,
      );
      assert.equal(
        await alice.evaluate(() =>
          document.querySelectorAll("[data-inpage-differs]").length
        ),
        2,
        "the two changed fields are outlined",
      );
      assert.equal(await title.getAttribute("contenteditable"), "false");
      assert.match(
        await banner(alice).innerText(),
        /Nothing is published until a publisher publishes the review/,
      );
      for (
        const name of [
          "Back to the page",
          "Publish the review “Say who we are”",
          "Close the review “Say who we are” without publishing it",
          "Copy a preview link of the review “Say who we are”",
        ]
      ) {
        await banner(alice).getByRole("button", { name, exact: true })
          .waitFor();
      }
      assert.equal(
        await alice.getByRole("button", { name: "Publish", exact: true })
          .isVisible(),
        false,
        "the bar is hidden while the review is open",
      );
      await shootBothSizes(alice, "review-open");
      await title.click();
      await alice.keyboard.type("typed");
      assert.equal(await title.innerText(), "Who we are", "editing is off");
      await alice.keyboard.press("Escape");
      await banner(alice).waitFor({ state: "detached" });
      assert.equal(await title.innerText(), original.title);
      assert.equal(
        await alice.evaluate(() =>
          document.querySelectorAll("[data-inpage-differs]").length
        ),
        0,
      );
      assert.equal(
        await title.getAttribute("contenteditable"),
        "plaintext-only",
      );
      await waitStatus(alice, "No unsaved changes");
    },
  );

  await t.step(
    "3. a title published meanwhile: the review's publish asks field by field, then publishes in one commit and closes it",
    async () => {
      assert.equal(await change(alice, { title: "About the team" }), 200);
      await alice.reload();
      await waitStatus(alice, "No unsaved changes");
      const before = (await site.git("rev-parse", "HEAD")).trim();
      await openReview(alice);
      await banner(alice).getByRole("button", {
        name: "Publish the review “Say who we are”",
        exact: true,
      }).press("Enter");
      const view = alice.getByRole("dialog", {
        name: "Someone published these fields since the review",
      });
      await view.waitFor();
      const clash = view.getByRole("group", { name: "Title" });
      assert.match(await clash.innerText(), /Published now\s+About the team/i);
      assert.match(await clash.innerText(), /In the review\s+Who we are/i);
      assert.match(await view.innerText(), /Heading, section 1/);
      await shootBothSizes(alice, "review-conflict");
      await view.getByRole("button", { name: "Publish the review" })
        .press("Enter");
      await view.getByText("Choose “Use the review’s”").waitFor();
      await clash.getByRole("button", { name: "Use the review’s" })
        .press("Enter");
      await view.getByRole("button", { name: "Publish the review" })
        .press("Enter");
      // The page is loaded again, saying the review was published.
      await waitStatus(alice, "Published");
      const published = await site.page();
      assert.equal(published.title, "Who we are");
      assert.equal(
        (published.sections as Array<Record<string, string>>)[0]!.heading,
        `${heading} (bob)`,
      );
      assert.equal(
        (await site.git("rev-list", "--count", `${before}..HEAD`)).trim(),
        "1",
        "one commit",
      );
      assert.equal(
        (await site.git("log", "-1", "--format=%an|%s")).trim(),
        "Bob Stone|Say who we are",
        "the review's commit, by its author",
      );
      // The review is closed once the publish succeeded.
      let branches = "x";
      for (let tries = 0; tries < 50 && branches !== ""; tries++) {
        branches = (await site.git("branch", "--list", "inpage/review/*"))
          .trim();
        if (branches !== "") await alice.waitForTimeout(100);
      }
      assert.equal(branches, "", "the review's branch is gone");
      const listed = await alice.evaluate(async () =>
        (await (await fetch("/api/reviews")).json()).reviews.length
      );
      assert.equal(listed, 0);
    },
  );

  await t.step(
    "4. from the French page, a review of the English one says so, in French, goes there and opens there",
    async () => {
      assert.equal(
        await change(alice, { title: "A second look" }, "Second look"),
        201,
      );
      await alice.goto(`${site.url}fr/?edit`);
      await waitStatus(alice, "Aucune modification non enregistrée");
      await openMore(alice);
      await alice.getByRole("button", { name: "Relectures", exact: true })
        .click();
      const panel = alice.getByRole("dialog", { name: "Relectures en cours" });
      await panel.getByRole("button", {
        name: "Ouvrir la relecture « Second look »",
        exact: true,
      }).waitFor();
      await alice.keyboard.press("Enter");
      const elsewhere = alice.getByRole("dialog", {
        name: "Cette relecture est sur une autre page",
      });
      await elsewhere.waitFor();
      assert.match(
        await elsewhere.innerText(),
        /change \/en\/, pas cette page/,
      );
      await shootBothSizes(alice, "review-elsewhere-fr");
      await elsewhere.getByRole("button", { name: "Aller à /en/" })
        .press("Enter");
      // There the review opens by itself, in place, and the address
      // forgets it (a reload shows the page as edited).
      await alice.getByRole("region", {
        name: "Review “Second look” by Alice Martin: not published",
      }).waitFor();
      assert.equal(
        await region(alice, "Edit title").innerText(),
        "A second look",
      );
      assert.match(alice.url(), /\/en\/\?edit=?$/);
      await alice.context().close();
    },
  );
});
