/**
 * One broken container breaks nothing else, in Chromium, on the demo site
 * (`deno task demo`) with two more containers put in its home page: one
 * naming a file the repository does not hold, one naming a path the
 * routes refuse. Each is outlined with the sentence naming its file, the
 * alert names them, and every other container stays editable: an edit in
 * one publishes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  ARTIFACTS,
  BOTH_SIZES,
  launchChromium,
  openMore,
  startDemo,
  typeAtEnd,
  waitStatus,
} from "./overlay_support.ts";

const MISSING = "src/content/pages/en/gone.json";
const REFUSED = "src/content/pages/en/../../secrets.json";

/** The two broken containers, put before the end of the page's main. */
const BROKEN = `<section data-inpage-page="${MISSING}">` +
  `<h2 data-inpage-text="/title">Gone</h2></section>` +
  `<section data-inpage-page="${REFUSED}">` +
  `<p data-inpage-text="/title">Refused</p></section>`;

for (const size of BOTH_SIZES) {
  Deno.test(`in Chromium (${size.name}): a container naming a missing file or a refused path is outlined with its file named, and every other container stays editable and publishes`, async () => {
    await using site = await startDemo();
    await using browser = await launchChromium();
    const context = await browser.newContext({
      viewport: { width: size.width, height: size.height },
    });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on("pageerror", (error) => console.error("page error:", error));
    await page.route(`${site.url}en/?edit`, async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(
        "</main>",
        `${BROKEN}</main>`,
      );
      await route.fulfill({ response, body: html });
    });
    await page.goto(`${site.url}en/?edit`);
    await page.getByLabel("Site key").fill(site.key);
    await page.keyboard.press("Enter");
    await waitStatus(page, "No unsaved changes");

    // The alert names both files; each container says which file it is.
    const alert = page.getByRole("alert");
    await alert.filter({ hasText: MISSING }).waitFor();
    assert.match(await alert.innerText(), /2 page files cannot be edited/);
    assert.match(
      await alert.innerText(),
      new RegExp(REFUSED.replace(/\./g, "\\.")),
    );
    const missing = page.locator(`[data-inpage-page="${MISSING}"]`);
    assert.match(
      await missing.getAttribute("data-inpage-unresolved") ?? "",
      /gone\.json cannot be edited: the file is not in the repository/,
    );
    const refused = page.locator(`[data-inpage-page="${REFUSED}"]`);
    assert.match(
      await refused.getAttribute("data-inpage-unresolved") ?? "",
      /secrets\.json cannot be edited: the server refuses this page path/,
    );
    // Their regions are left as the site wrote them.
    assert.equal(await missing.locator("[contenteditable]").count(), 0);
    assert.equal(await refused.locator("[contenteditable]").count(), 0);
    await missing.scrollIntoViewIfNeeded();
    await page.screenshot({
      path: join(ARTIFACTS, `broken-container-${size.name}.png`),
    });

    // The page's own container is edited and published as ever.
    await typeAtEnd(page, "Edit title", " (still editable)");
    await waitStatus(page, "1 unsaved change");
    // On a phone, the message is under More.
    if (size.name === "phone") await openMore(page);
    await page.getByLabel("Message", { exact: true }).fill(
      "Beside a broken one",
    );
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await waitStatus(page, "Published");
    assert.match(String((await site.page()).title), / \(still editable\)$/);
    assert.equal(
      (await site.git("log", "-1", "--format=%s")).trim(),
      "Beside a broken one",
    );
  });
}
