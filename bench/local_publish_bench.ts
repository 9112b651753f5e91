/**
 * A publish to a local checkout, as `editor serve` makes it: the path
 * checks, the version check, the note of the publish under way, the file
 * written in place through a temporary file, and the commit of that path
 * alone (git runs in its own processes; their time counts). The baseline,
 * in the same run: the same file written with `Deno.writeTextFile` and
 * committed by one `git commit --only`, the least a commit of one path
 * costs. Each git process is a fork and an exec, which a busy machine
 * delays, so the ratio is mostly how many git processes a publish runs.
 *
 * Run: deno bench -A bench/local_publish_bench.ts
 */

import { join } from "node:path";
import { gitBlobSha } from "../mod.ts";
import { openLocalCheckout } from "../lib/repository/local/mod.ts";
import { commitInitial, gitIn } from "../tests/support/git.ts";

const PAGE = "src/content/pages/en/home.json";

/** A git repository with one committed page, removed at the end. */
async function repository(): Promise<string> {
  const root = await Deno.realPath(
    await Deno.makeTempDir({ prefix: "editor-publish-bench-" }),
  );
  await Deno.mkdir(join(root, "src/content/pages/en"), { recursive: true });
  await Deno.writeTextFile(join(root, PAGE), "{}\n");
  await commitInitial(gitIn(root), "Bench", "bench@localhost");
  return root;
}

const plain = await repository();
const checked = await repository();
const checkout = await openLocalCheckout({ root: checked });
let version = gitBlobSha(new TextEncoder().encode("{}\n"));
let n = 0;

Deno.bench({
  name: "the file written, then one git commit --only of it",
  group: "local-publish",
  baseline: true,
  async fn() {
    await Deno.writeTextFile(join(plain, PAGE), `{"n":${++n}}\n`);
    const { success } = await new Deno.Command("git", {
      args: ["-C", plain, "commit", "--only", "--quiet", "-m", `n ${n}`, PAGE],
      stdout: "null",
      stderr: "null",
    }).output();
    if (!success) throw new Error("git commit failed");
  },
});

Deno.bench({
  name: "a publish to the local checkout (checks, note, file, commit)",
  group: "local-publish",
  async fn() {
    version = await checkout.write(
      PAGE,
      new TextEncoder().encode(`{"n":${++n}}\n`),
      version,
      `n ${n}`,
    );
  },
});

globalThis.addEventListener("unload", () => {
  Deno.removeSync(plain, { recursive: true });
  Deno.removeSync(checked, { recursive: true });
});
