/**
 * The Vercel recipe (examples/vercel: Vercel Functions with a Web handler,
 * one file per route, the overlay through a rewrite, over Redis) served as
 * Vercel serves a project without a framework (examples/vercel/serve.mjs:
 * Vercel's own `vercel dev` needs an account), as a real process on
 * loopback, over the neutral build, the GitHub double and a real
 * redis-server. Vercel's own servers are not run here.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROUTES } from "../../lib/wire/names.ts";
import {
  readDuringLoginOf,
  type Recipe,
  ROOT,
  twoInstancesOf,
  walkRecipe,
} from "../support/hosts.ts";

const VERCEL: Recipe = {
  example: "vercel",
  program: () => "node",
  args: ["serve.mjs"],
  store: "redis",
};

Deno.test("vercel: log in, read, publish, 409, upload, 429, log out, 401, then the overlay's loader and entry, over Redis", async () => {
  await walkRecipe(VERCEL);
});

Deno.test("vercel: two instances on one Redis share sessions and the login budget", async () => {
  await twoInstancesOf(VERCEL);
});

Deno.test("vercel: a read sent during a login is answered first (the key check runs in a worker thread)", async () => {
  await readDuringLoginOf(VERCEL);
});

Deno.test("vercel: every route of the package has its function file, and each is the shared handler", async () => {
  for (const { path } of Object.values(ROUTES)) {
    const file = join(ROOT, "examples/vercel", `${path}.js`);
    // A route under another (/api/reviews/publish) is a file in a folder.
    const up = path.split("/").length > 3 ? "../" : "./";
    assert.equal(
      await Deno.readTextFile(file),
      `export { default } from "${up}_editor.js";\n`,
      path,
    );
  }
});
