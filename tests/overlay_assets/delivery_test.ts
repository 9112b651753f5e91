/**
 * Every way the package serves the overlay answers it the same way, over
 * real HTTP: `editor serve` (plain, `--site`, `--proxy`), the Deno Deploy
 * entry and the Astro example's deploy entry. Each is started for real on
 * a loopback port and stopped by the test.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { serveCheckout } from "../support/cli.ts";
import { startDeployEntry } from "../support/deploy_entry.ts";
import { tempSite } from "../support/site.ts";
import { IMMUTABLE, overlayAssets } from "../../lib/overlay_assets/serve.ts";

const DIST = new URL("../../overlay/dist/", import.meta.url);

/**
 * Asserts the overlay's delivery at an origin: compressed when accepted,
 * hashed names cached for good, the loader revalidated with its ETag, the
 * bytes as built when nothing is accepted, other names 404 JSON.
 */
async function assertOverlayDelivered(origin: string): Promise<void> {
  const assets = await overlayAssets();
  for (const { path } of assets) {
    const name = path.slice("/_inpage/".length);
    for (
      const [accept, encoding, suffix] of [["gzip", "gzip", ".gz"], [
        "gzip, deflate, br",
        "br",
        ".br",
      ]]
    ) {
      const answer = await fetch(origin + path, {
        headers: { "accept-encoding": accept! },
      });
      assert.equal(answer.status, 200, path);
      assert.equal(answer.headers.get("content-encoding"), encoding, path);
      assert.equal(answer.headers.get("vary"), "accept-encoding");
      assert.equal(
        answer.headers.get("cache-control"),
        name === "loader.js" ? "no-cache" : IMMUTABLE,
      );
      // The bytes on the wire are the committed compressed copy.
      const copy = await Deno.readFile(new URL(name + suffix, DIST));
      assert.equal(answer.headers.get("content-length"), String(copy.length));
      // fetch decompresses: what the browser runs is the built file.
      assert.deepEqual(
        new Uint8Array(await answer.arrayBuffer()),
        await Deno.readFile(new URL(name, DIST)),
      );
    }
  }
  const loader = await fetch(origin + "/_inpage/loader.js", {
    headers: { "accept-encoding": "gzip" },
  });
  const etag = loader.headers.get("etag") ?? "";
  assert.ok((await loader.text()).includes(`"./${assets[1]!.path.slice(9)}"`));
  const again = await fetch(origin + "/_inpage/loader.js", {
    headers: { "accept-encoding": "gzip", "if-none-match": etag },
  });
  assert.equal(again.status, 304);
  assert.equal(await again.text(), "");
  const plain = await fetch(origin + assets[1]!.path, {
    headers: { "accept-encoding": "identity" },
  });
  assert.equal(plain.headers.get("content-encoding"), null);
  assert.equal(
    plain.headers.get("content-length"),
    String((await Deno.stat(new URL(assets[1]!.path.slice(9), DIST))).size),
  );
  await plain.body?.cancel();
  for (const path of ["/_inpage/overlay.js", "/_inpage/manifest.json"]) {
    const missing = await fetch(origin + path);
    assert.equal(missing.status, 404, path);
    assert.deepEqual(await missing.json(), { error: "not_found" });
  }
}

Deno.test("editor serve, plain, with --site and with --proxy, serves the overlay compressed, cached by hashed names, the loader with 304", async () => {
  await using site = await tempSite();
  const dist = join(site.root, "dist");
  await Deno.mkdir(dist);
  await Deno.writeTextFile(join(dist, "index.html"), "<h1>Built</h1>");
  const seen: string[] = [];
  const dev = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    (request) => {
      seen.push(new URL(request.url).pathname);
      return new Response("dev", { status: 404 });
    },
  );
  try {
    for (
      const args of [[], ["--site", dist], [
        "--proxy",
        `http://127.0.0.1:${dev.addr.port}`,
      ]]
    ) {
      await using server = await serveCheckout(site.root, { args });
      await assertOverlayDelivered(server.url.replace(/\/$/, ""));
    }
    assert.deepEqual(seen, [], "the dev server never sees /_inpage/");
  } finally {
    await dev.shutdown();
  }
});

for (
  const entry of ["examples/deno-deploy/main.ts", "examples/astro/deploy.ts"]
) {
  Deno.test(`${entry} serves the overlay compressed, cached by hashed names, the loader with 304`, async () => {
    const work = await Deno.makeTempDir({ prefix: "editor-deploy-overlay-" });
    try {
      await using running = await startDeployEntry(
        entry,
        {
          PORT: "0",
          HOSTNAME: "127.0.0.1",
          EDITOR_KV_PATH: join(work, "kv.sqlite3"),
          SITE_DIR: work,
        },
        (out) => /Listening on http:\/\/127\.0\.0\.1:\d+\//.test(out),
      );
      const origin = /Listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(
        running.out,
      )![1]!;
      await assertOverlayDelivered(origin);
    } finally {
      await Deno.remove(work, { recursive: true });
    }
  });
}
