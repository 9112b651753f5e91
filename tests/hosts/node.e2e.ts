/**
 * The Node recipe (examples/node/server.mjs) as a real `node` process on
 * loopback, over the neutral bundle and the GitHub double.
 */
import {
  readDuringLoginOf,
  type Recipe,
  walkRecipe,
} from "../support/hosts.ts";

const NODE: Recipe = {
  example: "node",
  program: () => "node",
  args: ["server.mjs"],
};

Deno.test("node: log in, read, publish, 409, upload, 429, log out, 401, then the overlay's loader and entry", async () => {
  await walkRecipe(NODE);
});

Deno.test("node: a read sent during a login is answered first (the key check runs in a worker thread)", async () => {
  await readDuringLoginOf(NODE);
});
