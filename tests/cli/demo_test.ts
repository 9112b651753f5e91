import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { assertPublishedOver, logInOver } from "../support/helpers.ts";
import { overlayAssets } from "../../lib/overlay_assets/serve.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const EXAMPLE = join(ROOT, "examples/site");

/** Every file under a folder with the SHA-256 of its bytes, sorted. */
async function tree(folder: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (at: string) => {
    for await (const entry of Deno.readDir(at)) {
      const path = join(at, entry.name);
      if (entry.isDirectory) await walk(path);
      else {
        const digest = await crypto.subtle.digest(
          "SHA-256",
          await Deno.readFile(path),
        );
        out.push(
          `${relative(folder, path)} ${
            Array.from(new Uint8Array(digest), (b) => b.toString(16)).join("")
          }`,
        );
      }
    }
  };
  await walk(folder);
  return out.sort();
}

/** The project's top-level names, so that a stray file shows. */
async function topLevel(): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(ROOT)) names.push(entry.name);
  return names.sort();
}

async function git(root: string, ...args: string[]): Promise<string> {
  const output = await new Deno.Command("git", {
    args: ["-C", root, ...args],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(output.stdout);
}

Deno.test("deno task demo serves the example site, the overlay's loader tag and the routes on one origin, prints a fresh key, and leaves the project's files unchanged", async () => {
  const before = { example: await tree(EXAMPLE), top: await topLevel() };
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "demo", "--port", "0"],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    // A key hash in the environment is ignored: the demo makes a fresh key.
    env: { NO_COLOR: "1", EDITOR_KEY_HASH: "$argon2id$not-used" },
  }).spawn();
  let output = "";
  let errors = "";
  const pumps = Promise.all([child.stdout, child.stderr].map(async (stream) => {
    for await (const text of stream.pipeThrough(new TextDecoderStream())) {
      output += text;
      if (stream === child.stderr) errors += text;
    }
  }));
  let exited = false;
  const status = child.status.finally(() => exited = true);
  try {
    const deadline = Date.now() + 60_000;
    while (
      !/listening on http:\/\/\S+\/[\s\S]*Open http/.test(output) &&
      !exited && Date.now() < deadline
    ) await new Promise((resolve) => setTimeout(resolve, 50));
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output)?.[1];
    const key = /site key for this run is (\S+)/.exec(output)?.[1];
    const folder = /Demo site copied to (\S+)/.exec(output)?.[1];
    assert.ok(url && key && folder, output);
    assert.match(output, new RegExp(`Open ${url}en/\\?edit`));
    // What a person needs, the address and the key, on one stream.
    assert.match(
      errors,
      new RegExp(
        `Open ${url}en/\\?edit and log in: the site key for this run is ${key}\n`,
      ),
    );

    const home = await fetch(`${url}en/`);
    assert.equal(home.status, 200);
    assert.equal(home.headers.get("content-type"), "text/html; charset=utf-8");
    const html = await home.text();
    for (
      const part of [
        '<script type="module" src="/_inpage/loader.js"></script>',
        '<div class="page" data-inpage-page="src/content/pages/en/home.json" data-inpage-fields="/description">',
        '<meta name="description" content="Inpage Studio builds small static sites whose content is JSON in git, edited in place.">',
        '<nav class="pages" data-inpage-list="/nav"><a href="/en/" title="The home page" aria-current="page" data-inpage-item="/nav/0" data-inpage-link="/nav/0/link" data-inpage-text="/nav/0/text">Home</a>',
        '<h1 data-inpage-text="/title">Small sites, edited in place</h1>',
        'data-inpage-html="/lead"><p>This page is rendered from <strong>plain JSON</strong>',
        '<img data-inpage-image="/image" src="/images/hills-at-dawn-98c9ac741e4e.png" width="960" height="540" alt="Green hills under a rising sun">',
        '<div class="sections" data-inpage-list="/sections">',
        '<section class="card" id="rules" data-inpage-item="/sections/1">',
        '<h2 data-inpage-text="/sections/1/heading">',
        'data-inpage-html="/sections/1/body"><p>Rich text',
        '<a class="button" href="/en/about/" title="About this demo" data-inpage-link="/cta/link" data-inpage-text="/cta/text">Meet the team</a>',
        '<a href="/fr/" hreflang="fr" lang="fr" title="Français">FR</a>',
      ]
    ) assert.ok(html.includes(part), part);

    const root = await fetch(url, { redirect: "manual" });
    assert.equal(root.status, 302);
    assert.equal(root.headers.get("location"), "/en/");
    await root.body?.cancel();
    const about = await fetch(`${url}fr/about/`);
    assert.match(await about.text(), /<h1 data-inpage-text="\/title">À propos/);
    const css = await fetch(`${url}site.css`);
    assert.equal(css.headers.get("content-type"), "text/css; charset=utf-8");
    await css.body?.cancel();
    const image = await fetch(`${url}images/hills-at-dawn-98c9ac741e4e.png`);
    assert.equal(image.headers.get("content-type"), "image/png");
    assert.deepEqual(
      new Uint8Array(await image.arrayBuffer()),
      await Deno.readFile(
        join(EXAMPLE, "public/images/hills-at-dawn-98c9ac741e4e.png"),
      ),
    );
    for (const { path } of await overlayAssets()) {
      const answer: Response = await fetch(`${url}${path.slice(1)}`);
      assert.equal(answer.status, 200, path);
      assert.equal(answer.headers.get("content-encoding"), "br", path);
      assert.match(
        answer.headers.get("content-type") ?? "",
        /^text\/javascript/,
      );
      await answer.body?.cancel();
    }
    const hidden = await fetch(`${url}.git/config`);
    assert.equal(hidden.status, 404);
    await hidden.body?.cancel();

    // The routes, with the printed key: a publish shows on the next reload.
    const cookie = await logInOver(url, key);
    const path = "src/content/pages/en/home.json";
    const read = await fetch(`${url}api/content?path=${path}`, {
      headers: { cookie },
    });
    const { content, version } = await read.json();
    const page = JSON.parse(content);
    page.title = "Edited in place";
    await assertPublishedOver(url, cookie, {
      path,
      content: JSON.stringify(page),
      version,
      message: "Retitle the home page",
    });
    assert.match(
      await (await fetch(`${url}en/`)).text(),
      /<h1 data-inpage-text="\/title">Edited in place<\/h1>/,
    );
    assert.equal(
      (await git(folder, "log", "--format=%s")).trim(),
      "Retitle the home page\nExample site",
    );

    child.kill("SIGTERM");
    assert.equal((await status).code, 0);
    await pumps;
    await assert.rejects(() => Deno.stat(folder), Deno.errors.NotFound);
  } finally {
    if (!exited) child.kill("SIGKILL");
    await status;
    await pumps;
  }
  assert.deepEqual(
    { example: await tree(EXAMPLE), top: await topLevel() },
    before,
  );
});

Deno.test("the example site's renderer writes plain text escaped, rich text as HTML, link objects as attributes, and refuses a page that breaks the page rules", async () => {
  const { renderSite } = await import("../../examples/site/render.ts");
  const root = await Deno.makeTempDir({ prefix: "inpage-render-" });
  try {
    const page = (lang: string, name: string, content: unknown) =>
      Deno.mkdir(join(root, "src/content/pages", lang), { recursive: true })
        .then(() =>
          Deno.writeTextFile(
            join(root, "src/content/pages", lang, `${name}.json`),
            JSON.stringify(content),
          )
        );
    await page("en", "home", {
      title: "Fish & chips 'n' more",
      lead: "<p>Rich <em>text</em></p>",
      sections: [{ id: "a", heading: '"Quoted"', body: "<p>Body</p>" }],
      cta: { text: "Go", link: { href: "/en/about/", title: 'Say "hi"' } },
    });
    await page("en", "about", {
      sections: [{ id: "x", body: "<img src=x onerror=alert(1)>" }],
    });
    const get = (path: string) =>
      renderSite(new Request(`http://site.example${path}`), root);
    const home = await get("/en/");
    const html = await home!.text();
    assert.ok(
      html.includes(
        '<h1 data-inpage-text="/title">Fish &#38; chips &#39;n&#39; more</h1>',
      ),
    );
    assert.ok(
      html.includes('data-inpage-html="/lead"><p>Rich <em>text</em></p></div>'),
    );
    assert.ok(
      html.includes(
        '<h2 data-inpage-text="/sections/0/heading">&#34;Quoted&#34;',
      ),
    );
    assert.ok(
      html.includes(
        '<a class="button" href="/en/about/" title="Say &#34;hi&#34;" data-inpage-link="/cta/link" data-inpage-text="/cta/text">Go</a>',
      ),
    );
    // A file that fails the rules still renders, its rich text as text, so
    // that an editor can open it and fix it.
    const broken = await get("/en/about/");
    assert.equal(broken!.status, 200);
    const brokenHtml = await broken!.text();
    assert.ok(!brokenHtml.includes("<img src=x"));
    assert.ok(brokenHtml.includes("&#60;img src=x onerror=alert(1)&#62;"));
    assert.ok(brokenHtml.includes("This page fails the page rules"));
    const moved = await get("/en/about");
    assert.equal(moved!.status, 302);
    assert.equal(moved!.headers.get("location"), "/en/about/");
    await moved!.body?.cancel();
    assert.equal(await get("/en/missing/"), undefined);
    assert.equal(await get("/de/"), undefined);
    assert.equal(await get("/en/../../etc/passwd"), undefined);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
