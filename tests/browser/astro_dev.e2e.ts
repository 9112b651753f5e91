/**
 * The Astro example in development: `astro dev` (run by Deno) behind
 * `editor serve --proxy`, on a temporary git copy of examples/astro, in
 * Chromium. Log in, edit a heading and a rich-text paragraph, publish: the
 * commit is in the repository and Astro's dev server reloads the page with
 * the new text, without a restart. Replace an image: the `<img>` shows the
 * new file with its width and height. Hostile link objects, which the
 * template spreads onto `<a>`, are refused by the routes, and nothing the
 * routes accept runs a script on the rendered page.
 *
 * Slow (npm install, astro dev): run by `deno task test-astro`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import {
  copyExample,
  installPackages,
  startAstroDev,
  startEditorProxy,
} from "../../examples/astro/demo.ts";
import { fastHash } from "../support/helpers.ts";
import { ARTIFACTS, EN_HOME, launchChromium, until } from "./astro_support.ts";

const KEY = "astro dev key";
/** What the page did, shown when a wait times out. */
const events: string[] = [];

/** The properties of an `<img>` read below. */
interface ImageNode {
  complete: boolean;
  naturalWidth: number;
  naturalHeight: number;
}

/** The attribute names of an element. */
function attributeNames(node: unknown): string[] {
  return Array.from(
    (node as { attributes: ArrayLike<{ name: string }> }).attributes,
    (attribute) => attribute.name,
  );
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** Calls a route from the page, with the browser's cookies. */
function route(
  page: Page,
  path: string,
  init: { method?: string; json?: unknown } = {},
): Promise<Answer> {
  return page.evaluate(async ({ path, method, json }) => {
    const response = await fetch(path, {
      method: method ?? "GET",
      ...json === undefined ? {} : {
        headers: { "content-type": "application/json" },
        body: JSON.stringify(json),
      },
    });
    return { status: response.status, body: await response.json() };
  }, { path, method: init.method, json: init.json });
}

/** Reads a page file through the routes. */
async function read(
  page: Page,
  path: string,
): Promise<{ content: Record<string, unknown>; version: string }> {
  const answer = await route(
    page,
    `/api/content?path=${encodeURIComponent(path)}`,
  );
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return {
    content: JSON.parse(answer.body.content as string),
    version: answer.body.version as string,
  };
}

/** Marks the current document, to see when Astro has replaced it. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    (globalThis as unknown as { inpageMark: boolean }).inpageMark = true;
  });
}

/** Keeps a screenshot as a test artefact. */
async function keep(page: Page, name: string): Promise<void> {
  try {
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: join(ARTIFACTS, name), timeout: 10_000 })
      .catch(() =>
        page.screenshot({ path: join(ARTIFACTS, name), timeout: 10_000 })
      );
  } catch (error) {
    throw new Error(
      `screenshot ${name}: ${(error as Error).message}; events:\n${
        events.join("\n")
      }`,
    );
  }
}

/** Waits for `check`; on a timeout, keeps a screenshot and says what the page shows. */
async function waitOrShow(
  page: Page,
  check: () => Promise<boolean>,
  what: string,
): Promise<void> {
  try {
    await until(check, what);
  } catch (error) {
    const name = what.replace(/[^a-z0-9]+/gi, "-").toLowerCase();
    await page.screenshot({ path: join(ARTIFACTS, `astro-failed-${name}.png`) })
      .catch(() => {});
    const status = await page.getByRole("status").textContent({ timeout: 1000 })
      .catch(() => "(none)");
    const alert = await page.getByRole("alert").allTextContents()
      .catch(() => []);
    throw new Error(
      `${(error as Error).message}; status: ${status}; alerts: ${
        alert.join(" | ")
      }; events:\n${events.join("\n")}`,
    );
  }
}

/** Waits until the document was reloaded by Astro and `check` holds. */
async function afterReload(
  page: Page,
  check: () => Promise<boolean>,
  what: string,
): Promise<void> {
  await waitOrShow(page, async () => {
    try {
      const marked = await page.evaluate(() =>
        (globalThis as unknown as { inpageMark?: boolean }).inpageMark === true
      );
      return !marked && await check();
    } catch {
      return false; // the document is being replaced
    }
  }, what);
}

/**
 * Publishes the overlay's changes with a message, then waits until Astro
 * has reloaded the document and `check` holds.
 */
async function publishThenReload(
  page: Page,
  message: string,
  event: string,
  check: () => Promise<boolean>,
  what: string,
): Promise<void> {
  await page.getByPlaceholder("What did you change?").fill(message);
  events.push(event);
  await markDocument(page);
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await afterReload(page, check, what);
}

/** Sets the first nav entry's link object of the English home and publishes it. */
async function saveNavLink(
  api: Page,
  link: Record<string, unknown>,
): Promise<Answer> {
  const { content, version } = await read(api, EN_HOME);
  const nav = content.nav as Record<string, unknown>[];
  (nav[0] as Record<string, unknown>).link = link;
  return await route(api, "/api/save", {
    method: "POST",
    json: { path: EN_HOME, content: JSON.stringify(content), version },
  });
}

async function git(root: string, args: string[]): Promise<string> {
  const output = await new Deno.Command("git", {
    args: ["-C", root, ...args],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(output.stdout);
}

Deno.test("astro dev behind editor serve --proxy: publish, Astro reloads, images, hostile links", async (t) => {
  const root = await copyExample();
  const work = await Deno.makeTempDir({ prefix: "inpage-astro-dev-" });
  try {
    const installMs = await installPackages(root);
    console.log(`npm install: ${(installMs / 1000).toFixed(1)} s`);
    await using astro = await startAstroDev(root);
    await using editor = await startEditorProxy(root, astro.url, {
      args: ["--kv", join(work, "kv.sqlite3")],
      env: { EDITOR_KEY_HASH: await fastHash(KEY) },
    });
    await using browser = await launchChromium(work);
    const page = await browser.context.newPage();
    // The routes are called from a second tab on the same origin, showing an
    // image: it runs no script, so Astro's reloads never interrupt a call.
    const api = await browser.context.newPage();
    const dialogs: string[] = [];
    const started = Date.now();
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) {
        events.push(`${Date.now() - started} ms: navigated to ${frame.url()}`);
      }
    });
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/api/")) {
        events.push(
          `${Date.now() - started} ms: ${request.method()} ${request.url()}`,
        );
      }
    });
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const origin = editor.url.slice(0, -1);
    await api.goto(origin + "/images/harbour-2c9e41d07b3a.png");
    // A first visit lets Vite optimise the page's dependencies (it reloads
    // the page once when it has); then the page opens in edit mode.
    await page.goto(origin + "/en/");
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(1000);
    await page.goto(origin + "/en/?edit");
    const heading = page.locator('[data-inpage-text="/sections/0/heading"]');
    const body = page.locator('[data-inpage-html="/sections/0/body"]');
    const status = page.getByRole("status");

    await t.step("log in through the overlay's dialog", async () => {
      const editable = page.locator(
        '[data-inpage-text="/sections/0/heading"][contenteditable]',
      );
      // Should Vite still reload the page, its overlay asks again.
      await waitOrShow(page, async () => {
        if (await editable.count() > 0) return true;
        const field = page.getByLabel("Site key");
        if (await field.isVisible()) {
          await field.fill(KEY);
          await page.getByRole("button", { name: "Log in" }).click();
          await editable.waitFor({ timeout: 5000 }).catch(() => {});
        }
        return await editable.count() > 0;
      }, "the overlay's login");
      await until(
        async () => /No unsaved changes/.test(await status.textContent() ?? ""),
        "the overlay to be ready",
      );
    });

    await t.step(
      "edit a heading and a rich-text paragraph, publish; Astro reloads with the new text",
      async () => {
        await heading.click();
        await page.keyboard.press("ControlOrMeta+a");
        await page.keyboard.type("Edited in the Astro page");
        await body.locator("p").last().click();
        await page.keyboard.press("End");
        await page.keyboard.type(" Now in bold");
        for (let i = 0; i < 4; i++) {
          await page.keyboard.press("Shift+ArrowLeft");
        }
        await page.getByRole("button", { name: /^Bold/ }).click();
        await publishThenReload(
          page,
          "Edit the intro in the Astro page",
          "publish the text",
          async () =>
            await heading.textContent() === "Edited in the Astro page" &&
            await body.locator("strong", { hasText: "bold" }).count() === 1,
          "Astro's reload with the new heading and paragraph",
        );
        const file = JSON.parse(
          await Deno.readTextFile(join(root, EN_HOME)),
        );
        assert.equal(file.sections[0].heading, "Edited in the Astro page");
        assert.match(
          file.sections[0].body,
          /<p>Open this page with <strong>\?edit<\/strong>, log in, and change any of this text\. Now in <strong>bold<\/strong><\/p>$/,
        );
        assert.match(
          await git(root, ["log", "-1", "--format=%s"]),
          /^Edit the intro in the Astro page$/m,
        );
        // The same dev server: it reloaded the data, it did not restart.
        assert.match(astro.output(), /Reloaded data from en\/home\.json/);
        assert.doesNotMatch(astro.output(), /restart/i);
        // The reloaded page is in edit mode again.
        await page.locator(
          '[data-inpage-text="/sections/0/heading"][contenteditable]',
        ).waitFor();
        await keep(page, "astro-dev-edit-mode.png");
      },
    );

    await t.step(
      "replace an image: the <img> shows the new file with its width and height",
      async () => {
        const image = page.locator('[data-inpage-image="/sections/1/image"]');
        await image.click();
        await page.getByLabel("Image file").setInputFiles(
          join(root, "public/images/workshop-5a7f13c8e0d2.png"),
        );
        const apply = page.getByRole("button", { name: "Use this image" });
        await until(() => apply.isEnabled(), "the cropper to be ready");
        await keep(page, "astro-dev-image-dialog.png");
        // A new file asks for its own alt text.
        await page.getByLabel("Alt text").fill("The harbour at noon");
        await apply.click();
        await until(
          async () =>
            /^1 unsaved change/.test(await status.textContent() ?? ""),
          "the uploaded image to be a change",
        );
        await publishThenReload(
          page,
          "Replace the harbour image",
          "publish the image",
          async () => /\.webp$/.test(await image.getAttribute("src") ?? ""),
          "Astro's reload with the new image",
        );
        const file = JSON.parse(
          await Deno.readTextFile(join(root, EN_HOME)),
        );
        const media = file.sections[1].image;
        assert.match(media.src, /^workshop-[a-z0-9-]+\.webp$/);
        assert.equal(await image.getAttribute("src"), `/images/${media.src}`);
        assert.equal(await image.getAttribute("width"), String(media.width));
        assert.equal(
          await image.getAttribute("height"),
          String(media.height),
        );
        // The whole picture, cropped at its full size: 800 x 600.
        assert.deepEqual([media.width, media.height], [800, 600]);
        // The browser loaded the new file through the proxy.
        await until(
          () =>
            image.evaluate((node) => (node as unknown as ImageNode).complete),
          "the image to load",
        );
        assert.deepEqual(
          await image.evaluate((node) => [
            (node as unknown as ImageNode).naturalWidth,
            (node as unknown as ImageNode).naturalHeight,
          ]),
          [media.width, media.height],
        );
        const stored = await Deno.readFile(
          join(root, "public/images", media.src),
        );
        assert.equal(new TextDecoder().decode(stored.subarray(8, 12)), "WEBP");
        assert.match(
          await git(root, ["log", "-2", "--format=%s"]),
          /Replace the harbour image/,
        );
      },
    );

    await t.step(
      "a list operation and a link edit: a section copied, a navigation link's address changed, published; Astro reloads with both",
      async () => {
        await page.locator("#hero").hover();
        await page.locator("#hero").getByRole("button", { name: "Add after" })
          .click();
        await until(
          async () => await page.locator("#hero-2").count() === 1,
          "the copy shown at once",
        );
        const about = page.locator('[data-inpage-link="/nav/0/link"]');
        await about.hover();
        await page.locator(
          '[data-inpage-link="/nav/0/link"] + [data-inpage-controls]',
        ).getByRole("button", { name: "Edit link" }).click();
        await page.getByRole("combobox", { name: "Address" }).fill(
          "/fr/about/",
        );
        await page.getByRole("button", { name: "Apply" }).click();
        await publishThenReload(
          page,
          "Copy the harbour section, About in French",
          "publish a list operation and a link",
          async () =>
            await page.locator("#hero-2").count() === 1 &&
            await about.getAttribute("href") === "/fr/about/",
          "Astro's reload with the copy and the link",
        );
        const file = JSON.parse(await Deno.readTextFile(join(root, EN_HOME)));
        assert.deepEqual(
          file.sections.map((section: { id: string }) => section.id),
          ["intro", "hero", "hero-2"],
        );
        const { id: _copy, ...copy } = file.sections[2];
        const { id: _hero, ...hero } = file.sections[1];
        assert.deepEqual(copy, hero);
        assert.equal(file.nav[0].link.href, "/fr/about/");
        await keep(page, "astro-dev-structure.png");
      },
    );

    await t.step(
      "hostile link objects spread onto <a>: refused, and nothing accepted runs a script",
      async () => {
        // Each with the reason the routes give (the 422 body's `reason`).
        const hostile: [Record<string, unknown>, string][] = [
          [{ href: "javascript:alert(1)" }, "link"],
          [{ HREF: "javascript:alert(1)" }, "link"],
          [{ href: "JaVaScRiPt:alert(1)" }, "link"],
          [{ href: "java\tscript:alert(1)" }, "link"],
          [{ href: "javascript&colon;alert(1)" }, "link"],
          [{ href: "/en/", onclick: "alert(1)" }, "key"],
          [{ href: "/en/", OnMouseOver: "alert(1)" }, "key"],
          [{ href: "/en/", onfocus: "alert(1)", autofocus: "" }, "key"],
          [{ href: "/en/", style: "position:fixed;inset:0" }, "key"],
          [{ href: "/en/", srcset: "javascript:alert(1)" }, "link"],
          [{ href: "/en/", formaction: "javascript:alert(1)" }, "link"],
          [{ "xlink:href": "javascript:alert(1)" }, "link"],
          [{ href: "/en/", ping: "javascript:alert(1)" }, "link"],
          [{ href: "data:text/html,<script>alert(1)</script>" }, "markup"],
          [{
            href: "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
          }, "link"],
          [{ href: "/en/", "x onclick": "alert(1)" }, "key"],
          // A value that is itself a javascript: URL, under any key.
          [{ HREF: "/en/about/", title: "javascript:alert(1)" }, "link"],
          [{ href: "/en/", title: '"><img src=x onerror=alert(1)>' }, "markup"],
          [
            { href: "/en/", "aria-label": "<script>alert(1)</script>" },
            "markup",
          ],
        ];
        const served = async () =>
          /<nav[\s>][\s\S]*<\/nav>/.exec(
            await api.evaluate(async () => await (await fetch("/en/")).text()),
          )?.[0];
        const before = await served();
        assert.ok(before);
        for (const [link, reason] of hostile) {
          const save = await saveNavLink(api, link);
          assert.equal(save.status, 422, JSON.stringify(link));
          assert.equal(save.body.reason, reason, JSON.stringify(link));
          assert.match(
            String(save.body.at),
            /^\/nav\/0\/link(\/|$)/,
            JSON.stringify(link),
          );
        }
        // Nothing was written: Astro renders the page as it was.
        assert.equal(await served(), before);
        // The routes accept these; a visitor's page runs nothing from them.
        await using visitorBrowser = await launchChromium(
          join(work, "visitor"),
        );
        const visitor = await visitorBrowser.context.newPage();
        visitor.on("dialog", (dialog) => {
          dialogs.push(dialog.message());
          void dialog.dismiss();
        });
        const accepted: Record<string, unknown>[] = [
          { href: "/en/about/", title: 'x" onclick="alert(1)' },
          { href: "/en/about/", rel: "noopener", target: "_self" },
        ];
        for (const link of accepted) {
          const save = await saveNavLink(api, link);
          assert.equal(save.status, 200, JSON.stringify(link));
          const title = (link.title as string | undefined) ?? null;
          const anchor = visitor.locator('[data-inpage-text="/nav/0/text"]');
          await until(async () => {
            try {
              await visitor.goto(origin + "/en/");
              await visitor.waitForLoadState("networkidle");
              return await anchor.getAttribute("title") === title &&
                await anchor.getAttribute("rel") === (link.rel ?? null);
            } catch {
              return false; // a reload by Vite came in between
            }
          }, "Astro to render the accepted link");
          for (const name of await anchor.evaluate(attributeNames)) {
            assert.doesNotMatch(name, /^on|^style$/i, JSON.stringify(link));
          }
          assert.equal(await anchor.getAttribute("href"), "/en/about/");
          await anchor.hover();
          await anchor.focus();
          await anchor.click();
          await visitor.waitForURL(/\/en\/about\/$/);
        }
        assert.deepEqual(dialogs, []);
      },
    );
  } finally {
    await Deno.remove(root, { recursive: true }).catch(() => {});
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
});
