/**
 * A page's history answer in a local checkout whose page has 1,000 commits:
 * `GET /api/history` through `router.handle` with a session (the rate
 * window and session in KV, the path rule, `git log --follow` for 30
 * entries, the answer as JSON), and the checkout's `history` alone; and the
 * last page (the oldest 30, by `before`). The baseline, in the same run:
 * `git log --follow -n 30` alone for the same page, one process as the
 * history runs.
 *
 * Run: deno bench -A bench/history_bench.ts
 */

import { createRouter } from "../mod.ts";
import { openLocalCheckout } from "../lib/repository/local/mod.ts";
import { gitIn } from "../tests/support/git.ts";
import { fastHash, from, login, testEnv } from "../tests/support/helpers.ts";

const PAGE = "src/content/pages/en/home.json";
const COMMITS = 1_000;
const KEY = "bench key";

/** A repository whose page has 1,000 commits (by `git fast-import`). */
async function repository(): Promise<string> {
  const root = await Deno.realPath(
    await Deno.makeTempDir({ prefix: "editor-history-bench-" }),
  );
  const git = gitIn(root);
  await git("init", "--quiet", "--initial-branch=main");
  const lines: string[] = [];
  for (let n = 1; n <= COMMITS; n++) {
    const content = JSON.stringify({ title: `Title ${n}`, n }, null, 2) + "\n";
    const message = `Publish ${n}`;
    const who = n % 2
      ? "Alice Martin <alice@example.com>"
      : "Bob Stone <bob@example.com>";
    const time = 1_764_000_000 + n * 60;
    lines.push(
      "commit refs/heads/main",
      `author ${who} ${time} +0000`,
      `committer Bench <bench@localhost> ${time} +0000`,
      `data ${new TextEncoder().encode(message).byteLength}`,
      message,
      `M 100644 inline ${PAGE}`,
      `data ${new TextEncoder().encode(content).byteLength}`,
      content.slice(0, -1),
      "",
      // An unrelated commit after every third: the log must skip them.
      ...(n % 3 === 0
        ? [
          "commit refs/heads/main",
          `author Bench <bench@localhost> ${time + 30} +0000`,
          `committer Bench <bench@localhost> ${time + 30} +0000`,
          "data 9",
          "Unrelated",
          `M 100644 inline src/content/pages/en/other.json`,
          `data ${`{"n": ${n}}`.length}`,
          `{"n": ${n}}`,
        ]
        : []),
      "",
    );
  }
  const child = new Deno.Command("git", {
    args: ["-C", root, "fast-import", "--quiet"],
    stdin: "piped",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(lines.join("\n") + "\n"));
  await writer.close();
  const { success, stderr } = await child.output();
  if (!success) throw new Error(new TextDecoder().decode(stderr));
  await git("checkout", "--quiet", "main");
  return root;
}

const root = await repository();
const checkout = await openLocalCheckout({ root });
const kv = await Deno.openKv(":memory:");
const router = createRouter({ locales: ["en"] });
const env = testEnv(kv, {
  EDITOR_KEY_HASH: await fastHash(KEY),
  REPOSITORY: checkout,
  EDITOR_LOG: () => {},
});
const cookie = await login(router.handle, env, KEY);
const oldest = (await gitIn(root)("log", "--format=%H", "--", PAGE))
  .trim().split("\n");
if (oldest.length !== COMMITS) throw new Error("the page lacks commits");
const lastBefore = oldest[COMMITS - 31]!;
let client = 0;

async function historyOver(before?: string): Promise<void> {
  // A client of its own each time: the 60-read budget is not what is measured.
  client++;
  const response = await router.handle(
    new Request(
      `https://site.example/api/history?path=${PAGE}${
        before ? `&before=${before}` : ""
      }`,
      { headers: { cookie } },
    ),
    env,
    from(`10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`),
  );
  const body = await response.json();
  if (response.status !== 200 || body.entries.length !== 30) {
    throw new Error(`history answered ${response.status}`);
  }
}

Deno.bench({
  name: "git log --follow -n 30 alone",
  group: "history",
  baseline: true,
  async fn() {
    const { success } = await new Deno.Command("git", {
      args: [
        "-C",
        root,
        "log",
        "--follow",
        "-n",
        "30",
        "--",
        PAGE,
      ],
      stdout: "piped",
      stderr: "null",
    }).output();
    if (!success) throw new Error("git log failed");
  },
});

Deno.bench({
  name: "the checkout's history (30 entries)",
  group: "history",
  async fn() {
    await checkout.history(PAGE, { limit: 30 });
  },
});

Deno.bench({
  name: "GET /api/history through router.handle (newest 30)",
  group: "history",
  async fn() {
    await historyOver();
  },
});

Deno.bench({
  name: "GET /api/history through router.handle (oldest 30, before=…)",
  group: "history",
  async fn() {
    await historyOver(lastBefore);
  },
});

globalThis.addEventListener("unload", () => {
  kv.close();
  Deno.removeSync(root, { recursive: true });
});
