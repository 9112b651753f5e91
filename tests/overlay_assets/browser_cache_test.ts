/**
 * The overlay's delivery as Chromium sees it, on the demo (`deno task
 * demo`, started for real): the first view with `?edit` fetches the loader
 * and the hashed entry compressed, and not the cropper; the cropper comes
 * when an image is chosen; a second view downloads no byte of the overlay
 * (the loader's 304 carries headers only, the entry comes from the cache).
 */
import assert from "node:assert/strict";
import { launchChromium, startDemo } from "../browser/overlay_support.ts";
import { cookieFrom } from "../support/helpers.ts";
import { overlayAssets } from "../../lib/overlay_assets/serve.ts";

const IMAGE = new URL(
  "../../examples/site/public/images/hills-at-dawn-98c9ac741e4e.png",
  import.meta.url,
).pathname;

interface Seen {
  path: string;
  status: number;
  encoding: string | undefined;
  bytes: number;
  cached: boolean;
}

Deno.test("in Chromium: the overlay comes compressed under hashed names, the cropper only when an image is chosen, and a second view downloads no byte of it", async () => {
  await using site = await startDemo();
  await using browser = await launchChromium();
  const login = await fetch(`${site.url}api/auth`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key: site.key }),
  });
  assert.equal(login.status, 200);
  await login.body?.cancel();
  const context = await browser.newContext();
  await context.addCookies(
    cookieFrom(login).split("; ").map((pair) => {
      const [name = "", value = ""] = pair.split("=");
      return { name, value, url: site.url };
    }),
  );
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  const pending = new Map<string, Partial<Seen>>();
  let seen: Seen[] = [];
  cdp.on("Network.responseReceived", (event) => {
    const path = new URL(event.response.url).pathname;
    if (!path.startsWith("/_inpage/")) return;
    pending.set(event.requestId, {
      path,
      status: event.response.status,
      encoding: event.response.headers["content-encoding"] ??
        event.response.headers["Content-Encoding"],
      cached: Boolean(
        event.response.fromDiskCache || event.response.fromPrefetchCache,
      ),
    });
  });
  const fromCache = new Set<string>();
  cdp.on("Network.requestServedFromCache", (event) => {
    fromCache.add(event.requestId);
  });
  cdp.on("Network.loadingFinished", (event) => {
    const entry = pending.get(event.requestId);
    if (!entry) return;
    pending.delete(event.requestId);
    if (fromCache.has(event.requestId)) entry.cached = true;
    seen.push({ ...entry, bytes: event.encodedDataLength } as Seen);
  });
  const ready = () =>
    page.locator(".bar .status", { hasText: /^No unsaved changes$/ })
      .waitFor();
  const assets = await overlayAssets();
  const entry = assets.find((asset) => asset.loadedBy === "editor")!.path;
  const cropper = assets.find((asset) => asset.path.includes("/cropper-"))!
    .path;

  await page.goto(`${site.url}en/?edit`);
  await ready();
  await page.waitForLoadState("networkidle");
  const first = seen;
  seen = [];
  assert.deepEqual(first.map((s) => s.path).sort(), [
    "/_inpage/loader.js",
    entry,
  ]);
  for (const response of first) {
    assert.equal(response.status, 200);
    assert.ok(["br", "gzip"].includes(response.encoding ?? ""), response.path);
    assert.equal(response.cached, false);
  }

  // Choosing an image brings the cropper, once.
  await page.locator('[data-inpage-image="/image"]').click();
  await page.getByLabel("Image file").setInputFiles(IMAGE);
  await page.locator("button:enabled", { hasText: "Crop and upload" })
    .waitFor();
  // The dialog takes the file before the cropper's part has arrived: wait
  // for its response to finish (at most 10 s).
  for (let waited = 0; seen.length === 0 && waited < 10_000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.deepEqual(seen.map((s) => s.path), [cropper]);
  assert.ok(["br", "gzip"].includes(seen[0]?.encoding ?? ""));
  await page.getByRole("button", { name: "Cancel" }).click();
  seen = [];

  // The second view: the loader revalidated (304, headers only), the entry
  // from the cache, no byte of a body.
  await page.goto(`${site.url}en/?edit`);
  await ready();
  await page.waitForLoadState("networkidle");
  const loader = seen.find((s) => s.path === "/_inpage/loader.js");
  const again = seen.find((s) => s.path === entry);
  assert.equal(loader?.status, 304);
  assert.ok(loader!.bytes < 400, `the 304 took ${loader?.bytes} bytes`);
  assert.equal(again?.cached, true);
  assert.equal(again?.bytes, 0);
  assert.equal(seen.length, 2, JSON.stringify(seen));
  await context.close();
});
