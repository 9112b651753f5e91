/**
 * Adopting an existing Astro site, in Chromium, on a copy of examples/astro
 * changed the way a real theme is (`astro dev` behind
 * `editor serve --proxy`):
 *
 * - its images go through an `<Image>` wrapper (astro:assets) that globs
 *   `public/images/*.{jpeg,jpg,png,gif,svg}`, as Astroplate's does, so the
 *   rendered `src` is Astro's `/_image?href=…`, and the page container says
 *   `data-inpage-image-format="jpeg"` (the wrapper takes no WebP);
 * - a template has a mistyped pointer (`/descripton`) and an image region on
 *   a plain string.
 *
 * Before login: no console error and no failed response. After: the two
 * regions are outlined, not editable, with a sentence, and the console has
 * one grouped warning; publishing other fields adds no stray key. A new
 * image (with its alt text, which a new file needs) is previewed as the
 * chosen image itself (an object URL) until the site's reload after publish;
 * nothing is uploaded and the page is not reloaded before Publish; it is
 * uploaded as a JPEG, and after publish the site renders it its own way.
 *
 * Slow (npm install, astro dev): run by `deno task test-astro`, with the
 * other Astro e2e tests (CI runs it).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { commitAll, copyTree } from "../../cli/demo_site.ts";
import {
  EXAMPLE,
  installPackages,
  startAstroDev,
  startEditorProxy,
} from "../../examples/astro/demo.ts";
import { fastHash } from "../support/helpers.ts";
import { ARTIFACTS, EN_HOME, launchChromium, until } from "./astro_support.ts";

const KEY = "astro adopt key";
const PAGE_TEMPLATE = "src/pages/[lang]/[...page].astro";
const SECTION_COMPONENT = "src/components/Section.astro";

/** The `<Image>` wrapper of the adopted theme (Astroplate's, in short). */
const IMAGE_WRAPPER = `---
// The theme's image wrapper: a bare name from public/images/, rendered by
// astro:assets. Like Astroplate's, it globs only these formats.
import { Image } from "astro:assets";
import type { ImageMetadata } from "astro";
const { src, ...rest } = Astro.props;
const images = import.meta.glob<{ default: ImageMetadata }>(
  "/public/images/*.{jpeg,jpg,png,gif,svg}",
);
const found = images[\`/public/images/\${src}\`];
---
{found && <Image src={(await found()).default} {...rest} />}
`;

/** Applies one replacement that must match exactly once. */
function replaceOnce(text: string, from: string, to: string): string {
  assert.equal(text.split(from).length, 2, `one ${from}`);
  return text.replace(from, to);
}

/** A copy of the example, adopted as described above, in one git commit. */
async function adoptedCopy(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "inpage-astro-adopt-" });
  await copyTree(EXAMPLE, root, new Set(["node_modules", "dist", ".astro"]));
  await Deno.mkdir(join(root, "src/components"), { recursive: true });
  await Deno.writeTextFile(
    join(root, "src/components/ImageMod.astro"),
    IMAGE_WRAPPER,
  );
  let template = await Deno.readTextFile(join(root, PAGE_TEMPLATE));
  template = replaceOnce(
    template,
    `import Page from "../../layouts/Page.astro";`,
    `import Page from "../../layouts/Page.astro";
import ImageMod from "../../components/ImageMod.astro";`,
  );
  template = replaceOnce(
    template,
    `const { title, description = "", nav = [], sections = [] } = entry.data;`,
    `const { title, description = "", banner, nav = [], sections = [] } = entry.data;`,
  );
  template = replaceOnce(
    template,
    `<div {...inpage.page(entry.filePath!)} {...inpage.fields(["/description"])}>`,
    `<div {...inpage.page(entry.filePath!)} {...inpage.fields(["/description"])} data-inpage-image-format="jpeg">`,
  );
  // One letter off, and an image region on a plain string.
  template = replaceOnce(
    template,
    `<h1 {...inpage.text("/title")}>{title}</h1>`,
    `<h1 {...inpage.text("/title")}>{title}</h1>
      {description !== undefined && <p class="lead" {...inpage.text("/descripton")}>{description}</p>}
      {banner !== undefined && <img class="banner" {...inpage.image("/banner")} src={\`/images/\${banner}\`} width="320" height="168" alt="" />}`,
  );
  await Deno.writeTextFile(join(root, PAGE_TEMPLATE), template);
  // The sections' images, rendered by the Section component, go through
  // the wrapper.
  let section = await Deno.readTextFile(join(root, SECTION_COMPONENT));
  section = replaceOnce(
    section,
    `import { inpage } from "@inpage/editor/regions";`,
    `import { inpage } from "@inpage/editor/regions";
import ImageMod from "./ImageMod.astro";`,
  );
  section = section.replace(
    /<img\s+\{\.\.\.inpage\.image\(\["sections", i, "image"\]\)\}\s+src=\{`\/images\/\$\{section\.image\.src\}`\}/,
    `<ImageMod {...inpage.image(["sections", i, "image"])} src={section.image.src}`,
  );
  assert.match(section, /<ImageMod /);
  await Deno.writeTextFile(join(root, SECTION_COMPONENT), section);
  const home = JSON.parse(await Deno.readTextFile(join(root, EN_HOME)));
  await Deno.writeTextFile(
    join(root, EN_HOME),
    JSON.stringify(
      {
        title: home.title,
        banner: "harbour-2c9e41d07b3a.png",
        ...home,
        description: "Websites for small harbours.",
      },
      null,
      2,
    ) + "\n",
  );
  await commitAll(root, "Adopted Astro site");
  return root;
}

/** What the page logged and fetched. */
interface Watch {
  console: Array<{ type: string; text: string }>;
  failed: string[];
  navigations: string[];
  dialogs: string[];
}

function watch(page: Page): Watch {
  const seen: Watch = {
    console: [],
    failed: [],
    navigations: [],
    dialogs: [],
  };
  page.on("console", (message) => {
    seen.console.push({ type: message.type(), text: message.text() });
  });
  page.on("response", (response) => {
    if (response.status() >= 400) {
      seen.failed.push(`${response.status()} ${response.url()}`);
    }
  });
  page.on("requestfailed", (request) => {
    seen.failed.push(`failed ${request.url()}`);
  });
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) seen.navigations.push(frame.url());
  });
  page.on("dialog", (dialog) => {
    seen.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return seen;
}

/**
 * Waits until the page has not navigated for `ms`. Astro's dev server
 * reloads the page once Vite has optimised its dependencies on a first
 * visit, and after a publish sometimes twice, about half a second apart:
 * what the test does on the first reloaded page would be lost.
 */
async function quiet(seen: Watch, ms = 2000): Promise<void> {
  let count = seen.navigations.length;
  let since = Date.now();
  await until(() => {
    if (seen.navigations.length !== count) {
      count = seen.navigations.length;
      since = Date.now();
    }
    return Date.now() - since >= ms;
  }, "the page to stop reloading");
}

/**
 * The `[ERROR]` reports in Astro's output but one that says nothing of the
 * site: a file that comes and goes at once (the temporary files Astro
 * writes in `.astro/` as it starts) gets a watcher from Vite's chokidar,
 * closed again at once; under Deno that watcher can still report an error,
 * which chokidar then fails to record (`Cannot add property
 * watcherUnusable, object is not extensible`, an unhandled rejection).
 */
function siteErrors(output: string): string[] {
  const lines = output.split("\n");
  return lines.filter((line, index) =>
    /\[ERROR\]/.test(line) &&
    !(/\[UnhandledRejection\]/.test(line) &&
      /^TypeError: Cannot add property watcherUnusable, object is not extensible$/
        .test(lines[index + 1] ?? ""))
  );
}

/** Keeps a screenshot as a test artefact, at a viewport size. */
async function keep(
  page: Page,
  name: string,
  width: number,
  height: number,
): Promise<void> {
  await page.setViewportSize({ width, height });
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(ARTIFACTS, name) });
}

/** The properties of an `<img>` read below. */
interface ImageNode {
  currentSrc: string;
  complete: boolean;
  naturalWidth: number;
  naturalHeight: number;
  srcset: string;
  getAttribute(name: string): string | null;
}

function imageState(node: unknown) {
  const image = node as ImageNode;
  return {
    src: image.getAttribute("src") ?? "",
    currentSrc: image.currentSrc,
    srcset: image.getAttribute("srcset"),
    sizes: image.getAttribute("sizes"),
    complete: image.complete,
    naturalWidth: image.naturalWidth,
  };
}

/** Whether the document is still the one marked before. */
async function marked(page: Page): Promise<boolean> {
  try {
    return await page.evaluate(() =>
      (globalThis as unknown as { inpageMark?: boolean }).inpageMark === true
    );
  } catch {
    return false;
  }
}

async function mark(page: Page): Promise<void> {
  await page.evaluate(() => {
    (globalThis as unknown as { inpageMark: boolean }).inpageMark = true;
  });
}

async function git(root: string, args: string[]): Promise<string> {
  const output = await new Deno.Command("git", {
    args: ["-C", root, ...args],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(output.stdout);
}

Deno.test("an adopted Astro site: quiet start, mistyped pointers flagged and never published, <Image> regions previewed and taking JPEG", async (t) => {
  const root = await adoptedCopy();
  const work = await Deno.makeTempDir({ prefix: "inpage-astro-adopt-work-" });
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
    const seen = watch(page);
    const origin = editor.url.slice(0, -1);
    const status = page.getByRole("status");
    const hero = page.locator('[data-inpage-image="/sections/1/image"]');
    const typo = page.locator('[data-inpage-text="/descripton"]');
    const banner = page.locator('[data-inpage-image="/banner"]');

    // A first visit lets Vite optimise the page's dependencies (it may
    // reload the page once); the site renders the wrapper's image.
    await page.goto(origin + "/en/");
    await page.waitForLoadState("networkidle");
    await quiet(seen);
    await page.goto(origin + "/en/");
    await page.waitForLoadState("networkidle");
    assert.match(await hero.getAttribute("src") ?? "", /^\/_image\?href=/);
    assert.equal(await typo.textContent(), "Websites for small harbours.");

    await t.step(
      "before login: no console error and no failed request",
      async () => {
        seen.console.length = 0;
        seen.failed.length = 0;
        await page.goto(origin + "/en/?edit");
        await page.getByLabel("Site key").waitFor();
        await page.waitForLoadState("networkidle");
        await page.waitForTimeout(500);
        assert.deepEqual(
          seen.console.filter((message) => message.type === "error"),
          [],
        );
        assert.deepEqual(seen.failed, []);
        await page.getByLabel("Site key").fill(KEY);
        await page.getByRole("button", { name: "Log in" }).click();
        await until(
          async () =>
            /No unsaved changes/.test(await status.textContent() ?? ""),
          "the overlay to be ready",
        );
        assert.deepEqual(seen.failed, []);
      },
    );

    await t.step(
      "regions that name nothing, or another kind, are outlined with a sentence and not editable",
      async () => {
        for (const region of [typo, banner]) {
          assert.ok(await region.getAttribute("data-inpage-unresolved"));
          assert.equal(await region.getAttribute("contenteditable"), null);
          assert.equal(await region.getAttribute("role"), null);
          assert.equal(
            await region.evaluate((node) =>
              (globalThis as unknown as {
                getComputedStyle(node: unknown): { outlineStyle: string };
              }).getComputedStyle(node).outlineStyle
            ),
            "dashed",
          );
        }
        const sentence =
          "The page file has no “descripton”: check the pointer “/descripton” in the template. This region cannot be edited.";
        assert.equal(
          await typo.getAttribute("data-inpage-unresolved"),
          sentence,
        );
        await page.getByRole("note").filter({ hasText: sentence }).waitFor();
        await page.getByRole("note").filter({
          hasText:
            "“banner” holds text (“harbour-2c9e41d07b3a.png”), not an image",
        }).waitFor();
        // The console: one collapsed group, one warning per region.
        const groups = seen.console.filter((m) =>
          m.type === "startGroupCollapsed"
        );
        assert.equal(groups.length, 1, JSON.stringify(seen.console));
        assert.match(groups[0]!.text, /2 regions cannot be edited/);
        const lines = seen.console.filter((m) => m.type === "warning")
          .map((m) => m.text);
        assert.deepEqual(lines, [
          `data-inpage-text="/descripton" in ${EN_HOME}: ${sentence}`,
          `data-inpage-image="/banner" in ${EN_HOME}: “banner” holds text (“harbour-2c9e41d07b3a.png”), not an image (a media object with src, width, height and alt): this region cannot be edited.`,
        ]);
        assert.equal(
          seen.console.filter((m) => m.type === "endGroup").length,
          1,
        );
        // Typing into it and clicking the banner change nothing.
        await typo.click();
        await page.keyboard.type("Typed");
        await banner.click();
        assert.equal(await typo.textContent(), "Websites for small harbours.");
        assert.equal(await page.getByLabel("Image file").count(), 0);
        assert.match(await status.textContent() ?? "", /No unsaved changes/);
        await typo.scrollIntoViewIfNeeded();
        await keep(page, "astro-adopt-flagged-1280.png", 1280, 800);
        await typo.scrollIntoViewIfNeeded();
        await keep(page, "astro-adopt-flagged-390.png", 390, 844);
        await page.setViewportSize({ width: 1280, height: 800 });
      },
    );

    await t.step(
      "publishing other fields leaves the file without the stray key",
      async () => {
        const heading = page.locator(
          '[data-inpage-text="/sections/0/heading"]',
        );
        await heading.click();
        await page.keyboard.press("ControlOrMeta+a");
        await page.keyboard.type("Adopted in minutes");
        await page.getByPlaceholder("What did you change?").fill("New heading");
        await mark(page);
        await page.getByRole("button", { name: "Publish", exact: true })
          .click();
        await until(
          async () =>
            !await marked(page) &&
            await heading.textContent().catch(() => "") ===
              "Adopted in minutes",
          "Astro's reload with the new heading",
        );
        const file = JSON.parse(await Deno.readTextFile(join(root, EN_HOME)));
        assert.equal(file.sections[0].heading, "Adopted in minutes");
        assert.equal(file.description, "Websites for small harbours.");
        assert.equal(file.banner, "harbour-2c9e41d07b3a.png");
        assert.equal(Object.hasOwn(file, "descripton"), false);
        assert.doesNotMatch(await git(root, ["show", "HEAD"]), /descripton/);
        // The image step starts on the page the dev server leaves.
        await quiet(seen);
        await until(
          async () =>
            // Published is kept across the site's own reload (issue 21).
            /No unsaved changes|Published/.test(
              await status.textContent() ?? "",
            ),
          "the overlay after the reload",
        );
      },
    );

    await t.step(
      "an <Image> region: the chosen image is previewed, uploaded as JPEG, and rendered by the site after publish",
      async () => {
        // Every image the region loads, reported across reloads.
        const loads: Array<ReturnType<typeof imageState>> = [];
        await page.exposeBinding(
          "inpageImageLoaded",
          (_source, state: ReturnType<typeof imageState>) =>
            void loads.push(state),
        );
        const listen = () =>
          hero.evaluate((node) => {
            const image = node as unknown as {
              addEventListener(type: string, run: () => void): void;
              getAttribute(name: string): string | null;
              currentSrc: string;
              naturalWidth: number;
              complete: boolean;
            };
            image.addEventListener("load", () =>
              (globalThis as unknown as {
                inpageImageLoaded(state: unknown): void;
              }).inpageImageLoaded({
                src: image.getAttribute("src") ?? "",
                currentSrc: image.currentSrc,
                srcset: image.getAttribute("srcset"),
                sizes: image.getAttribute("sizes"),
                complete: image.complete,
                naturalWidth: image.naturalWidth,
              }));
          });
        await listen();
        /** Screenshots of the preview at both sizes, the region at the top. */
        const keepPreview = async (name: string) => {
          for (const [width, height] of [[1280, 800], [390, 844]] as const) {
            await page.setViewportSize({ width, height });
            await hero.evaluate((node) =>
              (node as unknown as { scrollIntoView(o: unknown): void })
                .scrollIntoView({ block: "start" })
            ).catch(() => {});
            await keep(page, `astro-adopt-${name}-${width}.png`, width, height);
          }
          await page.setViewportSize({ width: 1280, height: 800 });
        };
        const navigationsBefore = seen.navigations.length;
        await mark(page);
        await hero.click();
        await page.getByLabel("Image file").setInputFiles(
          join(root, "public/images/workshop-5a7f13c8e0d2.png"),
        );
        const apply = page.getByRole("button", { name: "Use this image" });
        await until(() => apply.isEnabled(), "the cropper to be ready");
        assert.match(
          await page.getByText(/saved as JPEG/).textContent() ?? "",
          /saved as JPEG/,
        );
        // A new file asks for its alt text (issue 20).
        await page.getByRole("textbox", { name: "Alt text" }).fill(
          "The workshop",
        );
        await apply.click();
        // The chosen image itself, shown at once: its object URL, no srcset.
        await until(
          () => loads.some((load) => load.src.startsWith("blob:")),
          "the preview to load",
        );
        const preview = loads.find((load) => load.src.startsWith("blob:"))!;
        assert.equal(preview.currentSrc, preview.src);
        assert.equal(preview.srcset, null);
        assert.equal(preview.sizes, null);
        assert.equal(preview.naturalWidth, 800);
        await keepPreview("preview");
        const jpegs = async () =>
          (await Array.fromAsync(Deno.readDir(join(root, "public/images"))))
            .map((entry) => entry.name).filter((name) => name.endsWith(".jpg"));
        // Nothing is uploaded before Publish (the image stays in the edit
        // session): no new file in public/images/, so nothing makes the dev
        // server reload the page. A while for it to react, had it one.
        await until(async () => !await marked(page), "a reload", 4000)
          .catch(() => {});
        console.log(
          `before publish: ${
            seen.navigations.length - navigationsBefore
          } navigations`,
        );
        assert.deepEqual(await jpegs(), [], "no upload before Publish");
        assert.equal(await marked(page), true, "no reload before Publish");
        assert.equal(seen.navigations.length, navigationsBefore);
        const shown = await hero.evaluate(imageState);
        assert.equal(shown.src, preview.src);
        assert.equal(shown.currentSrc, preview.src);
        assert.equal(shown.naturalWidth, 800);

        await page.getByPlaceholder("What did you change?").fill("New photo");
        await page.getByRole("button", { name: "Publish", exact: true })
          .click();
        const rendered = async () => {
          if (await marked(page)) return false;
          const state = await hero.evaluate(imageState).catch(() => undefined);
          return state !== undefined && state.src.startsWith("/_image?") &&
            state.complete && state.naturalWidth > 0;
        };
        await until(
          rendered,
          "Astro's reload with the site's own rendering of the new image",
        );
        // Until that reload the region showed the chosen image alone, through
        // the publish (the load listener went with the old document).
        assert.deepEqual(loads.map((load) => load.src), [preview.src]);
        await quiet(seen);
        await until(rendered, "the page the dev server leaves");
        // Uploaded as a JPEG (the container's data-inpage-image-format), under
        // a .jpg name the wrapper's glob takes.
        const stored = await jpegs();
        assert.equal(stored.length, 1);
        assert.match(stored[0]!, /^workshop-[0-9a-f]{12}\.jpg$/);
        const bytes = await Deno.readFile(
          join(root, "public/images", stored[0]!),
        );
        assert.deepEqual([...bytes.subarray(0, 3)], [0xff, 0xd8, 0xff]);
        const file = JSON.parse(await Deno.readTextFile(join(root, EN_HOME)));
        const media = file.sections[1].image;
        assert.equal(media.src, stored[0]);
        assert.deepEqual([media.width, media.height], [800, 600]);
        const after = await hero.evaluate(imageState);
        assert.match(
          decodeURIComponent(after.src),
          new RegExp(stored[0]!.replace(".", "\\.")),
        );
        assert.equal(after.naturalWidth, 800);
        await keepPreview("published");
        assert.match(
          await git(root, ["log", "-1", "--format=%s"]),
          /New photo/,
        );
      },
    );
    assert.deepEqual(
      seen.console.filter((message) => message.type === "error"),
      [],
    );
    assert.deepEqual(siteErrors(astro.output()), [], astro.output());
  } finally {
    await Deno.remove(root, { recursive: true }).catch(() => {});
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
});
