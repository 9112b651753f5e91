/**
 * `deno task astro-demo` for real: it copies the Astro example to a
 * temporary git repository, installs its packages, starts `astro dev` behind
 * `editor serve --proxy`, prints the URL and a key that logs in, and removes
 * the folder on Ctrl-C (SIGINT).
 *
 * Slow (npm install, astro dev): run by `deno task test-astro`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { PACKAGE_ROOT, spawnUntil } from "../../examples/astro/demo.ts";

Deno.test("deno task astro-demo prints a URL and a key that work, and cleans up on Ctrl-C", async () => {
  const demo = await spawnUntil(
    ["run", "-A", join(PACKAGE_ROOT, "examples/astro/demo.ts"), "--port", "0"],
    {
      cwd: PACKAGE_ROOT,
      ready: /Open:\s+(http:\/\/127\.0\.0\.1:\d+\/)en\/\?edit/,
      timeoutMs: 120_000,
    },
  );
  let stopped = false;
  try {
    const output = demo.output();
    const key = /Site key:\s+(\S+)/.exec(output)?.[1];
    const root = /Repository:\s+(\S+)/.exec(output)?.[1];
    assert.ok(key && root, output);
    assert.equal(
      (await Deno.stat(join(root, ".git"))).isDirectory,
      true,
    );
    // The page from astro dev, the loader and the routes: one origin.
    const page = await fetch(demo.url + "en/");
    assert.equal(page.status, 200);
    assert.match(
      await page.text(),
      /data-inpage-page="src\/content\/pages\/en\/home\.json"/,
    );
    const loader = await fetch(demo.url + "_inpage/loader.js");
    assert.equal(loader.status, 200);
    await loader.body?.cancel();
    const login = await fetch(demo.url + "api/auth", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key }),
    });
    assert.equal(login.status, 200);
    await login.body?.cancel();
    // Ctrl-C: both servers stop and the folder goes.
    await demo.stop("SIGINT");
    stopped = true;
    assert.equal(await Deno.stat(root).catch(() => undefined), undefined);
  } finally {
    if (!stopped) await demo.stop();
  }
});
