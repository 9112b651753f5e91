/**
 * The overlay on a phone and on a desktop, in Debian's Chromium on the demo
 * (`deno task demo`): at 390×844 with touch and at 1280×800, each state
 * (login, editing, toolbar, image dialog, conflict, published) is
 * photographed (tests/browser/artifacts/screens-*.png) and its layout
 * checked: the bar and the toolbar lie inside the viewport and cover
 * neither the field being edited nor the site's footer; the controls that
 * need a session appear only once logged in; the bar can be minimised.
 * Then the interface's language: the French page speaks French, the
 * English page English.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
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

const SIZES = [
  { name: "phone", width: 390, height: 844, touch: true },
  { name: "desktop", width: 1280, height: 800, touch: false },
] as const;

type Size = typeof SIZES[number];

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Layout {
  width: number;
  height: number;
  bar: Box | null;
  toolbar: Box | null;
  focused: Box | null;
  focusedName: string | null;
}

/** The boxes that matter, read in the page (a script string: no DOM types). */
const LAYOUT = `(() => {
  const box = (element) => {
    if (!element) return null;
    const r = element.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return null;
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  };
  const root = document.querySelector("[data-inpage-overlay]")?.shadowRoot;
  const toolbar = root?.querySelector(".toolbar");
  let focused = document.activeElement;
  const inPage = focused && focused !== document.body &&
    !focused.hasAttribute("data-inpage-overlay");
  const field = inPage
    ? focused.closest("[data-inpage-text],[data-inpage-html],[data-inpage-image]")
    : null;
  return {
    width: innerWidth,
    height: innerHeight,
    bar: box(root?.querySelector(".bar")),
    toolbar: toolbar && !toolbar.hidden ? box(toolbar) : null,
    focused: box(field),
    focusedName: field ? (field.getAttribute("aria-label") ??
      field.querySelector("[aria-label]")?.getAttribute("aria-label")) : null,
  };
})()`;

function inside(box: Box, layout: Layout, what: string): void {
  assert.ok(
    box.x >= -0.5 && box.y >= -0.5 &&
      box.x + box.width <= layout.width + 0.5 &&
      box.y + box.height <= layout.height + 0.5,
    `${what} ${
      JSON.stringify(box)
    } lies outside the viewport ${layout.width}×${layout.height}`,
  );
}

function apart(a: Box, b: Box, what: string): void {
  const overlap = a.x < b.x + b.width && b.x < a.x + a.width &&
    a.y < b.y + b.height && b.y < a.y + a.height;
  assert.ok(
    !overlap,
    `${what}: ${JSON.stringify(a)} covers ${JSON.stringify(b)}`,
  );
}

/**
 * Photographs a state and checks its layout: the bar (and the toolbar
 * when shown) inside the viewport; neither covers the focused field.
 */
async function check(
  page: Page,
  size: Size,
  state: string,
  expect: { toolbar?: boolean; field?: boolean } = {},
): Promise<Layout> {
  await page.waitForTimeout(150);
  await page.screenshot({
    path: join(ARTIFACTS, `screens-${state}-${size.name}.png`),
  });
  const layout = await page.evaluate(LAYOUT) as Layout;
  assert.ok(layout.bar, `${state}: the bar is shown`);
  inside(layout.bar, layout, `${state}: the bar`);
  if (expect.toolbar) {
    assert.ok(layout.toolbar, `${state}: the toolbar is shown`);
    inside(layout.toolbar, layout, `${state}: the toolbar`);
  }
  if (expect.field) {
    assert.ok(layout.focused, `${state}: a field has the focus`);
    apart(layout.bar, layout.focused, `${state}: the bar`);
    if (layout.toolbar) {
      apart(layout.toolbar, layout.focused, `${state}: the toolbar`);
      apart(layout.toolbar, layout.bar, `${state}: the toolbar and the bar`);
    }
  }
  return layout;
}

async function waitStatus(page: Page, text: string): Promise<void> {
  await page.getByRole("status").filter({ hasText: new RegExp(`^${text}$`) })
    .waitFor();
}

async function newPage(browser: Browser, size: Size): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: size.width, height: size.height },
    hasTouch: size.touch,
    isMobile: size.touch,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on("pageerror", (error) => console.error("page error:", error.message));
  page.on("dialog", (dialog) => void dialog.accept());
  return page;
}

async function logIn(page: Page, site: EditingSite, path = "en/") {
  await page.goto(`${site.url}${path}?edit`);
  await page.getByLabel("Site key").fill(site.key);
  await page.keyboard.press("Enter");
  await waitStatus(page, "No unsaved changes");
}

/** Taps on a phone, clicks on a desktop. */
async function press(page: Page, size: Size, name: string | RegExp) {
  const target = page.getByRole("textbox", { name }).or(
    page.getByRole("button", { name }),
  ).first();
  if (size.touch) await target.tap();
  else await target.click();
}

for (const size of SIZES) {
  Deno.test(`in Chromium at ${size.width}×${size.height}${size.touch ? " with touch" : ""}: every state fits the screen and covers nothing being edited`, async () => {
    await Deno.mkdir(ARTIFACTS, { recursive: true });
    await using site = await startDemo();
    await using browser = await launchChromium();
    const page = await newPage(browser, size);

    // Login: the bar shows its status only, nothing that needs a session.
    await page.goto(`${site.url}en/?edit`);
    await page.getByLabel("Site key").waitFor();
    await check(page, size, "login");
    for (const name of ["Publish", "Log out", "Undo", "Discard all", "More"]) {
      assert.equal(
        await page.getByRole("button", { name, exact: true }).count(),
        0,
        `${name} before logging in`,
      );
    }
    await page.getByLabel("Site key").fill(site.key);
    await page.keyboard.press("Enter");
    await waitStatus(page, "No unsaved changes");
    assert.ok(
      await page.getByRole("button", { name: "Publish" }).isVisible(),
    );

    // Editing plain text, reached by a tap on the phone.
    await press(page, size, "Edit title");
    await page.keyboard.press("End");
    await page.keyboard.type(" (edited)");
    await waitStatus(page, "1 unsaved change");
    await check(page, size, "editing", { field: true });

    // Rich text low on the page: the field is brought above the bar, the
    // toolbar beside it, both inside the viewport.
    await press(page, size, /^Edit text, section 3 \(rich text/);
    await page.keyboard.press("Control+End");
    await page.keyboard.type(" More.");
    await waitStatus(page, "2 unsaved changes");
    const toolbar = await check(page, size, "toolbar", {
      toolbar: true,
      field: true,
    });
    assert.ok(toolbar.toolbar!.width <= size.width - 8);

    // The site's footer can be scrolled above the bar.
    await page.evaluate("scrollTo(0, document.documentElement.scrollHeight)");
    await page.waitForTimeout(100);
    const footer = await page.locator("footer").boundingBox();
    const bottom = await page.evaluate(LAYOUT) as Layout;
    assert.ok(footer && bottom.bar);
    assert.ok(
      footer.y + footer.height <= bottom.bar.y + 0.5,
      `the footer ${JSON.stringify(footer)} lies under the bar ${
        JSON.stringify(bottom.bar)
      }`,
    );
    await check(page, size, "footer");

    // The bar is one line on a phone; More shows the rest above it.
    if (size.touch) {
      assert.ok(bottom.bar.height <= 60, `the bar is ${bottom.bar.height}px`);
      assert.equal(await page.getByLabel("Message").isVisible(), false);
      await page.getByRole("button", { name: "More" }).tap();
      await page.getByLabel("Message").waitFor();
      await check(page, size, "more");
      await page.getByRole("button", { name: "More" }).tap();
    }

    // Minimise and back.
    await page.getByRole("button", { name: "Minimise" }).click();
    await page.getByRole("button", { name: "Show editor" }).waitFor();
    assert.equal(
      await page.getByRole("button", { name: "Publish" }).isVisible(),
      false,
    );
    const small = await check(page, size, "minimised");
    assert.ok(small.bar!.height <= 60);
    await page.getByRole("button", { name: "Show editor" }).click();
    await page.getByRole("button", { name: "Publish" }).waitFor();

    // The image dialog.
    await page.evaluate("scrollTo(0, 0)");
    await press(page, size, "Replace image: image");
    await page.getByLabel("Image file").setInputFiles(IMAGE);
    await page.locator(".cropper-container").waitFor();
    await check(page, size, "image-dialog");
    // Cancel with a file chosen asks before throwing it away.
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("button", { name: "Discard it" }).click();
    await page.getByLabel("Image file").waitFor({ state: "detached" });

    // Someone else publishes the title: the conflict view.
    const theirs = await newPage(browser, SIZES[1]);
    await logIn(theirs, site);
    await theirs.getByRole("textbox", { name: "Edit title" }).click();
    await theirs.keyboard.press("End");
    await theirs.keyboard.type(" (theirs)");
    await theirs.getByRole("button", { name: "Publish" }).click();
    await waitStatus(theirs, "Published");
    await theirs.context().close();
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByRole("heading", { name: "Someone published meanwhile" })
      .waitFor();
    await check(page, size, "conflict");
    await page.getByRole("button", { name: "Use mine" }).click();
    await page.getByRole("button", { name: "Keep mine" }).click();
    await waitStatus(page, "Published");
    await check(page, size, "published");
    const home = await site.page();
    assert.equal(home.title, "Small sites, edited in place (edited)");
    await page.context().close();
  });
}

Deno.test("in Chromium: the overlay speaks the page's language, French on /fr/, English on /en/", async () => {
  await using site = await startDemo();
  await using browser = await launchChromium();
  const page = await newPage(browser, SIZES[1]);
  await page.goto(`${site.url}fr/?edit`);
  await page.getByRole("heading", {
    name: "Connectez-vous pour modifier ce site",
  })
    .waitFor();
  await page.getByLabel("Clé du site").fill("not the key");
  await page.getByRole("button", { name: "Se connecter" }).click();
  await page.getByText("Cette clé n’est pas la bonne.").waitFor();
  await page.screenshot({ path: join(ARTIFACTS, "screens-login-fr.png") });
  await page.getByLabel("Clé du site").fill(site.key);
  await page.keyboard.press("Enter");
  await waitStatus(page, "Aucune modification non enregistrée");
  await openMore(page);
  for (
    const name of [
      "Publier",
      "Se déconnecter",
      "Annuler",
      "Tout abandonner",
      "Aperçu",
      "Réduire",
    ]
  ) {
    await page.getByRole("button", { name, exact: true }).waitFor();
  }
  await page.getByRole("region", { name: "Éditeur de la page" }).waitFor();
  await page.getByRole("textbox", { name: /^Modifier texte \(texte riche/ })
    .click();
  await page.getByRole("toolbar", { name: "Mise en forme du texte" }).waitFor();
  await page.getByRole("button", { name: "Gras (Ctrl+B)" }).waitFor();
  // Tag-like text in a heading: the overlay's problem, which holds the
  // publish back, in French.
  const title = page.getByRole("textbox", { name: "Modifier titre" });
  await title.click();
  await page.keyboard.press("End");
  await page.keyboard.type(" <b>");
  await page.getByRole("region", { name: "Problèmes à corriger" })
    .getByText("Le texte simple ne peut pas contenir").waitFor();
  await page.getByRole("button", { name: "Publier" }).click();
  await page.getByRole("dialog", {
    name: "Corrigez ces champs avant de publier",
  }).getByText("Titre").waitFor();
  await page.keyboard.press("Escape");
  await waitStatus(page, "Non publié : corrigez d’abord le champ encadré");
  await page.screenshot({ path: join(ARTIFACTS, "screens-refused-fr.png") });
  await page.context().close();

  const english = await newPage(browser, SIZES[1]);
  await logIn(english, site, "en/");
  await openMore(english);
  for (
    const name of [
      "Publish",
      "Log out",
      "Undo",
      "Discard all",
      "Preview",
      "Minimise",
    ]
  ) {
    await english.getByRole("button", { name, exact: true }).waitFor();
  }
  await english.getByRole("region", { name: "Page editor" }).waitFor();
  await english.context().close();
});
