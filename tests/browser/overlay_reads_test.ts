/**
 * What the overlay reads per page view, in Debian's Chromium on the demo
 * (`deno task demo`): each page file once and the session once, however
 * often the page is loaded again (a dev server reloading it), so that an
 * editor's reads last.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  type EditingSite,
  launchChromium,
  startDemo,
} from "./overlay_support.ts";

/** Waits for "Logged in as …" (under More, so not visible). */
async function loggedIn(page: Page): Promise<void> {
  await page.getByText("Logged in as").waitFor({ state: "attached" });
}

/** The requests to the routes, as `METHOD /path`. */
function watchRoutes(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/api/")) {
      seen.push(`${request.method()} ${url.pathname}${url.search}`);
    }
  });
  return seen;
}

/** What one page view of the home page asks of the routes. */
const ONE_VIEW = [
  "GET /api/content?path=src%2Fcontent%2Fpages%2Fen%2Fhome.json",
  "GET /api/session",
];

/**
 * Logs in on the English home page, then loads it again `views` times and
 * asserts that each view asks the routes for {@linkcode ONE_VIEW} only.
 */
async function assertViews(
  page: Page,
  site: EditingSite,
  views: number,
): Promise<void> {
  page.setDefaultTimeout(20_000);
  await page.goto(`${site.url}en/?edit`);
  await page.getByLabel("Site key").fill(site.key);
  await page.keyboard.press("Enter");
  await loggedIn(page);
  const seen = watchRoutes(page);
  for (let view = 0; view < views; view++) {
    seen.length = 0;
    await page.reload();
    await loggedIn(page);
    await page.waitForLoadState("networkidle");
    assert.deepEqual(seen.sort(), ONE_VIEW, `page view ${view + 2}`);
  }
}

Deno.test("in Chromium: each page view reads each page file once and the session once", async () => {
  await using site = await startDemo();
  await using browser = await launchChromium();
  const page = await (await browser.newContext()).newPage();
  await assertViews(page, site, 3);
});

Deno.test("in Chromium: a page file shown by two containers (a header and a footer of the same file) is read once", async () => {
  await using site = await startDemo();
  await using browser = await launchChromium();
  const page = await (await browser.newContext()).newPage();
  // The site's footer shows the page's title again, from the same file.
  await page.route(/\/en\/(\?edit)?$/, async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace(
      "</body>",
      `<footer data-inpage-page="src/content/pages/en/home.json"><p data-inpage-text="/title"></p></footer></body>`,
    );
    await route.fulfill({ response, body: html });
  });
  await assertViews(page, site, 1);
});
