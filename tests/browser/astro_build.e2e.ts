/**
 * The Astro example's production path: `astro build`, then the Deno Deploy
 * entry (examples/astro/deploy.ts) started for real over the GitHub double.
 * `editor check --html dist` finds every region fitting its page file. In
 * Chromium: the built pages, the overlay's files and the routes come from
 * one origin; log in, read and publish; the double holds the commit.
 *
 * Slow (npm install, astro build): run by `deno task test-astro`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  astroBuild,
  copyExample,
  installPackages,
} from "../../examples/astro/demo.ts";
import { startGitHubDouble } from "../support/github_double.ts";
import { fastHash } from "../support/helpers.ts";
import { runCli } from "../support/cli.ts";
import {
  ARTIFACTS,
  EN_HOME,
  launchChromium,
  pageFiles,
  startDeployEntry,
  until,
} from "./astro_support.ts";

Deno.test("astro build served by the Deploy entry: pages, overlay and routes on one origin; a publish is a commit on GitHub", async () => {
  const root = await copyExample();
  const work = await Deno.makeTempDir({ prefix: "inpage-astro-build-" });
  try {
    const installMs = await installPackages(root);
    console.log(`npm install: ${(installMs / 1000).toFixed(1)} s`);
    await astroBuild(root);
    // The built regions fit the page files: editor check --html, as the
    // example's CI runs it after the build.
    const check = await runCli([
      "check",
      "--repo",
      root,
      "--html",
      join(root, "dist"),
    ]);
    assert.equal(check.stderr, "");
    assert.match(
      check.stdout,
      /^5 HTML files checked \(4 page elements, \d+ regions\): every region fits its page file\n$/,
    );
    assert.equal(check.code, 0);
    console.log(`editor check --html dist: ${check.stdout.trim()}`);
    const files = await pageFiles(root);
    await using github = startGitHubDouble({ files });
    const key = "astro deploy key";
    await using entry = await startDeployEntry({
      SITE_DIR: join(root, "dist"),
      EDITOR_KV_PATH: join(work, "kv.sqlite3"),
      EDITOR_KEY_HASH: await fastHash(key),
      GITHUB_TOKEN: github.token,
      GITHUB_REPOSITORY: github.repository,
      GITHUB_API_URL: github.url,
    });
    const origin = entry.url.slice(0, -1);

    // The built site's files, with their types.
    for (
      const [path, type] of <[string, string][]> [
        ["/en/", "text/html"],
        ["/fr/", "text/html"],
        ["/en/about/", "text/html"],
        ["/fr/about/", "text/html"],
        ["/", "text/html"],
        ["/images/harbour-2c9e41d07b3a.png", "image/png"],
      ]
    ) {
      const response = await fetch(origin + path);
      assert.equal(response.status, 200, path);
      assert.ok(response.headers.get("content-type")?.startsWith(type), path);
      assert.equal(response.headers.get("x-content-type-options"), "nosniff");
      await response.body?.cancel();
    }
    const folder = await fetch(origin + "/en", { redirect: "manual" });
    assert.equal(folder.status, 308);
    assert.equal(folder.headers.get("location"), "/en/");
    // Nothing outside dist/, no dotfile, no encoded way around either.
    for (
      const path of [
        "/../package.json",
        "/%2e%2e/package.json",
        "/..%2fpackage.json",
        "/en/..%2f..%2fpackage.json",
        "/%2e%2e%5cpackage.json",
        "/.gitignore",
        "/%2egitignore",
        "/images/%00.png",
      ]
    ) {
      const response = await fetch(origin + path);
      assert.equal(response.status, 404, path);
      await response.body?.cancel();
    }
    const post = await fetch(origin + "/en/", { method: "POST" });
    assert.equal(post.status, 404);
    await post.body?.cancel();

    // The overlay's loader from the same origin.
    const loader = await fetch(origin + "/_inpage/loader.js");
    assert.equal(loader.status, 200);
    assert.match(
      loader.headers.get("content-type") ?? "",
      /^(text|application)\/javascript/,
    );
    await loader.body?.cancel();

    await using browser = await launchChromium(work);
    const page = await browser.context.newPage();
    const requested: string[] = [];
    page.on("request", (request) => void requested.push(request.url()));
    await page.goto(origin + "/en/");
    assert.equal(
      await page.locator('[data-inpage-text="/sections/0/heading"]')
        .textContent(),
      "Small sites, edited in place",
    );
    assert.equal(
      await page.locator("[data-inpage-page]").getAttribute(
        "data-inpage-page",
      ),
      EN_HOME,
    );

    // Log in, read, publish through the overlay, which the loader brings in
    // from the same origin on ?edit.
    const responses: { url: string; status: number }[] = [];
    page.on("response", (response) => {
      if (new URL(response.url()).pathname.startsWith("/api/")) {
        responses.push({ url: response.url(), status: response.status() });
      }
    });
    await page.goto(origin + "/en/?edit");
    await page.getByLabel("Site key").fill(key);
    await page.getByRole("button", { name: "Log in" }).click();
    const heading = page.locator(
      '[data-inpage-text="/sections/0/heading"][contenteditable]',
    );
    await heading.waitFor();
    await heading.click();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("Published from the built site");
    await page.getByPlaceholder("What did you change?").fill(
      "Edit the heading on the deployed site",
    );
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await until(
      async () =>
        /Published/.test(await page.getByRole("status").textContent() ?? ""),
      "the overlay to say Published",
    );
    await page.screenshot({
      path: join(ARTIFACTS, "astro-build-published.png"),
    });
    // Before the login the read is refused, after it the page is read.
    assert.deepEqual(
      responses.filter((r) => r.url.includes("/api/content?")).map((r) =>
        r.status
      ),
      [401, 200],
    );
    assert.deepEqual(
      responses.filter((r) => r.url.endsWith("/api/save")),
      [{ url: origin + "/api/save", status: 200 }],
    );

    // The double holds the commit: the new file, with the message.
    const stored = new TextDecoder().decode(github.files.get(EN_HOME));
    assert.equal(
      JSON.parse(stored).sections[0].heading,
      "Published from the built site",
    );
    const put = github.requests.find((request) => request.method === "PUT");
    assert.equal(put?.body?.message, "Edit the heading on the deployed site");
    assert.ok(put?.authorized);

    // Every request the page made went to its own origin.
    assert.ok(requested.length >= 4, requested.join("\n"));
    for (const url of requested) {
      assert.equal(new URL(url).origin, origin, url);
    }
    assert.ok(requested.some((url) => url.endsWith("/_inpage/loader.js")));
    assert.ok(
      requested.some((url) => /\/_inpage\/overlay-[0-9a-f]{12}\.js$/.test(url)),
    );
    assert.ok(requested.some((url) => url.includes("/api/save")));
  } finally {
    await Deno.remove(root, { recursive: true }).catch(() => {});
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
});
