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
import { EN_HOME, launchChromium, until } from "./astro_support.ts";

const KEY = "astro dev key";

/** The little of the browser's DOM the page scripts below use. */
interface BrowserWindow {
  document: {
    createElement(tag: "canvas"): {
      width: number;
      height: number;
      getContext(kind: "2d"): {
        fillStyle: string;
        fillRect(x: number, y: number, w: number, h: number): void;
      } | null;
      toBlob(
        done: (blob: Blob | null) => void,
        type: string,
        quality: number,
      ): void;
    };
  };
}

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

/** Waits until the document was reloaded by Astro and `check` holds. */
async function afterReload(
  page: Page,
  check: () => Promise<boolean>,
  what: string,
): Promise<void> {
  await until(async () => {
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
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const origin = editor.url.slice(0, -1);
    await page.goto(origin + "/en/");
    // Vite may reload once after optimising its dependencies: let it settle.
    await page.waitForLoadState("networkidle");

    await t.step("log in", async () => {
      const login = await route(page, "/api/auth", {
        method: "POST",
        json: { key: KEY },
      });
      assert.equal(login.status, 200);
    });

    await t.step(
      "edit a heading and a rich-text paragraph, publish; Astro reloads with the new text",
      async () => {
        const { content, version } = await read(page, EN_HOME);
        const sections = content.sections as Record<string, unknown>[];
        const first = sections[0] as Record<string, unknown>;
        first.heading = "Edited through the proxy";
        first.body =
          '<p>Now <strong>bold</strong> and <a href="/en/about/" title="About">linked</a>.</p>';
        await markDocument(page);
        const save = await route(page, "/api/save", {
          method: "POST",
          json: {
            path: EN_HOME,
            content: JSON.stringify(content),
            version,
            message: "Edit the intro from astro dev",
          },
        });
        assert.equal(save.status, 200, JSON.stringify(save.body));
        await afterReload(
          page,
          async () =>
            await page.locator('[data-inpage-text="/sections/0/heading"]')
              .textContent() === "Edited through the proxy",
          "Astro's reload with the new heading",
        );
        assert.equal(
          await page.locator('[data-inpage-html="/sections/0/body"]')
            .innerHTML(),
          '<p>Now <strong>bold</strong> and <a href="/en/about/" title="About">linked</a>.</p>',
        );
        const file = JSON.parse(
          await Deno.readTextFile(join(root, EN_HOME)),
        );
        assert.equal(file.sections[0].heading, "Edited through the proxy");
        assert.match(
          await git(root, ["log", "-1", "--format=%s"]),
          /^Edit the intro from astro dev$/m,
        );
        // The same dev server: it reloaded the data, it did not restart.
        assert.match(astro.output(), /Reloaded data from en\/home\.json/);
        assert.doesNotMatch(astro.output(), /restart/i);
      },
    );

    await t.step(
      "replace an image: the <img> shows the new file with its width and height",
      async () => {
        const upload = await page.evaluate(async () => {
          const { document } = globalThis as unknown as BrowserWindow;
          const canvas = document.createElement("canvas");
          canvas.width = 640;
          canvas.height = 360;
          const context = canvas.getContext("2d")!;
          context.fillStyle = "#c0392b";
          context.fillRect(0, 0, 640, 360);
          context.fillStyle = "#fff";
          context.fillRect(40, 40, 200, 120);
          const blob = await new Promise<Blob | null>((done) =>
            canvas.toBlob(done, "image/webp", 0.9)
          );
          const form = new FormData();
          form.append("file", blob!, "new harbour.webp");
          form.append("name", "new harbour");
          const response = await fetch("/api/upload", {
            method: "POST",
            body: form,
          });
          return { status: response.status, body: await response.json() };
        });
        assert.equal(upload.status, 200, JSON.stringify(upload.body));
        const { src, width, height } = upload.body as {
          src: string;
          width: number;
          height: number;
        };
        assert.match(src, /\.webp$/);
        assert.deepEqual([width, height], [640, 360]);
        const { content, version } = await read(page, EN_HOME);
        const sections = content.sections as Record<string, unknown>[];
        (sections[1] as Record<string, unknown>).image = {
          src,
          width,
          height,
          alt: "A red harbour",
        };
        await markDocument(page);
        const save = await route(page, "/api/save", {
          method: "POST",
          json: {
            path: EN_HOME,
            content: JSON.stringify(content),
            version,
            message: "Replace the harbour image",
          },
        });
        assert.equal(save.status, 200, JSON.stringify(save.body));
        const image = page.locator('[data-inpage-image="/sections/1/image"]');
        await afterReload(
          page,
          async () => await image.getAttribute("src") === `/images/${src}`,
          "Astro's reload with the new image",
        );
        assert.equal(await image.getAttribute("width"), "640");
        assert.equal(await image.getAttribute("height"), "360");
        assert.equal(await image.getAttribute("alt"), "A red harbour");
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
          [640, 360],
        );
        const stored = await Deno.stat(join(root, "public/images", src));
        assert.ok(stored.isFile);
      },
    );

    await t.step(
      "hostile link objects spread onto <a>: refused, and nothing accepted runs a script",
      async () => {
        const hostile: Record<string, unknown>[] = [
          { href: "javascript:alert(1)" },
          { HREF: "javascript:alert(1)" },
          { href: "JaVaScRiPt:alert(1)" },
          { href: "java\tscript:alert(1)" },
          { href: "javascript&colon;alert(1)" },
          { href: "/en/", onclick: "alert(1)" },
          { href: "/en/", OnMouseOver: "alert(1)" },
          { href: "/en/", onfocus: "alert(1)", autofocus: "" },
          { href: "/en/", style: "position:fixed;inset:0" },
          { href: "/en/", srcset: "javascript:alert(1)" },
          { href: "/en/", formaction: "javascript:alert(1)" },
          { "xlink:href": "javascript:alert(1)" },
          { href: "/en/", ping: "javascript:alert(1)" },
          { href: "data:text/html,<script>alert(1)</script>" },
          { href: "/en/", "x onclick": "alert(1)" },
          { href: "/en/", title: '"><img src=x onerror=alert(1)>' },
          { href: "/en/", "aria-label": "<script>alert(1)</script>" },
        ];
        const before = await page.locator("header nav").innerHTML();
        for (const link of hostile) {
          const { content, version } = await read(page, EN_HOME);
          const nav = content.nav as Record<string, unknown>[];
          (nav[0] as Record<string, unknown>).link = link;
          const save = await route(page, "/api/save", {
            method: "POST",
            json: { path: EN_HOME, content: JSON.stringify(content), version },
          });
          assert.equal(save.status, 422, JSON.stringify(link));
          assert.match(
            String(save.body.at),
            /^\/nav\/0\/link(\/|$)/,
            JSON.stringify(link),
          );
        }
        // Nothing was written: the page is as it was.
        await page.reload();
        assert.equal(await page.locator("header nav").innerHTML(), before);
        // The routes accept these; rendered and used, they run nothing.
        const accepted: Record<string, unknown>[] = [
          { HREF: "/en/about/", title: "javascript:alert(1)" },
          { href: "/en/about/", title: 'x" onclick="alert(1)' },
          { href: "/en/about/", rel: "noopener", target: "_self" },
        ];
        for (const link of accepted) {
          const { content, version } = await read(page, EN_HOME);
          const nav = content.nav as Record<string, unknown>[];
          (nav[0] as Record<string, unknown>).link = link;
          await markDocument(page);
          const save = await route(page, "/api/save", {
            method: "POST",
            json: { path: EN_HOME, content: JSON.stringify(content), version },
          });
          assert.equal(save.status, 200, JSON.stringify(link));
          const anchor = page.locator('[data-inpage-text="/nav/0/text"]');
          await afterReload(
            page,
            async () =>
              (await anchor.evaluate(attributeNames)).length > 1 &&
              await anchor.getAttribute("href") === "/en/about/",
            "Astro's reload with the accepted link",
          );
          const names = await anchor.evaluate(attributeNames);
          for (const name of names) {
            assert.doesNotMatch(name, /^on|^style$/i, JSON.stringify(link));
          }
          await anchor.hover();
          await anchor.focus();
          await anchor.click();
          await page.waitForURL(/\/en\/about\/$/);
          await page.goBack();
          await page.waitForLoadState("networkidle");
        }
        assert.deepEqual(dialogs, []);
        const file = await Deno.readTextFile(join(root, EN_HOME));
        assert.doesNotMatch(file, /javascript:alert|onclick|srcset/i);
      },
    );
  } finally {
    await Deno.remove(root, { recursive: true }).catch(() => {});
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
});
