/**
 * The Bun recipe (examples/bun/server.js) as a real `bun` process on
 * loopback, over the neutral bundle and the GitHub double.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { hashKey } from "../../mod.ts";
import {
  github,
  githubVariables,
  KEY,
  prepareExample,
  readDuringLogin,
  startHost,
  temporaryFolder,
  walk,
} from "../support/hosts.ts";

const keyHash = hashKey(KEY);

Deno.test("bun: log in, read, publish, 409, upload, 429, log out, 401", async () => {
  const dir = await prepareExample("bun");
  await using double = github();
  // This walk keeps RATE_LIMIT in a SQLite file; the next test, in memory.
  await using store = await temporaryFolder();
  await using host = await startHost(
    join(dir, "node_modules/.bin/bun"),
    ["server.js"],
    dir,
    {
      PORT: "0",
      EDITOR_KV_PATH: join(store.path, "kv.sqlite3"),
      ...githubVariables(double, await keyHash),
    },
  );
  await walk(host.url, double);
  const lines = host.logLines();
  assert.ok(lines.every((line) => line.client !== undefined || line.message));
  assert.ok(!host.output().includes(double.token), "the token is never logged");
  assert.ok(
    !host.output().includes("warning:"),
    `no warning expected:\n${host.output()}`,
  );
});

Deno.test("bun: a read sent during a login is answered first (the key check runs in a Worker)", async () => {
  const dir = await prepareExample("bun");
  await using double = github();
  await using host = await startHost(
    join(dir, "node_modules/.bin/bun"),
    ["server.js"],
    dir,
    {
      PORT: "0",
      ...githubVariables(double, await keyHash),
    },
  );
  const { readMs, loginMs } = await readDuringLogin(host.url);
  console.log(
    `bun: read ${readMs.toFixed(1)} ms during a login of ${
      loginMs.toFixed(0)
    } ms`,
  );
});
