/**
 * The two Deno Deploy entries (examples/deno-deploy/main.ts and
 * examples/astro/deploy.ts), started for real without their GitHub
 * variables: one line at start-up names them, never a value.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startDeployEntry } from "./support/deploy_entry.ts";

const LINE =
  "@inpage/editor: missing or invalid variables: EDITOR_KEY_HASH, GITHUB_TOKEN, EDITOR_PREVIEW_SECRET (until they are set, every login is refused as a wrong key; reads, publishes and uploads answer 502 unavailable; preview links of reviews cannot be made or opened)\n";

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
  try {
    await using running = await startDeployEntry(
      entry,
      {
        ...passThrough("PATH", "HOME", "DENO_DIR"),
        PORT: "0",
        HOSTNAME: "127.0.0.1",
        EDITOR_KV_PATH: join(work, "kv.sqlite3"),
        EDITOR_KEY_HASH: "plaintext-not-a-hash",
        GITHUB_REPOSITORY: "octo/site",
        SITE_DIR: work,
      },
      (out, err) => out.includes("Listening on") && err.endsWith("\n"),
      true,
    );
    return { out: running.out, err: running.err };
  } finally {
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
