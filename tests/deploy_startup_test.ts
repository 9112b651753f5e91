/**
 * The two Deno Deploy entries (examples/deno-deploy/main.ts and
 * examples/astro/deploy.ts), started for real without their GitHub
 * variables: one line at start-up names them, never a value.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "./support/cli.ts";

const LINE =
  "@inpage/editor: missing or invalid variables: EDITOR_KEY_HASH, GITHUB_TOKEN (until they are set, every login is refused as a wrong key; reads, publishes and uploads answer 502 unavailable)\n";

/** The named variables of this process that are set. */
function passThrough(...names: string[]): Record<string, string> {
  return Object.fromEntries(
    names.flatMap((name) => {
      const value = Deno.env.get(name);
      return value === undefined ? [] : [[name, value]];
    }),
  );
}

async function startUp(entry: string): Promise<{ out: string; err: string }> {
  const work = await Deno.makeTempDir({ prefix: "editor-deploy-start-" });
  const child = new Deno.Command(Deno.execPath(), {
    // The package's own deno.json: the examples map @inpage/editor to JSR.
    args: ["run", "-A", "--quiet", "--config", "deno.json", entry],
    cwd: ROOT,
    clearEnv: true,
    env: {
      NO_COLOR: "1",
      ...passThrough("PATH", "HOME", "DENO_DIR"),
      PORT: "0",
      HOSTNAME: "127.0.0.1",
      EDITOR_KV_PATH: join(work, "kv.sqlite3"),
      EDITOR_KEY_HASH: "plaintext-not-a-hash",
      GITHUB_REPOSITORY: "octo/site",
      SITE_DIR: work,
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let out = "";
  let err = "";
  const pumps = Promise.all([
    (async () => {
      for await (
        const chunk of child.stdout.pipeThrough(new TextDecoderStream())
      ) out += chunk;
    })(),
    (async () => {
      for await (
        const chunk of child.stderr.pipeThrough(new TextDecoderStream())
      ) err += chunk;
    })(),
  ]);
  try {
    const deadline = Date.now() + 30_000;
    while (!(out.includes("Listening on") && err.endsWith("\n"))) {
      assert.ok(
        Date.now() < deadline,
        `${entry} did not start: ${out}\n${err}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { out, err };
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await pumps;
    await Deno.remove(work, { recursive: true });
  }
}

for (
  const entry of ["examples/deno-deploy/main.ts", "examples/astro/deploy.ts"]
) {
  Deno.test(`${entry} names its missing variables once at start-up, never a value`, async () => {
    const { out, err } = await startUp(entry);
    assert.equal(err, LINE);
    assert.match(out, /^Listening on http:\/\/127\.0\.0\.1:\d+\/\n$/);
    assert.ok(!err.includes("plaintext-not-a-hash"));
    assert.ok(!err.includes("octo/site"));
  });
}
