import assert from "node:assert/strict";
import { join } from "node:path";
import { serveCheckout } from "../support/cli.ts";
import { tempSite } from "../support/site.ts";
import { corpusLines } from "../support/corpora.ts";
import { serveStaticFile } from "../../cli/static_site.ts";
import { overlayAssets } from "../../lib/overlay_assets/serve.ts";
import { EDIT_COOKIE } from "../../lib/wire/names.ts";

const PNG = new URL(
  "../../examples/site/public/images/hills-at-dawn-98c9ac741e4e.png",
  import.meta.url,
);

/**
 * A built site beside a secret file and a secret folder, with links that
 * point out of it and one that stays inside.
 */
async function builtSite(): Promise<
  AsyncDisposable & { root: string; png: Uint8Array }
> {
  const parent = await Deno.realPath(
    await Deno.makeTempDir({ prefix: "editor-static-" }),
  );
  const root = join(parent, "dist");
  const png = await Deno.readFile(PNG);
  const files: Record<string, string | Uint8Array> = {
    "index.html": "<h1>Home</h1>",
    "docs/index.html": "<h1>Docs</h1>",
    "about.html": "<h1>About</h1>",
    "site.css": "body{}",
    "app.js": "export {};",
    "logo.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
    "images/hills.png": png,
    "data.bin": new Uint8Array([0, 1, 2, 255]),
    "été.txt": "summer",
    ".env": "SECRET=dotfile",
    ".git/config": "[core] dotfolder",
    "docs/.hidden": "hidden",
  };
  for (const [path, content] of Object.entries(files)) {
    await Deno.mkdir(join(root, path, ".."), { recursive: true });
    if (typeof content === "string") {
      await Deno.writeTextFile(join(root, path), content);
    } else await Deno.writeFile(join(root, path), content);
  }
  await Deno.writeTextFile(join(parent, "secret.txt"), "SECRET=outside");
  await Deno.mkdir(join(parent, "private"));
  await Deno.writeTextFile(join(parent, "private/index.html"), "private");
  await Deno.symlink(join(parent, "secret.txt"), join(root, "leak.txt"));
  await Deno.symlink(join(parent, "private"), join(root, "private"));
  await Deno.symlink(join(root, "about.html"), join(root, "alias.html"));
  return {
    root,
    png,
    [Symbol.asyncDispose]: () => Deno.remove(parent, { recursive: true }),
  };
}

/** Sends one request line as written, without any URL normalisation. */
async function rawGet(
  url: string,
  target: string,
): Promise<{ status: number; headers: string; body: string }> {
  const { hostname, port } = new URL(url);
  const connection = await Deno.connect({ hostname, port: Number(port) });
  await connection.write(
    new TextEncoder().encode(
      `GET ${target} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`,
    ),
  );
  let text = "";
  for await (
    const chunk of connection.readable.pipeThrough(new TextDecoderStream())
  ) text += chunk;
  const [head = "", body = ""] = text.split("\r\n\r\n");
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  return { status, headers: head.toLowerCase(), body };
}

Deno.test("editor serve --site refuses traversal, raw and percent-encoded, dotfiles and links out of the site with 404 JSON", async () => {
  await using site = await tempSite();
  await using dist = await builtSite();
  await using server = await serveCheckout(site.root, {
    args: ["--site", dist.root],
  });
  const refused = [
    "/../secret.txt",
    "/../../../../etc/passwd",
    "/docs/../../secret.txt",
    "/%2e%2e/secret.txt",
    "/%2E%2E/%2E%2E/etc/passwd",
    "/.%2e/secret.txt",
    "/%2e%2e%2fsecret.txt",
    "/..%2fsecret.txt",
    "/..%5csecret.txt",
    "/..\\secret.txt",
    "/docs\\..\\..\\secret.txt",
    "/%5c..%5c..%5csecret.txt",
    "/%252e%252e/secret.txt",
    "/%c0%ae%c0%ae/secret.txt",
    "/..%00/secret.txt",
    "/index.html%00.png",
    "/.env",
    "/.git/config",
    "/%2egit/config",
    "/docs/.hidden",
    "/leak.txt",
    "/private/",
    "/private/index.html",
    "/docs//index.html",
    "/missing.html",
    "/images/hills.png/",
  ];
  for (const target of refused) {
    const response = await rawGet(server.url, target);
    assert.equal(response.status, 404, target);
    assert.ok(response.headers.includes("content-type: application/json"));
    assert.ok(response.headers.includes("x-content-type-options: nosniff"));
    assert.equal(response.body, '{"error":"not_found"}', target);
  }
  // The same through fetch, whose URL parser may resolve dots first.
  for (const target of refused) {
    const response = await fetch(new URL(target, server.url));
    assert.equal(response.status, 404, target);
    assert.deepEqual(await response.json(), { error: "not_found" }, target);
  }
  await server.stop();
});

Deno.test("editor serve --site resolves folders to index.html, serves files with their content type and nosniff, and a link within the site", async () => {
  await using site = await tempSite();
  await using dist = await builtSite();
  await using server = await serveCheckout(site.root, {
    args: ["--site", dist.root],
  });
  assert.ok(
    server.stdout().includes(
      `, other paths from the files of ${dist.root})\n`,
    ),
    server.stdout(),
  );
  const get = (path: string, init?: RequestInit) =>
    fetch(new URL(path, server.url), { redirect: "manual", ...init });
  const cases: [string, string, string][] = [
    ["/", "text/html; charset=utf-8", "<h1>Home</h1>"],
    ["/index.html", "text/html; charset=utf-8", "<h1>Home</h1>"],
    ["/docs/", "text/html; charset=utf-8", "<h1>Docs</h1>"],
    ["/about", "text/html; charset=utf-8", "<h1>About</h1>"],
    ["/alias.html", "text/html; charset=utf-8", "<h1>About</h1>"],
    ["/site.css", "text/css; charset=utf-8", "body{}"],
    ["/app.js", "text/javascript; charset=utf-8", "export {};"],
    ["/logo.svg", "image/svg+xml", "<svg xmlns='http://www.w3.org/2000/svg'/>"],
    ["/%C3%A9t%C3%A9.txt", "text/plain; charset=utf-8", "summer"],
  ];
  for (const [path, type, body] of cases) {
    const response = await get(path);
    assert.equal(response.status, 200, path);
    assert.equal(response.headers.get("content-type"), type, path);
    assert.equal(response.headers.get("x-content-type-options"), "nosniff");
    assert.equal(await response.text(), body, path);
  }
  const image = await get("/images/hills.png");
  assert.equal(image.headers.get("content-type"), "image/png");
  assert.deepEqual(new Uint8Array(await image.arrayBuffer()), dist.png);
  const binary = await get("/data.bin");
  assert.equal(binary.headers.get("content-type"), "application/octet-stream");
  assert.deepEqual(
    new Uint8Array(await binary.arrayBuffer()),
    new Uint8Array([0, 1, 2, 255]),
  );
  const folder = await get("/docs?x=1");
  assert.equal(folder.status, 308);
  assert.equal(folder.headers.get("location"), "/docs/?x=1");
  await folder.body?.cancel();
  const head = await get("/site.css", { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get("content-length"), "6");
  assert.equal(await head.text(), "");
  const post = await get("/site.css", { method: "POST", body: "x" });
  assert.equal(post.status, 404);
  await post.body?.cancel();
  // A page for an editor names the overlay's entry to fetch beside it;
  // for a visitor, or a file that is not a page, nothing is added.
  const [, entry] = await overlayAssets();
  const preload = `<${entry!.path}>; rel=modulepreload`;
  for (
    const [path, cookie, link] of [
      ["/?edit", "", preload],
      ["/docs/", `${EDIT_COOKIE}=1`, preload],
      ["/docs/", "", null],
      ["/site.css", `${EDIT_COOKIE}=1`, null],
    ] as const
  ) {
    const response = await get(path, { headers: { cookie } });
    assert.equal(response.headers.get("link"), link, `${path} ${cookie}`);
    await response.body?.cancel();
  }
  // The routes keep their place beside the site.
  const logout = await get("/api/auth", { method: "DELETE" });
  assert.equal(logout.status, 200);
  assert.deepEqual(await logout.json(), { ok: true });
  await server.stop();
});

Deno.test("serveStaticFile never answers with a file outside the folder for the traversal corpus", async () => {
  await using dist = await builtSite();
  let payloads = 0;
  for await (const line of corpusLines("traversal/payloadsallthethings/")) {
    const payload = line.trim().replaceAll("{FILE}", "secret.txt");
    if (!payload) continue;
    let request: Request;
    try {
      request = new Request(
        `http://site.example/${payload.replace(/^\/+/, "")}`,
      );
    } catch {
      continue;
    }
    payloads++;
    const response = await serveStaticFile(request, dist.root);
    const body = response ? await response.text() : "";
    assert.ok(
      !body.includes("SECRET") && !body.includes("private"),
      payload,
    );
  }
  assert.ok(payloads > 20_000, `${payloads} payloads`);
});
