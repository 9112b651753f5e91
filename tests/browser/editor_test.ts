/**
 * The routes as the overlay uses them, in a real browser: Debian's Chromium
 * driven by playwright-core, against `editor serve` started for real. The
 * overlay page is served on the editor's own origin; images are cropped and
 * converted by the browser's own canvas encoders; a page on another site
 * tries to use the session.
 */
import { CHROMIUM, FLAGS } from "../support/chromium.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startServeProcess } from "../support/cli.ts";
import { fastHash } from "../support/helpers.ts";
import { HOME, tempSite } from "../support/site.ts";

/** The little of the browser's DOM the page scripts below use. */
interface BrowserDocument {
  cookie: string;
  createElement(tag: "canvas"): {
    width: number;
    height: number;
    getContext(kind: "2d"): {
      fillStyle: string;
      fillRect(x: number, y: number, w: number, h: number): void;
      fillText(text: string, x: number, y: number): void;
    } | null;
    toBlob(
      done: (blob: Blob | null) => void,
      type: string,
      quality: number,
    ): void;
  };
}
const ARGS = [...FLAGS, "--host-resolver-rules=MAP evil.test 127.0.0.1"];

Deno.test("in Chromium: log in, read, publish, upload canvas images, log out; another site gets nothing", async () => {
  await using site = await tempSite();
  const key = "browser key";
  const work = await Deno.makeTempDir({ prefix: "editor-browser-" });
  await using server = await startServeProcess(
    ["--repo", site.root, "--port", "0", "--kv", join(work, "kv.sqlite3")],
    { EDITOR_KEY_HASH: await fastHash(key) },
  );
  const evil = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () =>
      new Response(
        `<!doctype html><title>evil</title><script>
        window.attempts = Promise.all([
          fetch(${
          JSON.stringify(`${server.url}api/content?path=${HOME}`)
        }, { mode: "no-cors", credentials: "include" }),
          fetch(${
          JSON.stringify(`${server.url}api/auth`)
        }, { method: "POST", mode: "no-cors", credentials: "include",
            headers: { "content-type": "text/plain" }, body: JSON.stringify({ key: ${
          JSON.stringify(key)
        } }) }),
        ]).then(() => "sent", (e) => String(e));
      </script>`,
        { headers: { "content-type": "text/html" } },
      ),
  );
  const profile = join(work, "profile");
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
  });
  try {
    const page = await context.newPage();
    await page.route(
      `${server.url}overlay`,
      (route) =>
        route.fulfill({
          contentType: "text/html",
          body: "<!doctype html><title>overlay</title>",
        }),
    );
    await page.goto(`${server.url}overlay`);
    const flow = await page.evaluate(async ({ key, home }) => {
      const document =
        (globalThis as unknown as { document: BrowserDocument }).document;
      const out: Record<string, unknown> = {};
      const login = await fetch("/api/auth", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ key }),
      });
      out.login = [login.status, await login.json()];
      out.visibleCookies = document.cookie;
      const read = await fetch(`/api/content?path=${home}`);
      const { version } = await read.json();
      out.read = read.status;
      const save = await fetch("/api/save", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          path: home,
          content: JSON.stringify({ title: "From the browser" }),
          version,
        }),
      });
      out.save = [save.status, Object.keys(await save.json())];
      const canvas = document.createElement("canvas");
      canvas.width = 320;
      canvas.height = 180;
      const draw = canvas.getContext("2d")!;
      draw.fillStyle = "#3a6";
      draw.fillRect(0, 0, 320, 180);
      draw.fillStyle = "#fff";
      draw.fillText("cropped in the browser", 20, 90);
      const uploads: unknown[] = [];
      for (const type of ["image/png", "image/jpeg", "image/webp"]) {
        const blob = await new Promise<Blob>((resolve) =>
          canvas.toBlob((b) => resolve(b!), type, 0.85)
        );
        const form = new FormData();
        form.append("file", blob, "crop");
        form.append("name", `Banner ${type.slice(6)}`);
        const response = await fetch("/api/upload", {
          method: "POST",
          body: form,
        });
        uploads.push([response.status, await response.json()]);
      }
      out.uploads = uploads;
      return out;
    }, { key, home: HOME });
    assert.deepEqual(flow.login, [200, { ok: true }]);
    assert.equal(
      flow.visibleCookies,
      "editor_edit=1",
      "the session cookie is HttpOnly",
    );
    assert.equal(flow.read, 200);
    assert.deepEqual(flow.save, [200, ["version"]]);
    const uploads = flow.uploads as [
      number,
      { src: string; width: number; height: number },
    ][];
    assert.deepEqual(
      uploads.map(([status, body]) => [status, body.width, body.height]),
      [
        [200, 320, 180],
        [200, 320, 180],
        [200, 320, 180],
      ],
    );
    assert.match(uploads[0]?.[1].src ?? "", /^banner-png-[0-9a-f]{12}\.png$/);
    assert.match(uploads[1]?.[1].src ?? "", /^banner-jpeg-[0-9a-f]{12}\.jpg$/);
    assert.match(uploads[2]?.[1].src ?? "", /^banner-webp-[0-9a-f]{12}\.webp$/);
    for (const [, { src }] of uploads) {
      assert.ok(
        (await Deno.stat(join(site.root, "public/images", src))).isFile,
      );
    }
    assert.equal(
      await site.read(HOME),
      '{\n  "title": "From the browser"\n}\n',
    );

    const cookies = await context.cookies(server.url);
    const session = cookies.find((c) => c.name === "editor_session");
    const edit = cookies.find((c) => c.name === "editor_edit");
    assert.ok(session && edit);
    assert.deepEqual(
      [session.httpOnly, session.secure, session.sameSite, session.path],
      [true, true, "Strict", "/"],
    );
    assert.deepEqual([edit.httpOnly, edit.secure, edit.sameSite, edit.value], [
      false,
      true,
      "Strict",
      "1",
    ]);
    const lifetime = session.expires - Date.now() / 1000;
    assert.ok(
      lifetime > 28_700 && lifetime <= 28_800,
      `session lifetime ${lifetime} s`,
    );

    const logged = server.stdout().split("\n").filter((l) =>
      l.startsWith("{")
    ).length;
    const other = await context.newPage();
    await other.goto(`http://evil.test:${evil.addr.port}/`);
    assert.equal(
      await other.evaluate(() =>
        (window as unknown as { attempts: Promise<string> }).attempts
      ),
      "sent",
    );
    const deadline = Date.now() + 5_000;
    let lines: { route: string; status: number }[] = [];
    while (lines.length < 2 && Date.now() < deadline) {
      lines = server.stdout().split("\n").filter((l) => l.startsWith("{"))
        .slice(logged).map((l) => JSON.parse(l));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.deepEqual(
      lines.map((l) => [l.route, l.status]).sort(),
      [["/api/auth", 401], ["/api/content", 401]],
      "a cross-site page can neither read with the session nor log in",
    );

    const after = await page.evaluate(async (home) => {
      const document =
        (globalThis as unknown as { document: BrowserDocument }).document;
      const logout = await fetch("/api/auth", { method: "DELETE" });
      const read = await fetch(`/api/content?path=${home}`);
      return {
        logout: logout.status,
        cookies: document.cookie,
        read: read.status,
      };
    }, HOME);
    assert.deepEqual(after, { logout: 200, cookies: "", read: 401 });
    assert.deepEqual(
      (await context.cookies(server.url)).map((c) => c.name),
      [],
    );
  } finally {
    await context.close();
    await evil.shutdown();
    await server.stop();
    await Deno.remove(work, { recursive: true });
  }
});
