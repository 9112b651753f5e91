/**
 * The Cloudflare recipe (examples/cloudflare: Pages Functions files, the
 * Durable Object RATE_LIMIT, precompiled argon2) in workerd, started by
 * Miniflare as a real process on loopback, over the neutral build and
 * the GitHub double.
 */
import assert from "node:assert/strict";
import { hashKey } from "../../mod.ts";
import {
  assertServesOverlay,
  github,
  githubVariables,
  KEY,
  prepareExample,
  startHost,
  walk,
} from "../support/hosts.ts";

const keyHash = hashKey(KEY);

async function start(double: ReturnType<typeof github>) {
  const dir = await prepareExample("cloudflare");
  return await startHost("node", ["serve.mjs"], dir, {
    PORT: "0",
    EDITOR_CLIENT_IP_HEADER: "CF-Connecting-IP",
    ...githubVariables(double, await keyHash),
  });
}

Deno.test("workerd: log in, read, publish, 409, upload, 429, log out, 401, then the overlay's loader and entry", async () => {
  await using double = github();
  await using host = await start(double);
  await walk(host.url, double);
  await assertServesOverlay(host.url, { recoded: true });
  assert.ok(!host.output().includes(double.token), "the token is never logged");
  assert.ok(!host.output().includes("warning:"), host.output());
});

Deno.test("workerd: the Durable Object keeps the login budget exact under concurrent attempts", async () => {
  await using double = github();
  await using host = await start(double);
  const statuses = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      fetch(`${host.url}/api/auth`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ key: `wrong ${i}` }),
      }).then(async (response) => {
        await response.body?.cancel();
        return response.status;
      })),
  );
  assert.deepEqual(statuses.toSorted(), [
    401,
    401,
    401,
    401,
    401,
    429,
    429,
    429,
  ]);
});
