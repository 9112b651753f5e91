/**
 * docs/deploy.md shows the tested recipes: every file it quotes is, byte for
 * byte, the file the host tests run; it has a section per host and quotes
 * each host's entry. The recipes themselves serve every route of the
 * package and the overlay's files.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROUTES } from "../lib/wire/names.ts";
import { recipeFlags } from "./support/deploy_entry.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const doc = await Deno.readTextFile(join(ROOT, "docs/deploy.md"));

/** Each "`path`:" followed by a fenced block in the doc, by path. */
function quoted(): Map<string, string> {
  const blocks = new Map<string, string>();
  // The path, any words up to the colon (no blank line), then the block.
  const pattern =
    /^`(examples\/[^`]+)`(?:(?!\n\n)[\s\S])*?:\n\n```\w+(?: ignore)?\n([\s\S]*?)^```$/gm;
  for (const [, path, body] of doc.matchAll(pattern)) {
    blocks.set(path!, body!);
  }
  return blocks;
}

const ENTRIES = {
  "Deno Deploy": [
    "examples/deno-deploy/main.ts",
    "examples/deno-deploy/deno.json",
  ],
  Netlify: [
    "examples/netlify/netlify/functions/editor.mjs",
    "examples/netlify/netlify.toml",
  ],
  Vercel: [
    "examples/vercel/api/_editor.js",
    "examples/vercel/api/_argon2_thread.js",
    "examples/vercel/api/auth.js",
    "examples/vercel/vercel.json",
  ],
  Cloudflare: [
    "examples/cloudflare/functions/_middleware.js",
    "examples/cloudflare/functions/_inpage/[[path]].js",
    "examples/cloudflare/functions/api/auth.js",
    "examples/cloudflare/functions/api/content.js",
  ],
  Node: ["examples/node/server.mjs", "examples/node/argon2_thread.mjs"],
  Bun: ["examples/bun/server.js", "examples/bun/argon2_worker.js"],
};

Deno.test("docs/deploy.md quotes every recipe file exactly as the host tests run it", async () => {
  const blocks = quoted();
  assert.ok(blocks.size >= 15, `only ${blocks.size} files quoted`);
  for (const [path, body] of blocks) {
    assert.equal(body, await Deno.readTextFile(join(ROOT, path)), path);
  }
});

Deno.test("docs/deploy.md has a section per host, each quoting its entry files", () => {
  const blocks = quoted();
  const headings = [...doc.matchAll(/^## (.+)$/gm)].map(([, title]) => title);
  for (const [host, files] of Object.entries(ENTRIES)) {
    assert.ok(headings.includes(host), `a section for ${host}`);
    const section = doc.slice(doc.indexOf(`\n## ${host}\n`));
    const end = section.indexOf("\n## ", 1);
    const text = end < 0 ? section : section.slice(0, end);
    for (const file of files) {
      assert.ok(blocks.has(file), `${file} is quoted`);
      assert.ok(text.includes(`\`${file}\``), `${file} is in ${host}`);
    }
  }
});

Deno.test("every recipe serves the overlay's files, and every route of the package has its file on Vercel and Cloudflare", async () => {
  for (
    const entry of [
      "examples/deno-deploy/main.ts",
      "examples/netlify/netlify/functions/editor.mjs",
      "examples/vercel/api/_editor.js",
      "examples/cloudflare/functions/_inpage/[[path]].js",
      "examples/node/server.mjs",
      "examples/bun/server.js",
    ]
  ) {
    const source = await Deno.readTextFile(join(ROOT, entry));
    assert.match(source, /serveOverlayAsset\(request\)/, entry);
  }
  for (const { path } of Object.values(ROUTES)) {
    const name = path.slice("/api/".length);
    // A route under another (/api/reviews/publish) is a file in a folder.
    const up = name.includes("/") ? "../" : "./";
    assert.equal(
      await Deno.readTextFile(join(ROOT, "examples/vercel/api", `${name}.js`)),
      `export { default } from "${up}_editor.js";\n`,
      `vercel ${path}`,
    );
    const pages = await Deno.readTextFile(
      join(ROOT, "examples/cloudflare/functions/api", `${name}.js`),
    );
    assert.match(pages, /export const onRequest/, `cloudflare ${path}`);
    const worker = await Deno.readTextFile(
      join(ROOT, "examples/cloudflare/pages_worker.js"),
    );
    const module = name.replace(/\/(\w)/g, (_, letter) => letter.toUpperCase());
    assert.ok(
      worker.includes(`"${path}": ${module},`),
      `pages_worker ${path}`,
    );
  }
  const rewrites = JSON.parse(
    await Deno.readTextFile(join(ROOT, "examples/vercel/vercel.json")),
  ).rewrites;
  assert.deepEqual(rewrites, [{
    source: "/_inpage/:file",
    destination: "/api/inpage",
  }]);
});

Deno.test("the Deno Deploy recipe's deno.json turns on KV and leaves dynamic imports until they run, and the tests run its entry with those flags", async () => {
  const folder = join(ROOT, "examples/deno-deploy");
  const config = JSON.parse(
    await Deno.readTextFile(join(folder, "deno.json")),
  );
  assert.deepEqual(config.unstable, ["kv", "cron", "lazy-dynamic-imports"]);
  assert.deepEqual(await recipeFlags(folder), [
    "--unstable-kv",
    "--unstable-cron",
    "--unstable-lazy-dynamic-imports",
  ]);
  assert.deepEqual(await recipeFlags(join(ROOT, "bench")), []);
});
