/**
 * The overlay on a site being adopted, in Chromium, on the demo site
 * (`deno task demo`): before login, `?edit` makes no failed request and
 * logs no error; with the edit cookie but no session, the 401 asks for the
 * key; regions whose pointer names nothing, or a value of another kind,
 * are left as they are with a sentence and one grouped console warning;
 * `data-inpage-image-format` chooses the format of a new image, and the
 * preview is the chosen image itself.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
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

/** What a page logged and which responses failed. */
function watch(page: Page) {
  const seen = {
    console: [] as Array<{ type: string; text: string }>,
    failed: [] as string[],
    api: [] as string[],
  };
  page.on("console", (message) => {
    seen.console.push({ type: message.type(), text: message.text() });
  });
  page.on("response", (response) => {
    if (response.status() >= 400) {
      seen.failed.push(`${response.status()} ${response.url()}`);
    }
  });
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith("/api/")) seen.api.push(`${request.method()} ${path}`);
  });
  return seen;
}

async function logIn(page: Page, site: EditingSite): Promise<void> {
  await page.getByLabel("Site key").fill(site.key);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("status").filter({ hasText: "No unsaved changes" })
    .waitFor();
}

Deno.test("in Chromium: before login ?edit makes no failed request and logs no error; with the edit cookie and no session, the 401 asks for the key", async () => {
  await using site = await startDemo();
  await using browser = await launchChromium();
  const context = await browser.newContext();
  const page = await context.newPage();
  const seen = watch(page);
  await page.goto(`${site.url}en/?edit`);
  await page.getByRole("heading", { name: "Log in to edit this site" })
    .waitFor();
  await page.waitForLoadState("networkidle");
  assert.deepEqual(seen.api, []);
  assert.deepEqual(seen.failed, []);
  assert.deepEqual(seen.console.filter((m) => m.type === "error"), []);
  await logIn(page, site);
  // Then who is logged in, asked once the edit cookie is set.
  await openMore(page);
  await page.getByText("Logged in as").waitFor();
  assert.deepEqual(seen.api, [
    "POST /api/auth",
    "GET /api/content",
    "GET /api/session",
  ]);
  assert.deepEqual(seen.failed, []);
  assert.deepEqual(seen.console.filter((m) => m.type === "error"), []);

  // An ended session: the cookie says editing, the routes say 401.
  const ended = await browser.newContext();
  await ended.addCookies([{
    name: "editor_edit",
    value: "1",
    url: site.url,
  }]);
  const again = await ended.newPage();
  const later = watch(again);
  await again.goto(`${site.url}en/`);
  await again.getByRole("heading", { name: "Log in to edit this site" })
    .waitFor();
  assert.deepEqual(later.api, ["GET /api/content"]);
  assert.match(later.failed.join(), /^401 .*\/api\/content\?path=/);
  await logIn(again, site);
  await ended.close();
  await context.close();
});

Deno.test("in Chromium: regions that do not fit are outlined and not editable, with one grouped warning; data-inpage-image-format=png uploads a PNG, previewed as the chosen image", async () => {
  await using site = await startDemo();
  await using browser = await launchChromium();
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  const seen = watch(page);
  await page.goto(`${site.url}en/?edit`);
  await page.getByRole("heading", { name: "Log in to edit this site" })
    .waitFor();
  // The template's mistakes, added before the overlay reads the page.
  await page.evaluate(`(() => {
    const container = document.querySelector("[data-inpage-page]");
    container.setAttribute("data-inpage-image-format", "png");
    const typo = document.createElement("p");
    typo.setAttribute("data-inpage-text", "/descripton");
    typo.textContent = "A mistyped pointer";
    const list = document.createElement("p");
    list.setAttribute("data-inpage-html", "/sections");
    list.textContent = "Rich text on a list";
    container.prepend(list);
    // Just above the title: its sentence, below it, lies over the title.
    container.querySelector('[data-inpage-text="/title"]').before(typo);
  })()`);
  await logIn(page, site);
  const typo = page.locator('[data-inpage-text="/descripton"]');
  const list = page.locator('[data-inpage-html="/sections"]');
  for (const region of [typo, list]) {
    assert.match(
      await region.getAttribute("data-inpage-unresolved") ?? "",
      /cannot be edited\.$/,
    );
    assert.equal(await region.getAttribute("contenteditable"), null);
    assert.equal(await region.locator(".tiptap").count(), 0);
  }
  await page.getByRole("note").filter({ hasText: "has no “descripton”" })
    .waitFor();
  await page.getByRole("note").filter({
    hasText: "“sections” holds a list, not rich text",
  }).waitFor();
  assert.deepEqual(
    seen.console.filter((m) => m.type !== "debug" && m.type !== "verbose")
      .map((m) => m.type),
    ["startGroupCollapsed", "warning", "warning", "endGroup"],
  );
  // Preview shows the page as a visitor sees it: the notes go too.
  const note = page.getByRole("note").filter({
    hasText: "has no “descripton”",
  });
  await page.getByRole("button", { name: "Preview", exact: true }).click();
  await note.waitFor({ state: "hidden" });
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await note.waitFor();
  // Working in the title puts the sentence over it out of the way.
  const typoNote = page.getByRole("note").filter({
    hasText: "has no “descripton”",
  });
  const listNote = page.getByRole("note").filter({ hasText: "“sections”" });
  const title = page.getByRole("textbox", { name: "Edit title" });
  const overlap = async () => {
    const [a, b] = [await typoNote.boundingBox(), await title.boundingBox()];
    return !!a && !!b && a.y < b.y + b.height && b.y < a.y + a.height &&
      a.x < b.x + b.width && b.x < a.x + a.width;
  };
  assert.ok(await overlap(), "the sentence lies over the title");
  await title.click();
  await typoNote.waitFor({ state: "hidden" });
  assert.ok(await listNote.isVisible());
  await page.screenshot({ path: join(ARTIFACTS, "adopt-flagged-working.png") });
  await page.getByRole("textbox", { name: /^Edit text \(rich text/ }).click();
  await typoNote.waitFor();
  await typo.click();
  await page.keyboard.type("x");
  assert.equal(await typo.textContent(), "A mistyped pointer");
  await page.screenshot({ path: join(ARTIFACTS, "adopt-flagged.png") });

  // A new image: PNG, as the container says, and shown as chosen (kept in
  // the session until publish).
  const image = page.locator('[data-inpage-image="/image"]');
  await image.click();
  await page.getByLabel("Image file").setInputFiles(IMAGE);
  await page.getByText("saved as PNG;").waitFor();
  await page.locator("button:enabled", { hasText: "Use this image" })
    .waitFor();
  await page.getByLabel("Alt text").fill("Hills at dawn");
  await page.getByRole("button", { name: "Use this image" }).click();
  await page.getByRole("status").filter({ hasText: "1 unsaved change" })
    .waitFor();
  const shown = await image.evaluate((node) => {
    const img = node as unknown as {
      getAttribute(name: string): string | null;
      complete: boolean;
      naturalWidth: number;
    };
    return {
      src: img.getAttribute("src"),
      srcset: img.getAttribute("srcset"),
      stored: img.getAttribute("data-inpage-src"),
      complete: img.complete,
      naturalWidth: img.naturalWidth,
    };
  });
  assert.match(shown.src ?? "", /^blob:/);
  assert.equal(shown.srcset, null);
  // The change names the chosen image by the session's object URL; the
  // region shows it from an object URL of its own.
  assert.match(shown.stored ?? "", /^blob:/);
  await page.getByPlaceholder("What did you change?").fill("PNG picture");
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await page.getByRole("status").filter({ hasText: "Published" }).waitFor();
  const home = await site.page();
  const src = String((home.image as Record<string, unknown>).src);
  assert.match(src, /^hills-at-dawn-[0-9a-f]{12}\.png$/);
  const stored = await Deno.readFile(join(site.root, "public/images", src));
  assert.deepEqual(
    [...stored.subarray(0, 8)],
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  );
  assert.equal(Object.hasOwn(home, "descripton"), false);
  assert.deepEqual(seen.failed, []);
  assert.deepEqual(seen.console.filter((m) => m.type === "error"), []);
  await context.close();
});
