/**
 * The overlay keeps people's work, in Debian's Chromium on the demo
 * (`deno task demo`), driven by the names in the accessibility tree: the
 * link and image dialogs, undo, drafts after someone else's publish, the
 * conflict view, the message lifecycle, every problem at once, Tab. Each
 * dialog is photographed at 1280×800 and 390×844 (tests/browser/artifacts/)
 * and audited with axe-core.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import axe from "axe-core";
import type { Browser, Page } from "playwright-core";
import {
  ARTIFACTS,
  type EditingSite,
  EN_HOME,
  launchChromium,
  openMore,
  region,
  startDemo,
  typeAtEnd,
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

async function openEditor(
  browser: Browser,
  site: EditingSite,
  viewport: { width: number; height: number } = { width: 1280, height: 800 },
): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on("pageerror", (error) => console.error("page error:", error.message));
  page.on("dialog", (dialog) => void dialog.accept());
  await page.goto(`${site.url}en/?edit`);
  await page.getByLabel("Site key").fill(site.key);
  await page.keyboard.press("Enter");
  await waitStatus(page, "No unsaved changes");
  return page;
}

/** Photographs the open dialog at both sizes and audits it with axe-core. */
async function shoot(page: Page, name: string): Promise<void> {
  const before = page.viewportSize();
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.screenshot({
      path: join(ARTIFACTS, `dialog-${name}-${size.name}.png`),
    });
  }
  if (before) await page.setViewportSize(before);
  await audit(page, name);
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
        html: String(node.html).slice(0, 120),
      }))
    );
  });
  const serious = found.filter((
    item: { impact: string; target: string; html: string },
  ) =>
    (item.impact === "serious" || item.impact === "critical") &&
    (item.target.includes("data-inpage-overlay") ||
      /data-inpage-(?:text|html|image)/.test(item.html))
  );
  assert.deepEqual(serious, [], `${state}: ${JSON.stringify(serious)}`);
}

declare const document: unknown;

async function lastCommit(site: EditingSite): Promise<string> {
  return (await site.git("log", "-1", "--format=%s")).trim();
}

Deno.test("in Chromium: the overlay keeps people's work (dialogs, undo, drafts, conflicts, messages, problems, Tab)", async (t) => {
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  await using site = await startDemo();
  await using browser = await launchChromium();
  const page = await openEditor(browser, site);

  await t.step(
    "1. Ctrl+K, a URL, Enter makes the link; javascript: is refused in the dialog with the reason",
    async () => {
      const lead = page.getByRole("textbox", {
        name: /^Edit text \(rich text/,
      });
      await lead.click();
      await page.keyboard.press("Control+End");
      await page.keyboard.type(" See ");
      await page.keyboard.press("Control+k");
      const address = page.getByRole("textbox", { name: "Address" });
      await address.waitFor();
      await page.keyboard.type("javascript:alert(1)");
      await page.keyboard.press("Enter");
      await page.getByText("This address is not allowed.").waitFor();
      await shoot(page, "link-refused");
      assert.equal(await address.inputValue(), "javascript:alert(1)");
      await address.fill("https://example.com/docs");
      await page.keyboard.press("Enter");
      await address.waitFor({ state: "detached" });
      await waitStatus(page, "1 unsaved change");
      assert.match(
        await lead.innerHTML(),
        /<a href="https:\/\/example.com\/docs">https:\/\/example.com\/docs<\/a>/,
      );
      // After Escape, the next link dialog works.
      await page.keyboard.press("Control+k");
      await address.waitFor();
      await page.keyboard.press("Escape");
      await address.waitFor({ state: "detached" });
      await page.keyboard.type(" and ");
      await page.keyboard.press("Control+k");
      await page.keyboard.type("/en/about/");
      await page.keyboard.press("Enter");
      await address.waitFor({ state: "detached" });
      // The dialog's close event, which applies the link, comes a task
      // after it is hidden.
      await lead.locator('a[href="/en/about/"]').waitFor();
      assert.match(
        await lead.innerHTML(),
        /docs<\/a> and <a href="\/en\/about\/">\/en\/about\/<\/a>/,
      );
      // A pasted link the rule refuses is dropped, its text kept.
      // (A script string: these tests are typed without the DOM library.)
      await page.evaluate(`(() => {
      const data = new DataTransfer();
      data.setData("text/html",
        '<a href="javascript:alert(1)">pasted words</a> and <a href="/en/">home</a>');
      data.setData("text/plain", "pasted words and home");
      document.querySelector('[data-inpage-html="/lead"] .tiptap').dispatchEvent(
        new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    })()`);
      assert.match(
        await lead.innerHTML(),
        /pasted words and <a href="\/en\/">home<\/a>/,
      );
      assert.doesNotMatch(await lead.innerHTML(), /javascript:/);
      // Cancel works with the Address empty.
      await page.keyboard.press("Control+k");
      await page.getByRole("button", { name: "Cancel" }).click();
      await address.waitFor({ state: "detached" });
      await page.getByLabel("Message", { exact: true }).fill("Links");
      await page.getByLabel("Message", { exact: true }).press("Enter");
      await waitStatus(page, "Published");
      const lead2 = String((await site.page()).lead);
      assert.match(lead2, /<a href="https:\/\/example.com\/docs">/);
      assert.equal(await lastCommit(site), "Links");
    },
  );

  await t.step(
    "2. Choose an image, type the alt text, Enter: it is applied",
    async () => {
      // The dialog, photographed with its cropper ready, then cancelled.
      await page.getByRole("button", { name: "Replace image: image" }).click();
      await page.getByLabel("Image file").setInputFiles(IMAGE);
      await page.locator(".cropper-container").waitFor();
      await shoot(page, "image");
      // Escape asks before throwing the chosen file away.
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "Discard it" }).click();
      await page.getByLabel("Alt text").waitFor({ state: "detached" });
      // Enter at once: applied as soon as the cropper is ready.
      await page.getByRole("button", { name: "Replace image: image" }).click();
      await page.getByLabel("Image file").setInputFiles(IMAGE);
      await page.getByLabel("Alt text").fill("Hills at dawn, cropped");
      await page.getByLabel("Alt text").press("Enter");
      await waitStatus(page, "1 unsaved change");
      await page.getByLabel("Message", { exact: true }).fill("Picture");
      await page.getByRole("button", { name: "Publish" }).click();
      await waitStatus(page, "Published");
      const image = (await site.page()).image as Record<string, unknown>;
      assert.equal(image.alt, "Hills at dawn, cropped");
      assert.match(String(image.src), /^hills-at-dawn-[0-9a-f]{12}\.webp$/);
    },
  );

  await t.step(
    "3. Ctrl+Z in rich text undoes the last edit; the bar's Undo undoes a field change",
    async () => {
      const body = page.getByRole("textbox", {
        name: /^Edit text, section 1 \(rich text/,
      });
      await body.click();
      await page.keyboard.press("Control+End");
      // The toolbar is one Tab stop.
      assert.deepEqual(
        await page.locator('[role="toolbar"] button').evaluateAll((buttons) =>
          buttons.map((button) => button.getAttribute("tabindex"))
            .filter((index) => index === "0").length
        ),
        1,
      );
      await page.keyboard.type(" Extra");
      await waitStatus(page, "1 unsaved change");
      await page.keyboard.press("Control+z");
      await waitStatus(page, "No unsaved changes");
      assert.doesNotMatch(await body.innerText(), /Extra/);
      await typeAtEnd(page, "Edit title", " now");
      await waitStatus(page, "1 unsaved change");
      await page.getByRole("button", { name: "Undo" }).click();
      await waitStatus(page, "No unsaved changes");
      assert.equal(
        await region(page, "Edit title").innerText(),
        "Small sites, edited in place",
      );
      await page.getByRole("button", { name: "Redo" }).click();
      await waitStatus(page, "1 unsaved change");
      assert.equal(
        await region(page, "Edit title").innerText(),
        "Small sites, edited in place now",
      );
      // Outside a field (the focus on the bar), Ctrl+Z and Shift+Ctrl+Z
      // step through the session too.
      await page.keyboard.press("Control+z");
      await waitStatus(page, "No unsaved changes");
      await page.keyboard.press("Shift+Control+z");
      await waitStatus(page, "1 unsaved change");
      await page.getByRole("button", { name: "Discard all" }).click();
      await shoot(page, "discard-all");
      await page.getByRole("dialog").getByRole("button", {
        name: "Discard all",
      })
        .click();
      await waitStatus(page, "No unsaved changes");
    },
  );

  await t.step(
    "4. Someone else publishes; after a reload the draft is offered and Keep mine publishes what does not clash; the next commit has the next message",
    async () => {
      await typeAtEnd(page, "Edit heading, section 3", " (mine)");
      await waitStatus(page, "1 unsaved change");
      const theirs = await openEditor(browser, site);
      await typeAtEnd(theirs, "Edit heading, section 2", " (theirs)");
      await theirs.getByLabel("Message", { exact: true }).fill("Their change");
      await theirs.getByRole("button", { name: "Publish" }).click();
      await waitStatus(theirs, "Published");
      await page.reload();
      await page.getByRole("heading", { name: "Restore unsaved changes?" })
        .waitFor();
      await shoot(page, "draft-older");
      await page.getByRole("button", { name: "Keep mine" }).click();
      await waitStatus(page, "Published");
      const sections = (await site.page()).sections as Array<
        Record<string, string>
      >;
      assert.equal(sections[1]?.heading, "Only safe markup gets in (theirs)");
      assert.equal(sections[2]?.heading, "Who made this (mine)");
      assert.equal(
        await page.getByLabel("Message", { exact: true }).inputValue(),
        "",
      );
      await typeAtEnd(page, "Edit link text", "!");
      await page.getByLabel("Message", { exact: true }).fill("Next message");
      await page.getByLabel("Message", { exact: true }).press("Enter");
      await waitStatus(page, "Published");
      assert.equal(await lastCommit(site), "Next message");
      await theirs.context().close();
    },
  );

  await t.step(
    "5. and 6. Both changed the same field: the dialog shows both values; choosing theirs publishes the rest; then the message box is empty and the next commit has the next message",
    async () => {
      const theirs = await openEditor(browser, site);
      await typeAtEnd(theirs, "Edit title", " (theirs)");
      await theirs.getByRole("button", { name: "Publish" }).click();
      await waitStatus(theirs, "Published");
      await typeAtEnd(page, "Edit title", " (mine)");
      await typeAtEnd(page, "Edit heading, section 1", " (mine)");
      await page.getByLabel("Message", { exact: true }).fill(
        "Mine over theirs",
      );
      await page.getByRole("button", { name: "Publish" }).click();
      await page.getByRole("heading", { name: "Someone published meanwhile" })
        .waitFor();
      const clash = page.getByRole("group", { name: "Title" });
      assert.match(await clash.innerText(), /\(theirs\)[\s\S]*\(mine\)/);
      // Keep mine without a choice keeps the dialog open and says why.
      await page.getByRole("button", { name: "Keep mine" }).click();
      await page.getByText("Choose “Use mine” or “Use theirs”").waitFor();
      await shoot(page, "conflict");
      await clash.getByRole("button", { name: "Use theirs" }).click();
      await page.getByRole("button", { name: "Keep mine" }).click();
      await waitStatus(page, "Published");
      const home = await site.page();
      assert.equal(home.title, "Small sites, edited in place (theirs)");
      assert.equal(
        (home.sections as Array<Record<string, string>>)[0]?.heading,
        "Content stays in the repository (mine)",
      );
      assert.equal(await lastCommit(site), "Mine over theirs");
      // 6. After this Keep-mine publish the box is empty, and the next
      // commit has the next message.
      assert.equal(
        await page.getByLabel("Message", { exact: true }).inputValue(),
        "",
      );
      await typeAtEnd(page, "Edit heading, section 2", ".");
      await page.getByLabel("Message", { exact: true }).fill("After keep mine");
      await page.getByLabel("Message", { exact: true }).press("Enter");
      await waitStatus(page, "Published");
      assert.equal(await lastCommit(site), "After keep mine");
      await theirs.context().close();
    },
  );

  await t.step("An emptied heading asks before publishing", async () => {
    await region(page, "Edit link text").click();
    await page.keyboard.press("Control+a");
    await page.keyboard.press("Delete");
    await waitStatus(page, "1 unsaved change");
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByRole("heading", { name: "Publish an empty field?" })
      .waitFor();
    await shoot(page, "emptied");
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("button", { name: "Undo" }).click();
    await waitStatus(page, "No unsaved changes");
    assert.equal(
      await region(page, "Edit link text").innerText(),
      "Meet the team!",
    );
  });

  await t.step("8. Tab never changes the page file", async () => {
    await page.reload();
    await waitStatus(page, "No unsaved changes");
    const before = await Deno.readTextFile(join(site.root, EN_HOME));
    const list = page.getByRole("textbox", {
      name: /^Edit text, section 2 \(rich text/,
    });
    await list.locator("li").first().click();
    await page.keyboard.press("End");
    for (const key of ["Tab", "Shift+Tab", "Tab", "Tab"]) {
      await page.keyboard.press(key);
    }
    await list.locator("li").nth(1).click();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Shift+Tab");
    await waitStatus(page, "No unsaved changes");
    await page.getByRole("button", { name: "Publish" }).click();
    await waitStatus(page, "Nothing to publish");
    assert.equal(await Deno.readTextFile(join(site.root, EN_HOME)), before);
  });

  await t.step(
    "7. A page with a refused link and a tag-like heading shows both problems at once, and can be fixed and published",
    async () => {
      const home = await site.page();
      const sections = home.sections as Array<Record<string, string>>;
      sections[0]!.heading = "Content <tricks>";
      sections[1]!.body = '<p>Go <a href="javascript:alert(1)">there</a>.</p>';
      await Deno.writeTextFile(
        join(site.root, EN_HOME),
        JSON.stringify(home, null, 2) + "\n",
      );
      await site.git("commit", "-qam", "A hand edit that fails the rules");
      await page.reload();
      await waitStatus(page, "No unsaved changes");
      const problems = page.getByRole("region", { name: "Problems to fix" });
      await problems.waitFor();
      const listed = await problems.innerText();
      assert.match(listed, /Heading, section 1\s+Plain text cannot hold/);
      assert.match(listed, /Text, section 2\s+This link is not allowed/);
      const heading = region(page, "Edit heading, section 1");
      assert.equal(await heading.getAttribute("aria-invalid"), "true");
      await page.locator(
        '[data-inpage-html="/sections/1/body"] a[data-inpage-invalid]',
      )
        .waitFor();
      await page.screenshot({ path: join(ARTIFACTS, "problems-at-once.png") });
      // The page keeps room for the list too: its footer scrolls above it.
      await page.evaluate("scrollTo(0, document.documentElement.scrollHeight)");
      const footer = await page.locator("footer").boundingBox();
      const list = await problems.boundingBox();
      assert.ok(footer && list);
      assert.ok(
        footer.y + footer.height <= list.y + 0.5,
        `the footer ${JSON.stringify(footer)} lies under the problems ${
          JSON.stringify(list)
        }`,
      );
      await page.screenshot({ path: join(ARTIFACTS, "problems-footer.png") });
      await audit(page, "problems at once");
      // Fix both, then publish.
      await heading.click();
      await page.keyboard.press("Control+a");
      await page.keyboard.type("Content, fixed");
      const body = page.getByRole("textbox", {
        name: /^Edit text, section 2 \(rich text/,
      });
      await body.click();
      await page.keyboard.press("Control+a");
      await page.keyboard.type("No link any more.");
      await problems.waitFor({ state: "hidden" });
      await page.getByRole("button", { name: "Publish" }).click();
      await waitStatus(page, "Published");
      const fixed = (await site.page()).sections as Array<
        Record<string, string>
      >;
      assert.equal(fixed[0]?.heading, "Content, fixed");
      assert.equal(fixed[1]?.body, "<p>No link any more.</p>");
    },
  );

  await t.step("Log out with unsaved changes asks first", async () => {
    await typeAtEnd(page, "Edit title", " again");
    await openMore(page);
    await page.getByRole("button", { name: "Log out" }).click();
    await page.getByRole("heading", { name: "Log out with unsaved changes?" })
      .waitFor();
    await shoot(page, "logout");
    await page.getByRole("button", { name: "Cancel" }).click();
    await waitStatus(page, "1 unsaved change");
    await openMore(page);
    await page.getByRole("button", { name: "Log out" }).click();
    await page.getByRole("button", { name: "Log out anyway" }).click();
    await page.waitForURL(`${site.url}en/`);
  });
  await page.context().close();
});

Deno.test("in Chromium: the login dialog at both sizes, Enter logs in and the focus is on the key first", async () => {
  await using site = await startDemo();
  await using browser = await launchChromium();
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  await page.goto(`${site.url}en/?edit`);
  const key = page.getByLabel("Site key");
  await key.waitFor();
  await page.keyboard.type("wrong key");
  await page.keyboard.press("Enter");
  await page.getByText("This key is not right.").waitFor();
  await shoot(page, "login");
  await key.fill(site.key);
  await page.keyboard.press("Enter");
  await waitStatus(page, "No unsaved changes");
  await context.close();
});
