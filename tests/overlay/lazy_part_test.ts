/**
 * A lazily loaded part of the overlay is imported again after a failure
 * under a URL of its own: a browser may keep the failed fetch of the first
 * URL (the browser test `overlay_lazy_test.ts` shows it in Chromium).
 */
import assert from "node:assert/strict";
import { lazyPart, retryUrl } from "../../overlay/lazy_part.ts";

const BASE = "https://site.example/_inpage/overlay-0123456789ab.js";

Deno.test("a part's retry URL is its loader's specifier, resolved beside the module that holds it, with retry=N", () => {
  assert.equal(
    retryUrl(() => import("./rich_text-75C0D83D.js"), BASE, 1),
    "https://site.example/_inpage/rich_text-75C0D83D.js?retry=1",
  );
  // As the bundler writes it: minified, another quote.
  const minified = new Function("return ()=>import('./x-ABCDEFGH.js')")();
  assert.equal(
    retryUrl(minified, BASE, 4),
    "https://site.example/_inpage/x-ABCDEFGH.js?retry=4",
  );
  assert.equal(retryUrl(() => Promise.resolve(1), BASE, 1), undefined);
});

Deno.test("lazyPart imports once, shares the import under way, and after a failure tries again under the retry URL", async () => {
  let calls = 0;
  // Not the import itself: it stands for a browser that keeps failing the
  // first URL. The retry goes to `import(url)` of a real module.
  const load = () => {
    calls++;
    return Promise.reject(new TypeError("failed to fetch"));
  };
  Object.defineProperty(load, "toString", {
    value: () => '() => import("../../overlay/lazy_part.ts")',
  });
  const get = lazyPart<unknown>(load, import.meta.url);
  await assert.rejects(get(), TypeError);
  assert.equal(calls, 1);
  const [first, second] = [get(), get()];
  assert.equal(first, second, "one import at a time");
  const module = await first as Record<string, unknown>;
  assert.equal(calls, 1, "the retry does not call the first URL again");
  // The same file under a URL of its own: a module instance of its own.
  assert.equal(typeof module.lazyPart, "function");
  assert.notEqual(module.lazyPart, lazyPart);
  assert.equal(await get(), module, "a success is kept");
});
