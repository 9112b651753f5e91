/**
 * A framework demo run for real (`deno task astro-demo`, `eleventy-demo`,
 * `hugo-demo`): it prints a URL and a key; the page from the dev server,
 * the loader and the routes answer on that one origin; the key logs in; a
 * publish is checked by the site's rules; Ctrl-C stops both servers and
 * removes the folder.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { PACKAGE_ROOT, spawnUntil } from "../../examples/dev_servers.ts";

/** What a demo run is checked against. */
export interface DemoCheck {
  /** The demo's script, from the repository's root. */
  script: string;
  /** The page file the English home's container names. */
  home: string;
  /**
   * A page whose publish the site refuses, with the answer's `at` and
   * `reason`: the demo's editor runs with the site's rules.
   */
  refused?: { content: unknown; at: string; reason: string };
}

/**
 * Runs a demo and checks it end to end.
 *
 * @param check the demo and what its site holds
 */
export async function checkDemo(check: DemoCheck): Promise<void> {
  const demo = await spawnUntil(
    ["run", "-A", join(PACKAGE_ROOT, check.script), "--port", "0"],
    {
      cwd: PACKAGE_ROOT,
      ready: /Open:\s+(http:\/\/127\.0\.0\.1:\d+\/)en\/\?edit/,
      timeoutMs: 180_000,
    },
  );
  let stopped = false;
  try {
    const output = demo.output();
    const key = /Site key:\s+(\S+)/.exec(output)?.[1];
    const root = /Repository:\s+(\S+)/.exec(output)?.[1];
    assert.ok(key && root, output);
    assert.equal((await Deno.stat(join(root, ".git"))).isDirectory, true);
    // The page from the dev server, the loader and the routes: one origin.
    const page = await fetch(demo.url + "en/");
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.ok(html.includes(`data-inpage-page="${check.home}"`), html);
    assert.ok(html.includes('src="/_inpage/loader.js"'), html);
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
    if (check.refused) {
      const cookie = login.headers.getSetCookie().map((c) => c.split(";")[0])
        .join("; ");
      const read = await fetch(
        `${demo.url}api/content?path=${encodeURIComponent(check.home)}`,
        { headers: { cookie } },
      );
      const { version } = await read.json();
      const save = await fetch(demo.url + "api/save", {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({
          path: check.home,
          content: JSON.stringify(check.refused.content),
          version,
        }),
      });
      assert.equal(save.status, 422);
      const body = await save.json();
      assert.equal(body.at, check.refused.at);
      assert.equal(body.reason, check.refused.reason);
    }
    // Ctrl-C: both servers stop and the folder goes.
    await demo.stop("SIGINT");
    stopped = true;
    assert.equal(await Deno.stat(root).catch(() => undefined), undefined);
  } finally {
    if (!stopped) await demo.stop();
  }
}
