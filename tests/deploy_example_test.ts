/**
 * The production entry point, examples/deno-deploy/main.ts, started for
 * real on a loopback port with GITHUB_API_URL pointing at the double.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { githubEnv, startGitHubDouble } from "./support/github_double.ts";
import { assertPublishedOver, fastHash, logInOver } from "./support/helpers.ts";
import { gitHashObject, HOME, HOME_TEXT } from "./support/site.ts";
import { startDeployEntry } from "./support/deploy_entry.ts";

const LISTENING = /Listening on (http:\/\/127\.0\.0\.1:\d+)\//;

Deno.test("the Deno Deploy entry point serves log in, read, publish and log out against GitHub", async () => {
  await using github = startGitHubDouble({ files: { [HOME]: HOME_TEXT } });
  const work = await Deno.makeTempDir({ prefix: "editor-deploy-" });
  const key = "deploy key";
  try {
    await using running = await startDeployEntry(
      "examples/deno-deploy/main.ts",
      {
        PORT: "0",
        HOSTNAME: "127.0.0.1",
        EDITOR_KV_PATH: join(work, "kv.sqlite3"),
        EDITOR_KEY_HASH: await fastHash(key),
        ...githubEnv(github),
      },
      (out, err) => LISTENING.test(out + err),
    );
    const url = LISTENING.exec(running.out + running.err)?.[1];
    const cookie = await logInOver(url!, key);
    const read = await fetch(`${url}/api/content?path=${HOME}`, {
      headers: { cookie },
    });
    assert.deepEqual(await read.json(), {
      content: HOME_TEXT,
      version: await gitHashObject(HOME_TEXT),
    });
    await assertPublishedOver(url!, cookie, {
      path: HOME,
      content: '{"title":"Deployed"}',
      version: await gitHashObject(HOME_TEXT),
    });
    assert.equal(
      new TextDecoder().decode(github.files.get(HOME)),
      '{\n  "title": "Deployed"\n}\n',
    );
    const logout = await fetch(`${url}/api/auth`, {
      method: "DELETE",
      headers: { cookie },
    });
    assert.equal(logout.status, 200);
    await logout.body?.cancel();
    const after = await fetch(`${url}/api/content?path=${HOME}`, {
      headers: { cookie },
    });
    assert.equal(after.status, 401);
    await after.body?.cancel();
    const lines = running.out.split("\n").filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line));
    // One line per request, and one per GitHub call with its budget left.
    assert.deepEqual(
      lines.filter((line) => "route" in line).map((line) => line.status),
      [200, 200, 200, 200, 401],
    );
    // (The read after the log-out may reach GitHub while its session is
    // checked, as reads do: it is answered 401 all the same.)
    const calls = lines.filter((line) => "github" in line);
    assert.deepEqual(
      calls.slice(0, 2).map((line) =>
        `${line.github.split(" ")[0]} ${line.status}`
      ),
      ["GET 200", "PUT 200"],
    );
    assert.ok(calls.every((line) => Number.isInteger(line.remaining)));
    assert.ok(
      !(running.out + running.err).includes(github.token),
      "the token is never logged",
    );
  } finally {
    await Deno.remove(work, { recursive: true });
  }
});
