/**
 * `editor serve` killed with SIGKILL in the middle of publishes, again and
 * again: the page file is always whole (the last published page or the one
 * being published, never a mix), and once a server runs again over the same
 * checkout the work tree is clean, no temporary file is left, and
 * publishing works.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServeProcess } from "../support/cli.ts";
import { fastHash, logInOver } from "../support/helpers.ts";
import { gitHashObject, HOME, HOME_TEXT, tempSite } from "../support/site.ts";
import { STRESS } from "../support/runs.ts";

const KEY = "kill key";
const KILLS = STRESS ? 40 : 6;

/** A page of about 60 KB, so that writing it takes a moment. */
function page(n: number): string {
  return JSON.stringify(
    {
      title: `Version ${n}`,
      sections: Array.from({ length: 300 }, (_, i) => ({
        id: `s${i}`,
        body: `Section ${i} of version ${n}, some text to fill the file.`,
      })),
    },
    null,
    2,
  ) + "\n";
}

Deno.test("editor serve killed with SIGKILL mid-publish leaves a whole file, and after a restart a clean tree and no temporary file", async () => {
  await using site = await tempSite();
  const kvFolder = await Deno.makeTempDir({ prefix: "editor-kill-kv-" });
  const hash = await fastHash(KEY);
  // A KV of its own for each run keeps every run under its rate budgets.
  const args = (run: number) => [
    "--repo",
    site.root,
    "--port",
    "0",
    "--kv",
    join(kvFolder, `kv-${run}.sqlite3`),
  ];
  const written = new Set([HOME_TEXT]);
  let n = 0;
  try {
    for (let kill = 0; kill < KILLS; kill++) {
      const server = await startServeProcess(args(kill), {
        EDITOR_KEY_HASH: hash,
      });
      const cookie = await logInOver(server.url, KEY);
      // Publish in a loop from the file's current version until killed.
      const publishing = (async () => {
        for (;;) {
          const current = await Deno.readTextFile(join(site.root, HOME));
          const next = page(++n);
          written.add(next);
          try {
            const response = await fetch(`${server.url}api/save`, {
              method: "POST",
              headers: { "content-type": "application/json", cookie },
              body: JSON.stringify({
                path: HOME,
                content: next,
                version: await gitHashObject(current),
              }),
            });
            await response.body?.cancel();
          } catch {
            return; // the server is gone
          }
        }
      })();
      await new Promise((resolve) =>
        setTimeout(resolve, 150 + Math.random() * 250)
      );
      await server.stop("SIGKILL");
      await publishing;
      // A git started by the killed server finishes on its own.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const text = await Deno.readTextFile(join(site.root, HOME));
      assert.ok(written.has(text), "the file is one whole version");
    }
    // A server runs again: the tree is clean, nothing temporary is left.
    await using server = await startServeProcess(args(KILLS), {
      EDITOR_KEY_HASH: hash,
    });
    assert.equal(
      (await site.git("status", "--porcelain", "--untracked-files=all")).trim(),
      "",
    );
    const cookie = await logInOver(server.url, KEY);
    const current = await Deno.readTextFile(join(site.root, HOME));
    const response = await fetch(`${server.url}api/save`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({
        path: HOME,
        content: page(0),
        version: await gitHashObject(current),
      }),
    });
    assert.equal(response.status, 200);
    await response.body?.cancel();
    assert.equal(
      (await site.git("status", "--porcelain", "--untracked-files=all")).trim(),
      "",
    );
    assert.equal(await server.stop(), 0);
  } finally {
    await Deno.remove(kvFolder, { recursive: true });
  }
});
