/**
 * The overlay end to end in Debian's Chromium, driven by playwright-core,
 * against the example site served with the routes over a real KV and a real
 * git repository: log in, edit text and rich text, replace an image,
 * resolve conflicts, see a refused link highlighted, get unsaved edits back
 * after a reload, log out. Screenshots go to tests/browser/artifacts/.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import axe from "axe-core";
import type { BrowserContext, Page } from "playwright-core";
import {
  ARTIFACTS,
  type EditingSite,
  EN_HOME,
  launchChromium,
  openMore,
  startDemo,
} from "./overlay_support.ts";

/** The little of the browser's DOM the page scripts below use. */
declare const document: {
  documentElement: { outerHTML: string };
  adoptedStyleSheets: unknown[];
  cookie: string;
  activeElement: BrowserElement | null;
  querySelector(selector: string): {
    shadowRoot: { activeElement: BrowserElement | null } | null;
  } | null;
};
interface BrowserElement {
  getAttribute(name: string): string | null;
}

const IMAGE = new URL(
  "../../examples/site/public/images/hills-at-dawn-98c9ac741e4e.png",
  import.meta.url,
).pathname;

const bar = (page: Page) => page.locator(".bar .status");

async function waitStatus(page: Page, text: string | RegExp): Promise<void> {
  try {
    await page.locator(".bar .status", {
      hasText: typeof text === "string" ? new RegExp(`^${text}$`) : text,
    }).waitFor();
  } catch (error) {
    await page.screenshot({ path: join(ARTIFACTS, "failure.png") });
    const shown = await page.locator(".ui").innerText().catch(() => "");
    throw new Error(
      `Expected the status ${text}; the overlay shows: ${shown}`,
      {
        cause: error,
      },
    );
  }
}

async function openEditor(
  context: BrowserContext,
  site: EditingSite,
): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on("pageerror", (error) => console.error("page error:", error.message));
  // Leaving with unsaved changes asks first (beforeunload): the tests leave.
  page.on("dialog", (dialog) => void dialog.accept());
  await page.goto(`${site.url}en/?edit`);
  await page.getByLabel("Site key").fill(site.key);
  await page.getByRole("button", { name: "Log in" }).click();
  await waitStatus(page, "No unsaved changes");
  return page;
}

/** Puts the caret at the end of a plain-text region and types. */
async function typeAtEnd(page: Page, pointer: string, text: string) {
  await page.locator(`[data-inpage-text="${pointer}"]`).click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(text);
}

/**
 * A rich text region's editable area by its field's name: the site's markup
 * until the editor is loaded, the editor after.
 */
const richText = (page: Page, field: string) =>
  page.getByRole("textbox", {
    name: new RegExp(`^Edit ${field} \\(rich text`),
  });

/** Selects the first `count` characters of a rich text region. */
async function selectStart(page: Page, field: string, count: number) {
  await richText(page, field).click();
  await page.keyboard.press("Control+Home");
  for (let i = 0; i < count; i++) await page.keyboard.press("Shift+ArrowRight");
}

async function addLink(page: Page, href: string, title: string) {
  await page.getByRole("button", { name: "Add or edit a link" }).click();
  await page.getByLabel("Address").fill(href);
  await page.getByLabel("Title (optional)").fill(title);
  await page.getByRole("button", { name: "Apply" }).click();
}

async function publish(page: Page, message: string): Promise<void> {
  await page.getByLabel("Message", { exact: true }).fill(message);
  await page.getByRole("button", { name: "Publish" }).click();
}

/** Width and height from a WebP file's header (VP8, VP8L or VP8X). */
function webpSize(bytes: Uint8Array): { width: number; height: number } {
  const text = (start: number, end: number) =>
    new TextDecoder().decode(bytes.subarray(start, end));
  assert.equal(text(0, 4), "RIFF");
  assert.equal(text(8, 12), "WEBP");
  const chunk = text(12, 16);
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  if (chunk === "VP8 ") {
    return {
      width: view.getUint16(26, true) & 0x3fff,
      height: view.getUint16(28, true) & 0x3fff,
    };
  }
  if (chunk === "VP8L") {
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  assert.equal(chunk, "VP8X");
  const u24 = (at: number) =>
    bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
  return { width: u24(24) + 1, height: u24(27) + 1 };
}

Deno.test("in Chromium: the overlay's end-to-end path, from login to logout", async () => {
  const began = performance.now();
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  // 1. Start the demo (`deno task demo`) and read its URL and key.
  await using site = await startDemo();
  await using browser = await launchChromium();
  const context = await browser.newContext({
    viewport: { width: 1200, height: 900 },
  });

  // Open the site with ?edit and log in with the printed key.
  const page = await openEditor(context, site);

  // 2. Edit the heading; make a word bold in a paragraph and link it.
  await typeAtEnd(page, "/title", " today");
  await selectStart(page, "text, section 1", 4);
  await page.getByRole("button", { name: "Bold (Ctrl+B)" }).click();
  await addLink(page, "/en/about/", "About us");
  await waitStatus(page, "2 unsaved changes");
  await page.screenshot({ path: join(ARTIFACTS, "edit-mode.png") });
  await publish(page, "Retitle the home page");
  const clicked = performance.now();
  await waitStatus(page, "Published");
  const publishToShown = performance.now() - clicked;

  // 3. The file holds the new values in canonical markup; git log the message.
  let home = await site.page();
  assert.equal(home.title, "Small sites, edited in place today");
  assert.equal(
    (home.sections as Array<Record<string, string>>)[0]?.body,
    '<p><a href="/en/about/" title="About us"><strong>Each</strong></a> page is one file in <em>src/content/pages</em>. A publish writes that file and makes <strong>one commit</strong>, with your message.</p>',
  );
  assert.equal(
    (await site.git("log", "-1", "--format=%s")).trim(),
    "Retitle the home page",
  );

  // 4. Replace the image with a real PNG, cropped square.
  await page.locator('[data-inpage-image="/image"]').click();
  await page.getByLabel("Image file").setInputFiles(IMAGE);
  await page.locator("button:enabled", { hasText: "Use this image" })
    .waitFor();
  await page.getByRole("button", { name: "1:1" }).click();
  // A new file asks for its own alt text.
  await page.getByLabel("Alt text").fill("Green hills under a rising sun");
  await page.getByRole("button", { name: "Use this image" }).click();
  await waitStatus(page, "1 unsaved change");
  await publish(page, "New picture");
  await waitStatus(page, "Published");
  home = await site.page();
  const image = home.image as Record<string, unknown>;
  assert.match(String(image.src), /^hills-at-dawn-[0-9a-f]{12}\.webp$/);
  assert.equal(image.alt, "Green hills under a rising sun");
  assert.equal(image.width, image.height);
  assert.ok((image.width as number) <= 540 && (image.width as number) > 500);
  const stored = await Deno.readFile(
    join(site.root, "public/images", String(image.src)),
  );
  assert.deepEqual(webpSize(stored), {
    width: image.width,
    height: image.height,
  });

  // 5. Someone else publishes first: Keep mine on another field succeeds…
  const other = await browser.newContext({
    viewport: { width: 1200, height: 900 },
  });
  const theirs = await openEditor(other, site);
  await typeAtEnd(theirs, "/sections/1/heading", " (theirs)");
  await publish(theirs, "Their change");
  await waitStatus(theirs, "Published");
  await typeAtEnd(page, "/sections/2/heading", " (mine)");
  await publish(page, "My change");
  await page.getByRole("heading", { name: "Someone published meanwhile" })
    .waitFor();
  await page.screenshot({ path: join(ARTIFACTS, "conflict.png") });
  await page.getByRole("button", { name: "Keep mine" }).click();
  await waitStatus(page, "Published");
  home = await site.page();
  const sections = home.sections as Array<Record<string, string>>;
  assert.equal(sections[1]?.heading, "Only safe markup gets in (theirs)");
  assert.equal(sections[2]?.heading, "Who made this (mine)");
  assert.equal(
    await page.locator('[data-inpage-text="/sections/1/heading"]')
      .textContent(),
    "Only safe markup gets in (theirs)",
  );

  // …and on the same field the dialog shows both values, and "Use theirs"
  // keeps theirs.
  await theirs.reload();
  // Their last publish is still said after the reload (sessionStorage).
  await waitStatus(theirs, "Published");
  await typeAtEnd(theirs, "/cta/text", " now");
  await publish(theirs, "Their button");
  await waitStatus(theirs, "Published");
  await typeAtEnd(page, "/cta/text", " today");
  await publish(page, "My button");
  await page.getByRole("heading", { name: "Someone published meanwhile" })
    .waitFor();
  const clash = page.getByRole("group", { name: "Link text" });
  assert.match(
    await clash.innerText(),
    /theirs\s+Meet the team now[\s\S]*mine\s+Meet the team today/i,
  );
  await page.screenshot({ path: join(ARTIFACTS, "conflict-refused.png") });
  await clash.getByRole("button", { name: "Use theirs" }).click();
  await page.getByRole("button", { name: "Keep mine" }).click();
  await waitStatus(page, "Nothing left to publish: their version is kept");
  assert.equal(
    ((await site.page()).cta as Record<string, string>).text,
    "Meet the team now",
  );
  await other.close();

  // 6. A javascript: link is refused in the link dialog, with the reason.
  await page.reload();
  await waitStatus(page, "No unsaved changes");
  await selectStart(page, "text, section 3", 4);
  await page.getByRole("button", { name: "Add or edit a link" }).click();
  await page.getByLabel("Address").fill("javascript:alert(1)");
  await page.keyboard.press("Enter");
  await page.getByText("This address is not allowed.").waitFor();
  assert.equal(
    await page.getByLabel("Address").inputValue(),
    "javascript:alert(1)",
  );
  await page.screenshot({ path: join(ARTIFACTS, "invalid-link.png") });
  await page.getByRole("button", { name: "Cancel" }).click();
  await waitStatus(page, "No unsaved changes");
  assert.doesNotMatch(
    JSON.stringify(await site.page()),
    /javascript:/,
  );

  // 7. An edit survives a reload and is published after it.
  await typeAtEnd(page, "/sections/0/heading", " safely");
  await waitStatus(page, "1 unsaved change");
  await page.reload();
  await page.getByRole("heading", { name: "Restore unsaved changes?" })
    .waitFor();
  await page.getByRole("button", { name: "Restore" }).click();
  await waitStatus(page, "1 unsaved change");
  assert.equal(
    await page.locator('[data-inpage-text="/sections/0/heading"]')
      .textContent(),
    "Content stays in the repository safely",
  );
  await publish(page, "Restored edit");
  await waitStatus(page, "Published");
  assert.equal(
    ((await site.page()).sections as Array<Record<string, string>>)[0]
      ?.heading,
    "Content stays in the repository safely",
  );

  // 8. Log out: the routes answer 401 and the overlay is gone.
  await openMore(page);
  await page.getByRole("button", { name: "Log out" }).click();
  await page.waitForURL(`${site.url}en/`);
  const status = await page.evaluate(async (path) => {
    const response = await fetch(
      `/api/content?path=${encodeURIComponent(path)}`,
    );
    return response.status;
  }, EN_HOME);
  assert.equal(status, 401);
  assert.equal(await page.locator("[data-inpage-overlay]").count(), 0);
  assert.equal(await bar(page).count(), 0);
  await context.close();
  console.log(
    `overlay end to end: publish click to "Published" ${
      publishToShown.toFixed(0)
    } ms; whole test ${((performance.now() - began) / 1000).toFixed(1)} s`,
  );
});

Deno.test("in Chromium: an ended session asks for the key again and keeps the edit, which then publishes", async () => {
  await using site = await startDemo();
  await using browser = await launchChromium();
  const context = await browser.newContext();
  const page = await openEditor(context, site);
  await typeAtEnd(page, "/title", " again");
  await context.clearCookies({ name: "editor_session" });
  await publish(page, "After a new login");
  await page.getByText(
    "Your session has ended. Log in again; your changes are kept.",
  ).waitFor();
  await waitStatus(page, "Not published: log in again");
  await page.getByLabel("Site key").fill(site.key);
  await page.getByRole("button", { name: "Log in" }).click();
  await waitStatus(page, "Logged in again: press Publish");
  await page.getByRole("button", { name: "Publish" }).click();
  await waitStatus(page, "Published");
  assert.equal((await site.page()).title, "Small sites, edited in place again");
  assert.equal(
    (await site.git("log", "-1", "--format=%s")).trim(),
    "After a new login",
  );
  await context.close();
});

Deno.test("in Chromium: for a visitor the loader makes no request and changes nothing; Ctrl+Shift+E opens the login", async () => {
  await using site = await startDemo();
  await using browser = await launchChromium();
  const plain = await browser.newContext({ javaScriptEnabled: false });
  const reference = await plain.newPage();
  await reference.goto(`${site.url}en/`);
  const expected = await reference.evaluate(() =>
    document.documentElement.outerHTML
  );
  await plain.close();

  const context = await browser.newContext();
  const page = await context.newPage();
  const requested: string[] = [];
  page.on(
    "request",
    (request) => requested.push(new URL(request.url()).pathname),
  );
  await page.goto(`${site.url}en/`);
  await page.waitForLoadState("networkidle");
  await page.keyboard.press("Shift+E");
  await page.keyboard.press("Control+E");
  assert.deepEqual(requested.sort(), [
    "/_inpage/loader.js",
    "/en/",
    "/images/hills-at-dawn-98c9ac741e4e.png",
    "/site.css",
  ]);
  assert.equal(
    await page.evaluate(() => document.documentElement.outerHTML),
    expected,
  );
  assert.equal(
    await page.evaluate(() =>
      document.adoptedStyleSheets.length + document.cookie.length
    ),
    0,
  );

  await page.locator("body").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("Control+Shift+E");
  await page.getByRole("heading", { name: "Log in to edit this site" })
    .waitFor();
  assert.ok(
    requested.some((path) =>
      /^\/_inpage\/overlay-[0-9a-f]{12}\.js$/.test(path)
    ),
  );
  await context.close();
});

Deno.test("in Chromium: axe-core finds no serious or critical violation in the overlay's interface, which works by keyboard alone", async () => {
  await using site = await startDemo();
  await using browser = await launchChromium();
  const context = await browser.newContext({
    viewport: { width: 1200, height: 900 },
  });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${site.url}en/?edit`);
  await page.addScriptTag({ content: axe.source });
  const audit = async (state: string) => {
    const found = await page.evaluate(async () => {
      // deno-lint-ignore no-explicit-any
      const axe = (globalThis as any).axe;
      const result = await axe.run(document, {
        resultTypes: ["violations"],
      });
      // deno-lint-ignore no-explicit-any
      return result.violations.flatMap((violation: any) =>
        // deno-lint-ignore no-explicit-any
        violation.nodes.map((node: any) => ({
          id: violation.id,
          impact: node.impact ?? violation.impact,
          target: JSON.stringify(node.target),
          html: String(node.html).slice(0, 120),
        }))
      );
    });
    const ours = found.filter((item: { target: string; html: string }) =>
      item.target.includes("data-inpage-overlay") ||
      /data-inpage-(?:text|html|image)/.test(item.html)
    );
    const serious = ours.filter((item: { impact: string }) =>
      item.impact === "serious" || item.impact === "critical"
    );
    assert.deepEqual(serious, [], `${state}: ${JSON.stringify(serious)}`);
    return ours.length;
  };
  await page.getByLabel("Site key").waitFor();
  await audit("login dialog");
  await page.getByLabel("Site key").fill(site.key);
  await page.getByRole("button", { name: "Log in" }).click();
  await waitStatus(page, "No unsaved changes");
  await richText(page, "text").click();
  await page.keyboard.type(" More.");
  await audit("edit mode with the toolbar");
  await page.getByRole("button", { name: "Add or edit a link" }).click();
  await audit("link dialog");
  await page.getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("heading", { name: "Link" }).waitFor({
    state: "detached",
  });
  await page.locator('[data-inpage-image="/image"]').click();
  await page.getByLabel("Image file").setInputFiles(IMAGE);
  await page.locator("button:enabled", { hasText: "Use this image" })
    .waitFor();
  await audit("image dialog");
  await page.getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("button", { name: "Discard it" }).click();
  await page.getByRole("heading", { name: "Replace image" }).waitFor({
    state: "detached",
  });

  // The same interface by keyboard alone.
  const focused = () =>
    page.evaluate(() => {
      const host = document.querySelector("[data-inpage-overlay]");
      const inner = host?.shadowRoot?.activeElement;
      return (inner ?? document.activeElement)?.getAttribute("aria-label") ??
        "";
    });
  // A closed dialog gives the focus back to the region that opened it; wait
  // for that before moving on, or it lands after the next focus() call.
  await page.waitForFunction(() =>
    document.querySelector("[data-inpage-overlay]")?.shadowRoot?.activeElement
        ?.getAttribute("aria-label") === "Replace image: image" ||
    document.activeElement?.getAttribute("aria-label") ===
      "Replace image: image"
  );
  await richText(page, "text").focus();
  await page.keyboard.press("Alt+F10");
  assert.equal(await focused(), "Bold (Ctrl+B)");
  await page.keyboard.press("ArrowRight");
  assert.equal(await focused(), "Italic (Ctrl+I)");
  await page.keyboard.press("Escape");
  assert.match(await focused(), /^Edit text \(rich text/);
  await page.keyboard.press("Control+k");
  await page.getByRole("heading", { name: "Link" }).waitFor();
  await page.keyboard.press("Escape");
  await page.getByRole("heading", { name: "Link" }).waitFor({
    state: "detached",
  });
  await page.locator('[data-inpage-image="/image"]').focus();
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { name: "Replace image" }).waitFor();
  await page.keyboard.press("Escape");
  await context.close();
});
