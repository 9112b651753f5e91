import assert from "node:assert/strict";
import {
  OVERLAY_ASSET_PATHS,
  serveOverlayAsset,
} from "../../overlay/assets.ts";

Deno.test("serveOverlayAsset answers the loader and the overlay as JavaScript with nosniff, byte for byte", async () => {
  for (const [path, file] of Object.entries(OVERLAY_ASSET_PATHS)) {
    const response = await serveOverlayAsset(
      new Request(`http://site.example${path}`),
    );
    assert.ok(response);
    assert.equal(response.status, 200);
    assert.equal(
      response.headers.get("content-type"),
      "text/javascript; charset=utf-8",
    );
    assert.equal(response.headers.get("x-content-type-options"), "nosniff");
    const body = new Uint8Array(await response.arrayBuffer());
    const built = await Deno.readFile(
      new URL(`../../overlay/${file}`, import.meta.url),
    );
    assert.deepEqual(body, built);
    assert.equal(response.headers.get("content-length"), String(built.length));
  }
});

Deno.test("serveOverlayAsset answers HEAD without a body, 405 for other methods, and nothing for other paths", async () => {
  const head = await serveOverlayAsset(
    new Request("http://site.example/_inpage/loader.js", { method: "HEAD" }),
  );
  assert.equal(head?.status, 200);
  assert.equal(head?.body, null);
  const post = await serveOverlayAsset(
    new Request("http://site.example/_inpage/overlay.js", { method: "POST" }),
  );
  assert.equal(post?.status, 405);
  assert.equal(post?.headers.get("allow"), "GET, HEAD");
  assert.deepEqual(await post?.json(), { error: "method_not_allowed" });
  for (
    const path of [
      "/_inpage/",
      "/_inpage/build.ts",
      "/_inpage/../deno.json",
      "/_inpage/%2e%2e/deno.json",
      "/_inpage/loader.js/",
      "/loader.js",
    ]
  ) {
    assert.equal(
      await serveOverlayAsset(new Request(`http://site.example${path}`)),
      undefined,
      path,
    );
  }
});
