import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { gunzipSync } from "node:zlib";
import { build, type OverlayManifest } from "../../lib/overlay_assets/build.ts";

const DIST = new URL("../../overlay/dist/", import.meta.url);

/** Every file of a folder with its bytes, by name. */
async function filesOf(folder: string | URL): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  for await (const entry of Deno.readDir(folder)) {
    files.set(entry.name, await Deno.readFile(new URL(entry.name, folder)));
  }
  return files;
}

/** The committed build's manifest. */
async function manifestOf(): Promise<OverlayManifest> {
  return JSON.parse(await Deno.readTextFile(new URL("manifest.json", DIST)));
}

/**
 * A lazy part of the committed build, checked to be imported by the entry
 * with `import()` only, the entry being all that every editor loads.
 */
async function lazyPart(name: string) {
  const manifest = await manifestOf();
  // One file before the overlay is ready: the entry imports no shared part.
  assert.deepEqual(manifest.eager, [manifest.entry]);
  const file = manifest.lazy.find((lazy) => lazy.startsWith(`${name}-`));
  assert.match(file ?? "", new RegExp(`^${name}-[A-Z0-9]{8}\\.js$`));
  const entry = await Deno.readTextFile(new URL(manifest.entry, DIST));
  assert.ok(entry.includes(`import("./${file}")`));
  const part = await Deno.readTextFile(new URL(file!, DIST));
  return { manifest, entry, part };
}

Deno.test("the committed overlay build is what lib/overlay_assets/build.ts makes from the sources (run deno task build)", async () => {
  const folder = await Deno.makeTempDir({ prefix: "overlay-build-" });
  try {
    await build(folder);
    const fresh = await filesOf(new URL(`file://${folder}/`));
    const committed = await filesOf(DIST);
    const stale = `overlay/dist is stale: run npx --yes deno@2.9.6 task build`;
    assert.deepEqual(
      [...committed.keys()].sort(),
      [...fresh.keys()].sort(),
      stale,
    );
    for (const [name, bytes] of fresh) {
      assert.ok(
        Buffer.compare(bytes, committed.get(name)!) === 0,
        `${name}: ${stale}`,
      );
    }
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("the loader is at most 2 KB gzipped, imports nothing statically, and imports the overlay by its hashed name", async () => {
  const manifest = JSON.parse(
    await Deno.readTextFile(new URL("manifest.json", DIST)),
  );
  const loader = await Deno.readFile(new URL("loader.js", DIST));
  assert.ok(
    (await Deno.readFile(new URL("loader.js.gz", DIST))).byteLength <= 2048,
  );
  assert.deepEqual(
    gunzipSync(await Deno.readFile(new URL("loader.js.gz", DIST))),
    Buffer.from(loader),
  );
  const text = new TextDecoder().decode(loader);
  assert.doesNotMatch(text, /^\s*import\s/m);
  assert.match(manifest.entry, /^overlay-[0-9a-f]{12}\.js$/);
  assert.ok(text.includes(`"./${manifest.entry}"`));
  const entry = await Deno.readFile(new URL(manifest.entry, DIST));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", entry));
  const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join(
    "",
  );
  assert.equal(manifest.entry, `overlay-${hex.slice(0, 12)}.js`);
});

Deno.test("the cropper is a lazy part: the entry imports it only with import(), and nothing every editor loads holds Cropper.js", async () => {
  const { entry, part } = await lazyPart("cropper");
  assert.ok(!entry.includes("cropper-container"), "Cropper.js's CSS is lazy");
  assert.ok(!entry.includes("getCroppedCanvas:function"), "Cropper.js is lazy");
  assert.ok(part.includes("cropper-container"));
  assert.ok(part.includes("getCroppedCanvas:function"));
});

Deno.test("the rich text editor is a lazy part, and what every editor loads is at most 100 KB gzipped", async () => {
  const { manifest, entry, part } = await lazyPart("rich_text");
  assert.ok(!entry.includes("ProseMirror"), "ProseMirror is lazy");
  assert.ok(part.includes("ProseMirror"));
  assert.doesNotMatch(part, /(?:import|from)\s*"\.\//, "imports no part");
  let eager = 0;
  for (const name of manifest.eager) {
    eager += (await Deno.stat(new URL(`${name}.gz`, DIST))).size;
  }
  assert.ok(eager <= 100 * 1024, `${eager} B gzipped`);
});
