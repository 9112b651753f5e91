/**
 * Chosen images in the edit session: named by an object URL in the
 * changes, uploaded only when their page is published (just before its
 * save, once each), never when discarded; a draft's images come back
 * under new URLs after a reload.
 */
import assert from "node:assert/strict";
import type { Client, PageObject } from "../../client/mod.ts";
import { createRouter } from "../../mod.ts";
import { HOME, signedInSite } from "../support/site.ts";
import { EditSession } from "../../overlay/session/session.ts";
import {
  chosenIn,
  memoryImageStore,
  withStored,
} from "../../overlay/session/images.ts";
import { loadDraft } from "../../overlay/session/drafts.ts";
import { routerClient } from "../support/router_client.ts";

const PATH = "src/content/pages/en/home.json";
const BASE: PageObject = {
  title: "Home",
  image: { src: "old-0123456789ab.png", width: 10, height: 10, alt: "Old" },
};

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

const PNG = await Deno.readFile(
  new URL(
    "../../examples/site/public/images/hills-at-dawn-98c9ac741e4e.png",
    import.meta.url,
  ),
);

Deno.test("an image chosen then discarded is never uploaded; one chosen then published goes up once, just before its page", async () => {
  const router = createRouter({ locales: ["en", "fr"] });
  await using signed = await signedInSite(router, "images key");
  const real = routerClient(router.handle, signed.env, signed.cookie);
  // The real client, its calls noted in order.
  const calls: string[] = [];
  const client = {
    read: real.read.bind(real),
    publish: (request: Parameters<Client["publish"]>[0]) => {
      calls.push("publish");
      return real.publish(request);
    },
    upload: (file: Blob, name?: string) => {
      calls.push(`upload ${(file as File).name} ${name} ${file.type}`);
      return real.upload(file, name);
    },
  };
  // The home page holds an image: a region edits only a key the file has.
  const home = await real.read(HOME);
  await real.publish({
    path: HOME,
    version: home.version,
    content: JSON.stringify({ ...JSON.parse(home.content), image: BASE.image }),
  });
  const read = await real.read(HOME);
  const s = new EditSession(memoryStorage(), () => 1, memoryImageStore());
  s.addPage(HOME, read.version, JSON.parse(read.content), [[
    "/image",
    "image",
  ]]);
  const blob = new Blob([PNG], { type: "image/png" });

  const first = s.images.add(blob, "hills.png");
  s.change(HOME, "/image", { src: first, width: 960, height: 540, alt: "" });
  s.discardAll();
  assert.equal(s.images.has(first), false);
  assert.equal((await s.publish(client)).kind, "nothing");
  assert.deepEqual(calls, []);

  const src = s.images.add(blob, "hills.png");
  assert.match(src, /^blob:/);
  const stored: [string, string][] = [];
  s.images.onStored = (from, to) => stored.push([from, to]);
  s.change(HOME, "/image", { src, width: 960, height: 540, alt: "Hills" });
  assert.equal((await s.publish(client)).kind, "published");
  assert.deepEqual(calls, ["upload hills.png hills image/png", "publish"]);
  const page = JSON.parse((await real.read(HOME)).content);
  assert.match(page.image.src, /^hills-[0-9a-f]{12}\.png$/);
  // The overlay is told which name the chosen image is stored under.
  assert.deepEqual(stored, [[src, page.image.src]]);
  assert.deepEqual(
    { ...page.image, src: "" },
    { src: "", width: 960, height: 540, alt: "Hills" },
  );
  assert.equal(s.images.has(src), false);
});

Deno.test("a draft's images come back under new object URLs", async () => {
  const storage = memoryStorage();
  const images = memoryImageStore();
  const before = new EditSession(storage, () => 1, images);
  before.addPage(PATH, "v1", structuredClone(BASE), [["/image", "image"]]);
  const blob = new Blob([new Uint8Array([9])], { type: "image/jpeg" });
  const src = before.images.add(blob, "photo.jpg");
  before.change(PATH, "/image", { ...BASE.image as object, src });
  await new Promise((resolve) => setTimeout(resolve, 0));

  // A new page view: the old object URL means nothing any more.
  const after = new EditSession(storage, () => 2, images);
  after.addPage(PATH, "v1", structuredClone(BASE), [["/image", "image"]]);
  await after.reviveImages(PATH);
  const draft = loadDraft(storage, PATH)!;
  const [revived] = chosenIn(draft.changes.get("/image"));
  assert.ok(revived && revived !== src && after.images.has(revived));
  assert.equal(await (await fetch(revived)).bytes().then((b) => b[0]), 9);
});

Deno.test("withStored replaces each chosen src with the stored image, deep inside lists", () => {
  const stored = new Map([["blob:x", { src: "a.webp", width: 1, height: 2 }]]);
  assert.deepEqual(
    withStored(
      [{ image: { src: "blob:x", alt: "A" } }, { src: "b.png" }],
      stored,
    ),
    [{ image: { src: "a.webp", width: 1, height: 2, alt: "A" } }, {
      src: "b.png",
    }],
  );
});
