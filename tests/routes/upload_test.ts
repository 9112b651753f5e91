import assert from "node:assert/strict";
import { join } from "node:path";
import { createRouter, createUploadRoute } from "../../mod.ts";
import type { Env } from "../../mod.ts";
import { imageHeader } from "../../lib/images/image_header.ts";
import { sha256Hex } from "../../lib/digest.ts";
import {
  githubEnv,
  type GitHubFault,
  startGitHubDouble,
} from "../support/github_double.ts";
import { jpegOfSize, pngOfSize } from "../support/image_fixtures.ts";
import { answer, from, manualClock, ORIGIN } from "../support/helpers.ts";
import { signedInSite } from "../support/site.ts";
import { uploadRequest } from "../support/upload.ts";

const KEY = "upload key";
const router = createRouter({ locales: ["en"] });
const IMAGES = new URL("../../../shared/corpora/images/", import.meta.url);
const PNG = await Deno.readFile(new URL("pngsuite/basn6a08.png", IMAGES));
const JPEG = await Deno.readFile(
  new URL("image-size/valid/jpg/large.jpg", IMAGES),
);
const WEBP = await Deno.readFile(new URL("file-type/fixture.webp", IMAGES));

async function setup(extra: Env = {}) {
  const s = await signedInSite(router, KEY, extra);
  return Object.assign(s, {
    upload: async (
      bytes: Uint8Array<ArrayBuffer>,
      name?: string,
      client?: string,
    ) =>
      await answer(
        await router.handle(
          await uploadRequest(bytes, { name, cookie: s.cookie }),
          s.env,
          client ? from(client) : s.nextClient(),
        ),
      ),
  });
}

const hash12 = async (bytes: Uint8Array) =>
  (await sha256Hex(bytes)).slice(0, 12);

Deno.test("upload answers 200 with src, width and height, and stores the bytes in one commit", async () => {
  await using s = await setup();
  for (
    const [bytes, ext, width, height] of [[PNG, "png", 32, 32], [
      JPEG,
      "jpg",
      1600,
      1200,
    ], [WEBP, "webp", 200, 133]] as const
  ) {
    const before = await s.site.commitCount();
    const { status, body } = await s.upload(bytes, "Holiday photo.jpg");
    assert.equal(status, 200);
    const src = `holiday-photo-${await hash12(bytes)}.${ext}`;
    assert.deepEqual(body, { src, width, height });
    assert.deepEqual(
      await Deno.readFile(join(s.site.root, "public/images", src)),
      bytes,
    );
    assert.equal(await s.site.commitCount(), before + 1);
    assert.equal(
      (await s.site.git("log", "-1", "--format=%s")).trim(),
      `Add image ${src}`,
    );
  }
});

Deno.test("upload stores the same bytes once and gives the same src", async () => {
  await using s = await setup();
  const first = await s.upload(PNG, "logo");
  const commits = await s.site.commitCount();
  const second = await s.upload(PNG, "logo");
  assert.equal(second.status, 200);
  assert.deepEqual(second.body, first.body);
  assert.equal(await s.site.commitCount(), commits);
  const files = [...Deno.readDirSync(join(s.site.root, "public/images"))].map((
    e,
  ) => e.name);
  assert.deepEqual(files, [(first.body as { src: string }).src]);
});

Deno.test("upload rewrites names and never leaves public/images", async () => {
  await using s = await setup();
  const h = await hash12(PNG);
  const cases: [string | undefined, number, string | undefined][] = [
    ["Café Crème.jpg", 200, `cafe-creme-${h}.png`],
    ["Ünïcödé ñame", 200, `unicode-name-${h}.png`],
    ["😀 party 🎉", 200, `party-${h}.png`],
    ["../../x", 200, `x-${h}.png`],
    ["..\\..\\windows\\win.ini", 200, `windows-win-ini-${h}.png`],
    ["a/b/c", 200, `a-b-c-${h}.png`],
    ["...", 400, undefined],
    ["a.b.c", 200, `a-b-c-${h}.png`],
    ["🎉🎉", 400, undefined],
    ["", 400, undefined],
    [undefined, 200, `image-${h}.png`],
    ["x".repeat(200), 200, `${"x".repeat(60)}-${h}.png`],
    ["x".repeat(201), 400, undefined],
  ];
  for (const [name, status, src] of cases) {
    const result = await s.upload(PNG, name);
    assert.equal(result.status, status, String(name));
    if (src) {
      assert.deepEqual(
        result.body,
        { src, width: 32, height: 32 },
        String(name),
      );
    } else assert.deepEqual(result.body, { error: "bad_request" });
  }
  const tree: string[] = [];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      if (entry.name === ".git") continue;
      const path = join(dir, entry.name);
      tree.push(path.slice(s.site.root.length + 1));
      if (entry.isDirectory) walk(path);
    }
  };
  walk(s.site.root);
  const outside = tree.filter((path) =>
    !path.startsWith("public") && !path.startsWith("src")
  );
  assert.deepEqual(outside, []);
  // Nine accepted names, eight files: "a/b/c" and "a.b.c" give the same name.
  assert.equal(tree.filter((p) => p.startsWith("public/images/")).length, 8);
});

Deno.test("upload answers 415 with the kind recognised from the bytes", async () => {
  await using s = await setup();
  const corpus = async (path: string) =>
    await Deno.readFile(new URL(path, IMAGES));
  const cases: [Uint8Array<ArrayBuffer>, string][] = [
    [await corpus("image-size/valid/gif/sample.gif"), "gif"],
    [await corpus("image-size/valid/bmp/sample.bmp"), "bmp"],
    [await corpus("file-type/fixture-bali.tif"), "tiff"],
    [await corpus("image-size/valid/heif/sample.avif"), "avif"],
    [await corpus("file-type/fixture-heic.heic"), "heic"],
    [new TextEncoder().encode("%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n"), "pdf"],
    [
      new Uint8Array([
        0,
        0,
        1,
        0,
        1,
        0,
        16,
        16,
        0,
        0,
        1,
        0,
        32,
        0,
        0,
        0,
        0,
        0,
        22,
        0,
        0,
        0,
      ]),
      "ico",
    ],
    [new TextEncoder().encode("just some text, not an image"), "unknown"],
    [await corpus("file-type/fixture-corrupt.png"), "png"],
    [pngOfSize(4_000, 10_001, 1), "png"],
    [pngOfSize(4_000, 0, 5), "png"],
    [jpegOfSize(4_000, 10_001, 10), "jpeg"],
  ];
  for (const [bytes, kind] of cases) {
    const { status, body } = await s.upload(bytes, "x");
    assert.equal(status, 415, kind);
    assert.deepEqual(body, { error: "unsupported_format", kind });
  }
  for await (
    const entry of Deno.readDir(
      new URL("../../../shared/corpora/xss/svg_xss/", import.meta.url),
    )
  ) {
    const bytes = await Deno.readFile(
      new URL(
        `../../../shared/corpora/xss/svg_xss/${entry.name}`,
        import.meta.url,
      ),
    );
    const { status, body } = await s.upload(bytes, entry.name);
    assert.equal(status, 415, entry.name);
    assert.deepEqual(body, { error: "unsupported_format", kind: "svg" });
  }
  await assert.rejects(
    () => Deno.stat(join(s.site.root, "public/images")),
    Deno.errors.NotFound,
    "nothing was stored",
  );
});

Deno.test("every corpus image through the route: 200 with the header's dimensions, or 415", async () => {
  await using s = await setup({ REPOSITORY: undefined });
  const site = await s.site.checkout({ commit: false });
  const env = { ...s.env, REPOSITORY: site };
  const manifest: { name: string }[] = JSON.parse(
    await Deno.readTextFile(new URL("MANIFEST.json", IMAGES)),
  );
  const counts = { 200: 0, 415: 0 };
  for (const [index, { name }] of manifest.entries()) {
    const bytes = await Deno.readFile(new URL(name, IMAGES));
    const response = await router.handle(
      await uploadRequest(bytes, { name: `corpus ${index}`, cookie: s.cookie }),
      env,
      from(`10.3.${Math.floor(index / 25)}.${index % 25}`),
    );
    const { status, body } = await answer(response);
    assert.ok(status === 200 || status === 415, `${name}: ${status}`);
    counts[status]++;
    if (status === 200) {
      const { width, height, format } = imageHeader(bytes);
      const ext = format === "jpeg" ? "jpg" : format;
      assert.deepEqual(body, {
        src: `corpus-${index}-${await hash12(bytes)}.${ext}`,
        width,
        height,
      });
    }
  }
  assert.deepEqual(counts, { 200: 178, 415: 68 });
});

Deno.test("upload accepts 20,000,000 bytes and answers 413 to one more, declared or streamed", async () => {
  await using s = await setup();
  const exact = pngOfSize(20_000_000);
  const ok = await s.upload(exact, "big");
  assert.equal(ok.status, 200);
  assert.deepEqual(ok.body, {
    src: `big-${await hash12(exact)}.png`,
    width: 4000,
    height: 3000,
  });
  assert.deepEqual(
    await Deno.readFile(
      join(s.site.root, "public/images", (ok.body as { src: string }).src),
    ),
    exact,
  );
  const over = pngOfSize(20_000_001);
  for (const declared of [true, false]) {
    const request = await uploadRequest(over, {
      name: "big",
      cookie: s.cookie,
      declared,
    });
    assert.equal(request.headers.has("content-length"), declared);
    const { status, body } = await answer(
      await router.handle(request, s.env, from("10.4.0.1")),
    );
    assert.equal(status, 413, `declared: ${declared}`);
    assert.deepEqual(body, { error: "too_large" });
  }
});

Deno.test("upload answers 413 to a 2 GB declared length at once, before identity, without reading", async () => {
  await using s = await setup();
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new Uint8Array(65_536));
    },
  });
  const request = new Request(`${ORIGIN}/api/upload`, {
    method: "POST",
    headers: {
      "content-type": "multipart/form-data; boundary=x",
      "content-length": "2000000000",
    },
    body,
  });
  const started = performance.now();
  const { status, body: json } = await answer(
    await router.handle(request, s.env, from("10.4.0.2")),
  );
  assert.equal(status, 413);
  assert.deepEqual(json, { error: "too_large" });
  assert.ok(pulled <= 1, `pulled ${pulled} chunks`);
  assert.ok(performance.now() - started < 500);
});

Deno.test("upload answers 400 for an unreadable form or a missing file", async () => {
  await using s = await setup();
  const form = new FormData();
  form.append("name", "no file");
  const cases: Request[] = [
    new Request(`${ORIGIN}/api/upload`, {
      method: "POST",
      headers: { cookie: s.cookie },
      body: form,
    }),
    new Request(`${ORIGIN}/api/upload`, {
      method: "POST",
      headers: { cookie: s.cookie, "content-type": "application/json" },
      body: "{}",
    }),
    new Request(`${ORIGIN}/api/upload`, {
      method: "POST",
      headers: { cookie: s.cookie, "content-type": "multipart/form-data" },
      body: "x",
    }),
    new Request(`${ORIGIN}/api/upload`, {
      method: "POST",
      headers: {
        cookie: s.cookie,
        "content-type": "multipart/form-data; boundary=zz",
      },
      body: '--zz\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc',
    }),
    new Request(`${ORIGIN}/api/upload`, {
      method: "POST",
      headers: { cookie: s.cookie, "content-type": "image/png" },
      body: PNG,
    }),
  ];
  for (const [index, request] of cases.entries()) {
    const { status, body } = await answer(
      await router.handle(request, s.env, from(`10.5.0.${index}`)),
    );
    assert.equal(status, 400, String(index));
    assert.deepEqual(body, { error: "bad_request" });
  }
});

Deno.test("upload answers 401 without a valid session", async () => {
  await using s = await setup();
  for (const headers of [{}, { cookie: "editor_session=" + "C".repeat(43) }]) {
    const request = await uploadRequest(PNG, { name: "x", headers });
    const { status, body } = await answer(
      await router.handle(request, s.env, from("10.6.0.1")),
    );
    assert.equal(status, 401);
    assert.deepEqual(body, { error: "unauthorized" });
  }
});

Deno.test("upload answers 429 after 30 uploads in 15 minutes", async () => {
  const clock = manualClock();
  await using s = await setup({ EDITOR_CLOCK: clock.now });
  for (let i = 0; i < 30; i++) {
    assert.equal((await s.upload(PNG, "same", "192.0.2.30")).status, 200);
  }
  const { status, body, headers } = await s.upload(PNG, "same", "192.0.2.30");
  assert.equal(status, 429);
  assert.deepEqual(body, { error: "Trop de requêtes. Réessayez dans 15 min." });
  assert.equal(headers.get("retry-after"), "900");
});

Deno.test("upload checks in order: 429, declared 413, 401, received 413, 400, 415", async () => {
  await using s = await setup();
  const client = "192.0.2.31";
  const send = async (request: Request) =>
    (await answer(await router.handle(request, s.env, from(client)))).status;
  const gif = await Deno.readFile(
    new URL("image-size/valid/gif/sample.gif", IMAGES),
  );
  assert.equal(
    await send(await uploadRequest(gif, { name: "x", cookie: s.cookie })),
    415,
  );
  assert.equal(
    await send(
      await uploadRequest(gif, { name: "x".repeat(201), cookie: s.cookie }),
    ),
    400,
  );
  assert.equal(
    await send(await uploadRequest(gif, { name: "???", cookie: s.cookie })),
    400,
    "a name that leaves no slug is refused before the format",
  );
  const big = pngOfSize(20_000_001);
  assert.equal(
    await send(
      await uploadRequest(big, {
        name: "x".repeat(201),
        cookie: s.cookie,
        declared: false,
      }),
    ),
    413,
  );
  assert.equal(
    await send(await uploadRequest(big, { name: "x", declared: false })),
    401,
  );
  const huge = pngOfSize(20_100_000);
  assert.equal(
    await send(await uploadRequest(huge, { name: "x" })),
    413,
    "declared, without a session",
  );
  // Only requests past the identity check took slots: spend the rest.
  for (let i = 0; i < 30; i++) {
    await send(await uploadRequest(gif, { name: "x", cookie: s.cookie }));
  }
  assert.equal(await send(await uploadRequest(huge, { name: "x" })), 429);
});

Deno.test("upload stores through GitHub as base64 and maps its failures to 502", async () => {
  await using github = startGitHubDouble();
  await using s = await setup({ REPOSITORY: undefined, ...githubEnv(github) });
  const { status, body } = await s.upload(JPEG, "from github");
  assert.equal(status, 200);
  const src = (body as { src: string }).src;
  assert.deepEqual(github.files.get(`public/images/${src}`), JPEG);
  assert.deepEqual(
    (await s.upload(JPEG, "from github")).body,
    body,
    "stored once",
  );
  const cases: [GitHubFault, string][] = [
    [{ kind: "status", status: 401, method: "PUT" }, "unauthorized"],
    [{ kind: "status", status: 404, method: "PUT" }, "not_found"],
    [{ kind: "status", status: 502, method: "PUT" }, "unavailable"],
  ];
  for (const [fault, code] of cases) {
    github.setFault(fault);
    const result = await s.upload(PNG, "fails");
    assert.equal(result.status, 502);
    assert.deepEqual(result.body, { error: code });
  }
});

Deno.test("upload answers 405 with allow POST, and the factory works alone", async () => {
  await using s = await setup();
  const route = createUploadRoute();
  for (const method of ["GET", "PUT", "DELETE"]) {
    const response = await route.onRequest({
      request: new Request(`${ORIGIN}/api/upload`, { method }),
      env: s.env,
    });
    const { status, headers } = await answer(response);
    assert.equal(status, 405);
    assert.equal(headers.get("allow"), "POST");
  }
});
