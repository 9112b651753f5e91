/**
 * The Bun recipe (examples/bun/server.js) as a real `bun` process on
 * loopback, over the neutral bundle and the GitHub double.
 */
import { join } from "node:path";
import {
  readDuringLoginOf,
  type Recipe,
  walkRecipe,
} from "../support/hosts.ts";

const BUN: Recipe = {
  example: "bun",
  program: (dir) => join(dir, "node_modules/.bin/bun"),
  args: ["server.js"],
};

Deno.test("bun: log in, read, publish, 409, upload, 429, log out, 401, then the overlay's loader and entry", async () => {
  await walkRecipe(BUN);
});

Deno.test("bun: a read sent during a login is answered first (the key check runs in a Worker)", async () => {
  await readDuringLoginOf(BUN);
});
