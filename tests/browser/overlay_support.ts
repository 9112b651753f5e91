/**
 * Support for the overlay's browser tests: `deno task demo` started for
 * real (the example site copied to a temporary git repository, served on
 * one origin with the routes and the overlay's built files), Chromium, and
 * a folder for the screenshots kept as artefacts.
 *
 * @module
 */

import { join } from "node:path";
import {
  type Browser,
  chromium,
  type Locator,
  type Page,
} from "playwright-core";
import { CHROMIUM, FLAGS } from "../support/chromium.ts";
import { gitIn } from "../support/git.ts";
import { fastHash } from "../support/helpers.ts";

export { CHROMIUM, FLAGS };

/** Where screenshots are kept: `tests/browser/artifacts/` (git-ignored). */
export const ARTIFACTS: string = new URL("./artifacts/", import.meta.url)
  .pathname;

/** The example's English home page file. */
export const EN_HOME = "src/content/pages/en/home.json";

/** The example's English About page file. */
export const EN_ABOUT = "src/content/pages/en/about.json";

/** Alice's key (a publisher in every test). */
export const ALICE = "alice.correct-horse-battery-staple";

/** Bob's key. */
export const BOB = "bob.staple-river-lantern-window";

/**
 * `EDITOR_KEYS` naming alice and bob, each with a role (default: both
 * publishers).
 *
 * @param roles the role of each, when not publisher
 * @returns the variable's JSON
 */
export async function namedEditors(
  roles: { alice?: "author"; bob?: "author" } = {},
): Promise<string> {
  const editor = async (
    key: string,
    name: string,
    email: string,
    role: "author" | undefined,
  ) => ({
    hash: await fastHash(key),
    name,
    email,
    ...(role ? { role } : {}),
  });
  return JSON.stringify({
    alice: await editor(
      ALICE,
      "Alice Martin",
      "alice@example.com",
      roles.alice,
    ),
    bob: await editor(BOB, "Bob Stone", "bob@example.com", roles.bob),
  });
}

/** A running copy of the example site. */
export interface EditingSite extends AsyncDisposable {
  /** The origin with a trailing slash, such as `http://127.0.0.1:41234/`. */
  url: string;
  /** The site key of this run. */
  key: string;
  /** The temporary git repository. */
  root: string;
  /** Runs git in the repository and answers its standard output. */
  git(...args: string[]): Promise<string>;
  /** Reads a page file of the repository as an object. */
  page(path?: string): Promise<Record<string, unknown>>;
}

/**
 * Starts `deno task demo` for real (`examples/site/demo.ts` on a free
 * port) and reads its printed URL, key and temporary repository.
 *
 * @param env more environment (`EDITOR_KEYS`: named editors, and then no
 *   key of the run is printed, `key` is "")
 * @returns the running demo, stopped with SIGTERM on dispose
 */
export async function startDemo(
  env: Record<string, string> = {},
): Promise<EditingSite> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      "--allow-net",
      "--allow-env",
      "--allow-run=git",
      "--allow-sys",
      "examples/site/demo.ts",
      "--port",
      "0",
    ],
    cwd: new URL("../../", import.meta.url).pathname,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let printed = "";
  const found = Promise.withResolvers<void>();
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const text of stream.pipeThrough(new TextDecoderStream())) {
      printed += text;
      if (
        /listening on http:\/\/\S+\//.test(printed) &&
        (env.EDITOR_KEYS !== undefined ||
          /site key for this run is \S+/.test(printed)) &&
        /Demo site copied to \S+/.test(printed)
      ) found.resolve();
    }
  };
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  const timer = setTimeout(
    () => found.reject(new Error(`the demo did not start:\n${printed}`)),
    60_000,
  );
  try {
    await Promise.race([
      found.promise,
      child.status.then(() => {
        throw new Error(`the demo stopped:\n${printed}`);
      }),
    ]);
  } catch (error) {
    child.kill("SIGTERM");
    await child.status;
    throw error;
  } finally {
    clearTimeout(timer);
  }
  const url = printed.match(/listening on (http:\/\/\S+\/)/)?.[1] ?? "";
  const key = printed.match(/site key for this run is (\S+)/)?.[1] ?? "";
  const root = printed.match(/Demo site copied to (\S+)/)?.[1] ?? "";
  const git = gitIn(root);
  return {
    url,
    key,
    root,
    git,
    page: async (path = EN_HOME) =>
      JSON.parse(await Deno.readTextFile(join(root, path))),
    async [Symbol.asyncDispose]() {
      child.kill("SIGTERM");
      await child.status;
      await drained;
    },
  };
}

/**
 * Launches Chromium headless.
 *
 * @returns the browser, closed on dispose
 */
export async function launchChromium(): Promise<Browser & AsyncDisposable> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...FLAGS],
  });
  return Object.assign(browser, {
    [Symbol.asyncDispose]: () => browser.close(),
  });
}

/**
 * Opens the bar's More menu (Page, History, who is logged in, Log out;
 * on a phone Undo, Redo and the message too), unless it is open, in any
 * language; or closes it.
 *
 * @param page the page
 * @param open `false` to close it
 */
export async function openMore(page: Page, open = true): Promise<void> {
  const more = page.locator("[data-inpage-overlay] .bar button.more");
  const expanded = await more.getAttribute("aria-expanded") === "true";
  if (expanded !== open) await more.click();
}

/**
 * Waits for the bar's status to say something, or says what the overlay
 * shows instead.
 *
 * @param page the page
 * @param text the status, whole, or a pattern
 */
export async function waitStatus(
  page: Page,
  text: string | RegExp,
): Promise<void> {
  const wanted = typeof text === "string" ? new RegExp(`^${text}$`) : text;
  try {
    await page.getByRole("status").filter({ hasText: wanted }).waitFor();
  } catch (error) {
    const shown = await page.locator(".ui").innerText().catch(() => "");
    throw new Error(
      `Expected the status ${wanted}; the overlay shows: ${shown}`,
      { cause: error },
    );
  }
}

/**
 * A region of the page by its accessible name ("Edit title").
 *
 * @param page the page
 * @param name the region's name
 * @param exact whether the name is the whole name
 * @returns its locator
 */
export function region(page: Page, name: string, exact = true): Locator {
  return page.getByRole("textbox", { name, exact });
}

/**
 * Clicks a region by its accessible name and types at its end.
 *
 * @param page the page
 * @param name the region's name, whole
 * @param text what to type
 */
export async function typeAtEnd(
  page: Page,
  name: string,
  text: string,
): Promise<void> {
  await region(page, name).click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(text);
}

/** The two sizes every state of the overlay is shown at. */
export const BOTH_SIZES = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

/**
 * Opens a page of the demo in a browser context of its own (1280×800) and
 * logs in with a named key; leaving a page with changes is accepted.
 *
 * @param browser the browser
 * @param site the demo
 * @param key the key typed
 * @param options the page to open (`en/` by default), and where to note
 *   each request to `/api/session`
 * @returns the page, logged in
 */
export async function logInAs(
  browser: Browser,
  site: EditingSite,
  key: string,
  options: { path?: string; asked?: string[]; slowSession?: number } = {},
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
  });
  const slow = options.slowSession;
  if (slow) {
    // Who is logged in (and their role) answers late, as on a busy host.
    await context.route("**/api/session", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, slow));
      await route.continue();
    });
  }
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on("pageerror", (error) => console.error("page error:", error.message));
  page.on("dialog", (dialog) => void dialog.accept());
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/session") {
      options.asked?.push(request.url());
    }
  });
  await page.goto(`${site.url}${options.path ?? "en/"}?edit`);
  await page.getByLabel("Site key").fill(key);
  await page.keyboard.press("Enter");
  await waitStatus(page, "No unsaved changes");
  return page;
}

/**
 * Photographs the page at both sizes (`{name}-desktop.png`,
 * `{name}-phone.png` in the artefacts), then sets its size back.
 *
 * @param page the page
 * @param name the screenshots' name
 */
export async function shootBothSizes(page: Page, name: string): Promise<void> {
  const before = page.viewportSize();
  for (const size of BOTH_SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.waitForTimeout(100);
    await page.screenshot({
      path: join(ARTIFACTS, `${name}-${size.name}.png`),
    });
  }
  if (before) await page.setViewportSize(before);
}
