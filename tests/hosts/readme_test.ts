/**
 * docs/deploy.md shows the tested recipes for other hosts: each entry file
 * there is byte for byte the file the host tests run. The recipes, kept out
 * of the project's Deno config (they belong to other runtimes), still pass
 * `deno fmt` and `deno lint`; the Cloudflare recipe extracts the WebAssembly
 * of the hash-wasm version the package imports.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "../support/hosts.ts";

const ENTRY_FILES = [
  "examples/node/server.mjs",
  "examples/node/argon2_thread.mjs",
  "examples/bun/server.js",
  "examples/bun/argon2_worker.js",
  "examples/cloudflare/functions/_middleware.js",
  "examples/cloudflare/functions/api/auth.js",
  "examples/cloudflare/functions/api/content.js",
  "examples/cloudflare/functions/api/save.js",
  "examples/cloudflare/functions/api/upload.js",
];

const RECIPE_FILES = [
  ...ENTRY_FILES,
  "examples/cloudflare/functions/_inpage/[[path]].js",
  "examples/cloudflare/functions/api/session.js",
  "examples/cloudflare/functions/api/history.js",
  "examples/cloudflare/rate_limit_object.js",
  "examples/cloudflare/pages_worker.js",
  "examples/cloudflare/serve.mjs",
  "examples/cloudflare/extract_wasm.mjs",
  "examples/netlify/netlify/functions/editor.mjs",
  "examples/netlify/serve.mjs",
  "examples/vercel/api/_editor.js",
  "examples/vercel/api/_argon2_thread.js",
  "examples/vercel/api/auth.js",
  "examples/vercel/serve.mjs",
];

const deploy = await Deno.readTextFile(join(ROOT, "docs/deploy.md"));

Deno.test("Deploy's other hosts hold every host's entry files exactly as tested", async () => {
  const start = deploy.indexOf("\n## Other hosts\n");
  assert.ok(start >= 0, "docs/deploy.md has an Other hosts section");
  const hosts = deploy.slice(start);
  for (const path of ENTRY_FILES) {
    const file = await Deno.readTextFile(join(ROOT, path));
    const start = hosts.indexOf(`\`${path}\`:\n\n\`\`\`js ignore\n`);
    assert.ok(start >= 0, `Deploy's Other hosts show ${path}`);
    const body = hosts.slice(
      hosts.indexOf("\n", hosts.indexOf("```", start)) + 1,
    );
    assert.equal(body.slice(0, body.indexOf("```")), file, path);
  }
  assert.match(hosts, /npx jsr add @inpage\/editor/);
});

Deno.test("the recipes for other runtimes pass deno fmt and deno lint", async () => {
  for (const command of [["fmt", "--check"], ["lint"]]) {
    const { success, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [...command, "--no-config", ...RECIPE_FILES],
      cwd: ROOT,
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.ok(success, new TextDecoder().decode(stderr));
  }
});

Deno.test("the Cloudflare recipe pins the hash-wasm the package imports, and the host packages exactly", async () => {
  const deno = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  const pinned = (deno.imports["hash-wasm"] as string).replace(
    "npm:hash-wasm@",
    "",
  );
  const examples = ["node", "bun", "cloudflare", "netlify", "vercel"];
  for (const example of examples) {
    const manifest = JSON.parse(
      await Deno.readTextFile(join(ROOT, "examples", example, "package.json")),
    );
    const all = { ...manifest.dependencies, ...manifest.devDependencies };
    for (const [name, version] of Object.entries(all)) {
      assert.match(version as string, /^\d+\.\d+\.\d+$/, `${example}: ${name}`);
    }
    if (example === "cloudflare") assert.equal(all["hash-wasm"], pinned);
  }
});
