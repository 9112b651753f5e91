import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import {
  IMMUTABLE,
  overlayAssets,
  serveOverlayAsset,
  withOverlayPreload,
} from "../../lib/overlay_assets/serve.ts";
import { EDIT_COOKIE } from "../../lib/wire/names.ts";

const DIST = new URL("../../overlay/dist/", import.meta.url);

function get(path: string, headers: Record<string, string> = {}) {
  return serveOverlayAsset(
    new Request(`http://site.example${path}`, { headers }),
  );
}

Deno.test("the overlay's files are the loader, the hashed entry every editor loads and the hashed lazy parts", async () => {
  const assets = await overlayAssets();
  assert.deepEqual(assets[0], { path: "/_inpage/loader.js", loadedBy: "page" });
  assert.match(assets[1]?.path ?? "", /^\/_inpage\/overlay-[0-9a-f]{12}\.js$/);
  assert.equal(assets[1]?.loadedBy, "editor");
  assert.ok(
    assets.some(({ path, loadedBy }) =>
      /^\/_inpage\/cropper-[A-Z0-9]{8}\.js$/.test(path) && loadedBy === "lazy"
    ),
  );
});

Deno.test("serveOverlayAsset answers gzip or brotli when accepted, with vary, an immutable cache for hashed names and no-cache with an ETag for the loader", async () => {
  for (const { path } of await overlayAssets()) {
    const name = path.slice("/_inpage/".length);
    const built = await Deno.readFile(new URL(name, DIST));
    for (
      const [accept, encoding, decode] of [
        ["gzip, deflate", "gzip", gunzipSync],
        ["gzip, deflate, br, zstd", "br", brotliDecompressSync],
        ["br;q=0.5, gzip", "gzip", gunzipSync],
        ["*", "br", brotliDecompressSync],
      ] as const
    ) {
      const response = await get(path, { "accept-encoding": accept });
      assert.ok(response);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("content-encoding"), encoding, path);
      assert.equal(response.headers.get("vary"), "accept-encoding");
      assert.equal(
        response.headers.get("content-type"),
        "text/javascript; charset=utf-8",
      );
      assert.equal(response.headers.get("x-content-type-options"), "nosniff");
      assert.equal(
        response.headers.get("cache-control"),
        name === "loader.js" ? "no-cache" : IMMUTABLE,
      );
      assert.match(
        response.headers.get("etag") ?? "",
        /^"[0-9a-f]{20}-(br|gzip)"$/,
      );
      const body = new Uint8Array(await response.arrayBuffer());
      assert.equal(response.headers.get("content-length"), String(body.length));
      assert.ok(body.length < built.length);
      assert.deepEqual(decode(body), Buffer.from(built));
    }
  }
});

Deno.test("serveOverlayAsset answers the bytes as built, uncompressed, when no encoding is accepted", async () => {
  for (const { path } of await overlayAssets()) {
    const built = await Deno.readFile(new URL(path.slice(9), DIST));
    for (
      const headers of [
        {},
        { "accept-encoding": "identity" },
        { "accept-encoding": "gzip;q=0, br;q=0, deflate" },
        { "accept-encoding": "*;q=0" },
        { "accept-encoding": "zstd" },
      ]
    ) {
      const response = await get(path, headers);
      assert.equal(response?.status, 200);
      assert.equal(response?.headers.get("content-encoding"), null);
      assert.equal(response?.headers.get("vary"), "accept-encoding");
      assert.match(response?.headers.get("etag") ?? "", /^"[0-9a-f]{20}"$/);
      assert.deepEqual(new Uint8Array(await response!.arrayBuffer()), built);
      assert.equal(
        response?.headers.get("content-length"),
        String(built.length),
      );
    }
  }
});

Deno.test("a lazy part asked for again under a retry's query (?retry=N) is answered the same bytes, tag and immutable cache", async () => {
  const lazy = (await overlayAssets()).filter(({ loadedBy }) =>
    loadedBy === "lazy"
  );
  assert.ok(lazy.length > 0);
  for (const { path } of lazy) {
    const plain = await get(path, { "accept-encoding": "br" });
    const retry = await get(`${path}?retry=3`, { "accept-encoding": "br" });
    assert.ok(plain && retry);
    assert.equal(retry.status, 200);
    assert.equal(retry.headers.get("cache-control"), IMMUTABLE);
    assert.equal(retry.headers.get("etag"), plain.headers.get("etag"));
    assert.equal(retry.headers.get("content-encoding"), "br");
    assert.deepEqual(
      new Uint8Array(await retry.arrayBuffer()),
      new Uint8Array(await plain.arrayBuffer()),
    );
  }
});

Deno.test("the loader answers 304 without a body to its ETag, in each encoding, and 200 to another tag", async () => {
  for (const accept of ["gzip", "br", "identity"]) {
    const first = await get("/_inpage/loader.js", {
      "accept-encoding": accept,
    });
    const etag = first?.headers.get("etag") ?? "";
    await first?.body?.cancel();
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const again = await get("/_inpage/loader.js", {
        "accept-encoding": accept,
        "if-none-match": ifNoneMatch,
      });
      assert.equal(again?.status, 304, ifNoneMatch);
      assert.equal(again?.body, null);
      assert.equal(again?.headers.get("etag"), etag);
      assert.equal(again?.headers.get("cache-control"), "no-cache");
      assert.equal(again?.headers.get("vary"), "accept-encoding");
    }
    const changed = await get("/_inpage/loader.js", {
      "accept-encoding": accept,
      "if-none-match": '"0000000000000000000"',
    });
    assert.equal(changed?.status, 200);
    await changed?.body?.cancel();
  }
});

Deno.test("serveOverlayAsset answers HEAD without a body, 405 for other methods, 404 JSON for any other name under /_inpage/, and nothing elsewhere", async () => {
  const head = await serveOverlayAsset(
    new Request("http://site.example/_inpage/loader.js", {
      method: "HEAD",
      headers: { "accept-encoding": "gzip" },
    }),
  );
  assert.equal(head?.status, 200);
  assert.equal(head?.body, null);
  assert.equal(head?.headers.get("content-encoding"), "gzip");
  const [, entry] = await overlayAssets();
  const post = await serveOverlayAsset(
    new Request(`http://site.example${entry!.path}`, { method: "POST" }),
  );
  assert.equal(post?.status, 405);
  assert.equal(post?.headers.get("allow"), "GET, HEAD");
  assert.deepEqual(await post?.json(), { error: "method_not_allowed" });
  for (
    const path of [
      "/_inpage/",
      "/_inpage/overlay.js",
      "/_inpage/overlay-000000000000.js",
      "/_inpage/manifest.json",
      "/_inpage/loader.js.gz",
      "/_inpage/loader.js.br",
      "/_inpage/build.ts",
      "/_inpage/loader.js/",
      "/_inpage/constructor",
      "/_inpage/__proto__",
      "/_inpage/LOADER.JS",
    ]
  ) {
    const response = await get(path, { "accept-encoding": "gzip" });
    assert.equal(response?.status, 404, path);
    assert.equal(
      response?.headers.get("content-type"),
      "application/json; charset=utf-8",
    );
    assert.equal(response?.headers.get("cache-control"), "no-store");
    assert.equal(response?.headers.get("x-content-type-options"), "nosniff");
    assert.deepEqual(await response?.json(), { error: "not_found" });
  }
  for (
    const path of [
      "/_inpage",
      "/_inpage/../deno.json",
      "/_inpage/%2e%2e/deno.json",
      "/loader.js",
      "/x/_inpage/loader.js",
    ]
  ) {
    assert.equal(await get(path), undefined, path);
  }
});

Deno.test("the serving module uses no Deno.* API and imports its files as a module, so any host can use it", async () => {
  const source = await Deno.readTextFile(
    new URL("../../lib/overlay_assets/serve.ts", import.meta.url),
  );
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
  assert.doesNotMatch(code, /\bDeno\s*\./);
  assert.doesNotMatch(code, /^import\s/m);
});

Deno.test("withOverlayPreload names the entry for an editor's HTML page (the edit cookie or ?edit), and leaves every other answer as it is", async () => {
  const [, entry] = await overlayAssets();
  const page = (type = "text/html; charset=utf-8", status = 200) =>
    new Response("<!doctype html><title>Home</title>", {
      status,
      headers: { "content-type": type, "x-site": "kept" },
    });
  const preload = `<${entry!.path}>; rel=modulepreload`;
  for (
    const request of [
      new Request("http://site.example/en/?edit"),
      new Request("http://site.example/en/", {
        headers: { cookie: `a=b; ${EDIT_COOKIE}=1` },
      }),
    ]
  ) {
    const answer = await withOverlayPreload(request, page());
    assert.equal(answer.headers.get("link"), preload);
    assert.equal(answer.headers.get("x-site"), "kept");
    assert.equal(await answer.text(), "<!doctype html><title>Home</title>");
  }
  // A visitor, another kind of file, another status, another method.
  const editor = { cookie: `${EDIT_COOKIE}=1` };
  for (
    const [request, response] of [
      [new Request("http://site.example/en/"), page()],
      [
        new Request("http://site.example/en/", {
          headers: { cookie: `${EDIT_COOKIE}=0` },
        }),
        page(),
      ],
      [
        new Request("http://site.example/site.css", { headers: editor }),
        page("text/css"),
      ],
      [
        new Request("http://site.example/gone/", { headers: editor }),
        page(undefined, 404),
      ],
      [
        new Request("http://site.example/en/", {
          method: "HEAD",
          headers: editor,
        }),
        page(),
      ],
    ] as const
  ) {
    const answer = await withOverlayPreload(request, response);
    assert.equal(answer, response, request.url);
  }
});
