/**
 * The local checkout under faults, through the router: a full disk (a small
 * tmpfs), a read-only folder (the tmpfs remounted read-only), git missing
 * from PATH, and a lock left by a killed process. Each fault gets the
 * documented answer (502 `unavailable`) within a bounded time, leaves the
 * old file whole, no temporary file and a clean work tree, and the next
 * publish once the fault is gone is served.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRouter, gitBlobSha } from "../../mod.ts";
import { openLocalCheckout } from "../../lib/repository/local/mod.ts";
import { answer, from, postJson, signedInEnv } from "../support/helpers.ts";
import { HOME, HOME_TEXT, tempSite } from "../support/site.ts";

const router = createRouter({ locales: ["en", "fr"] });
const KEY = "faults key";

async function run(program: string, ...args: string[]): Promise<boolean> {
  try {
    const { success } = await new Deno.Command(program, {
      args,
      stdout: "null",
      stderr: "null",
    }).output();
    return success;
  } catch {
    return false;
  }
}

/** Whether this machine lets the test mount a tmpfs (root on Linux). */
async function canMount(): Promise<boolean> {
  if (Deno.build.os !== "linux") return false;
  const folder = await Deno.makeTempDir();
  const ok = await run(
    "mount",
    "-t",
    "tmpfs",
    "-o",
    "size=64k",
    "tmpfs",
    folder,
  );
  if (ok) await run("umount", folder);
  await Deno.remove(folder);
  return ok;
}

const MOUNT = await canMount();

/** A page of about `bytes` bytes once written. */
function pageOf(bytes: number, title: string): string {
  return JSON.stringify({ title, body: "x".repeat(bytes) });
}

/** What {@linkcode signedIn} gives. */
type SignedIn = Awaited<ReturnType<typeof signedIn>>;

/** A signed-in router env over a checkout at `root`. */
async function signedIn(root: string) {
  const kv = await Deno.openKv(":memory:");
  const { env, cookie } = await signedInEnv(router, kv, KEY, {
    REPOSITORY: await openLocalCheckout({ root }),
  });
  let n = 0;
  const git = async (...args: string[]) =>
    new TextDecoder().decode(
      (await new Deno.Command("git", { args: ["-C", root, ...args] }).output())
        .stdout,
    );
  return {
    env,
    git,
    /** Publishes over the current file; status, body and milliseconds. */
    async publish(content: string) {
      const current = await Deno.readFile(join(root, HOME));
      const started = performance.now();
      const response = await router.handle(
        postJson("/api/save", {
          path: HOME,
          content,
          version: await gitBlobSha(current),
        }, { cookie }),
        env,
        from(`10.77.0.${n++}`),
      );
      const { status, body } = await answer(response);
      return { status, body, ms: performance.now() - started };
    },
    /** Asserts the file is `text`, the tree clean and nothing temporary. */
    async assertWhole(text: string) {
      assert.equal(await Deno.readTextFile(join(root, HOME)), text);
      assert.equal(
        (await git("status", "--porcelain", "--untracked-files=all")).trim(),
        "",
      );
    },
    close: () => kv.close(),
  };
}

/** Asserts a publish answered 502 `unavailable` within a bounded time. */
function assertUnavailable(
  answer: { status: number; body: unknown; ms: number },
): void {
  assert.equal(answer.status, 502);
  assert.deepEqual(answer.body, { error: "unavailable" });
  assert.ok(answer.ms < 5_000, `${answer.ms} ms`);
}

/** A copy of a test site on a tmpfs of `size`, unmounted when disposed. */
async function siteOnTmpfs(size: string) {
  const site = await tempSite();
  const mount = await Deno.makeTempDir({ prefix: "editor-tmpfs-" });
  assert.ok(
    await run("mount", "-t", "tmpfs", "-o", `size=${size}`, "tmpfs", mount),
  );
  assert.ok(await run("cp", "-a", `${site.root}/.`, mount));
  await site[Symbol.asyncDispose]();
  return {
    root: mount,
    async [Symbol.asyncDispose]() {
      await run("umount", mount);
      await Deno.remove(mount, { recursive: true });
    },
  };
}

/**
 * A test signed in over a site copied to a tmpfs of `size` (skipped where
 * the test may not mount one).
 */
function testOnTmpfs(
  name: string,
  size: string,
  body: (s: SignedIn, root: string) => Promise<void>,
): void {
  Deno.test({
    name,
    ignore: !MOUNT,
    async fn() {
      await using disk = await siteOnTmpfs(size);
      const s = await signedIn(disk.root);
      try {
        await body(s, disk.root);
      } finally {
        s.close();
      }
    },
  });
}

testOnTmpfs(
  "a full disk answers 502 unavailable, leaves the old file whole and nothing temporary; once space is back the publish is served",
  "400k",
  async (s, root) => {
    // Fill the disk but about 30 KB.
    const free = Number(
      new TextDecoder().decode(
        (await new Deno.Command("df", {
          args: ["--output=avail", "-B1", root],
          stdout: "piped",
        }).output()).stdout,
      ).trim().split("\n")[1] ?? "0",
    );
    await Deno.writeFile(
      join(root, "filler"),
      new Uint8Array(Math.max(0, free - 30_000)),
    );
    await s.git("add", "filler");
    await s.git("commit", "-qm", "Filler");
    const full = await s.publish(pageOf(60_000, "Too big for the disk"));
    assertUnavailable(full);
    await s.assertWhole(HOME_TEXT);
    await s.git("rm", "-q", "filler");
    await s.git("commit", "-qm", "Room");
    await s.git("gc", "--prune=now", "-q");
    const next = await s.publish(pageOf(60_000, "Fits now"));
    assert.equal(next.status, 200, JSON.stringify(next.body));
    await s.assertWhole(
      JSON.stringify(JSON.parse(pageOf(60_000, "Fits now")), null, 2) + "\n",
    );
  },
);

testOnTmpfs(
  "a read-only folder answers 502 unavailable and writes nothing; writable again, the publish is served",
  "2m",
  async (s, root) => {
    assert.ok(await run("mount", "-o", "remount,ro", root));
    const refused = await s.publish(pageOf(100, "Read-only"));
    assertUnavailable(refused);
    await s.assertWhole(HOME_TEXT);
    assert.ok(await run("mount", "-o", "remount,rw", root));
    const next = await s.publish(pageOf(100, "Writable"));
    assert.equal(next.status, 200);
  },
);

Deno.test("git missing from PATH answers 502 unavailable, restores the file and the index; with git back the publish is served", async () => {
  await using site = await tempSite();
  const s = await signedIn(site.root);
  const path = Deno.env.get("PATH") ?? "";
  try {
    Deno.env.set("PATH", "/nonexistent");
    const refused = await s.publish(pageOf(100, "No git"));
    Deno.env.set("PATH", path);
    assertUnavailable(refused);
    await s.assertWhole(HOME_TEXT);
    assert.equal(await site.commitCount(), 1);
    const next = await s.publish(pageOf(100, "Git is back"));
    assert.equal(next.status, 200);
    assert.equal(await site.commitCount(), 2);
  } finally {
    Deno.env.set("PATH", path);
    s.close();
  }
});

Deno.test("a lock left by a killed process does not block the next publish", async () => {
  await using site = await tempSite();
  const s = await signedIn(site.root);
  try {
    const lockFile = join(site.root, ".git", "inpage-editor.lock");
    const holder = new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `const f = await Deno.open(${
          JSON.stringify(lockFile)
        }, { read: true, write: true, create: true });
        await f.lock(true);
        console.log("locked");
        await new Promise(() => {});`,
      ],
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const reader = holder.stdout.pipeThrough(new TextDecoderStream())
      .getReader();
    assert.match((await reader.read()).value ?? "", /locked/);
    holder.kill("SIGKILL");
    await holder.status;
    await reader.cancel();
    const next = await s.publish(pageOf(100, "After the kill"));
    assert.equal(next.status, 200);
    assert.ok(next.ms < 2_000, `${next.ms} ms`);
    await s.assertWhole(
      JSON.stringify(JSON.parse(pageOf(100, "After the kill")), null, 2) +
        "\n",
    );
  } finally {
    s.close();
  }
});

Deno.test("a note of a publish cut short while being written (a kill before the file changed) is cleared when the checkout opens; the file stays and the next publish is served", async () => {
  await using site = await tempSite();
  const note = join(site.root, ".git", "inpage-editor.pending");
  const whole = JSON.stringify({ path: HOME, message: "Update home" });
  // Every prefix a killed write can leave, from the empty file on.
  for (const length of [0, 1, 9, whole.length - 1]) {
    await Deno.writeTextFile(note, whole.slice(0, length));
    const s = await signedIn(site.root);
    try {
      await assert.rejects(Deno.stat(note), Deno.errors.NotFound);
      await s.assertWhole(HOME_TEXT);
    } finally {
      s.close();
    }
  }
  const s = await signedIn(site.root);
  try {
    const next = await s.publish(pageOf(100, "After the cut note"));
    assert.equal(next.status, 200);
  } finally {
    s.close();
  }
});

Deno.test("a whole note whose file was renamed into place but not committed is committed when the checkout opens", async () => {
  await using site = await tempSite();
  const text = JSON.stringify({ title: "Renamed, not committed" });
  await Deno.writeTextFile(join(site.root, HOME), text);
  await Deno.writeTextFile(
    join(site.root, ".git", "inpage-editor.pending"),
    JSON.stringify({ path: HOME, message: "Update home (recovered)" }),
  );
  const s = await signedIn(site.root);
  try {
    await s.assertWhole(text);
    assert.equal(
      (await s.git("log", "-1", "--format=%s")).trim(),
      "Update home (recovered)",
    );
  } finally {
    s.close();
  }
});

Deno.test("a recovered publish keeps its editor as the commit's author", async () => {
  await using site = await tempSite();
  const text = JSON.stringify({ title: "By Alice, recovered" });
  await Deno.writeTextFile(join(site.root, HOME), text);
  await Deno.writeTextFile(
    join(site.root, ".git", "inpage-editor.pending"),
    JSON.stringify({
      path: HOME,
      message: "Alice's title",
      author: { name: "Alice Martin", email: "alice@example.com" },
    }),
  );
  await openLocalCheckout({ root: site.root });
  assert.equal(
    (await site.git("log", "-1", "--format=%an <%ae>|%s")).trim(),
    "Alice Martin <alice@example.com>|Alice's title",
  );
  assert.equal((await site.git("status", "--porcelain")).trim(), "");
});

Deno.test("the local checkout refuses an author git could not record, before anything changes", async () => {
  await using site = await tempSite();
  const checkout = await openLocalCheckout({ root: site.root });
  const version = gitBlobSha(new TextEncoder().encode(HOME_TEXT));
  for (
    const author of [
      { name: "A <b>", email: "a@example.com" },
      { name: "Alice", email: "a@example.com>\nx" },
      { name: "...", email: "a@example.com" },
    ]
  ) {
    await assert.rejects(
      checkout.write(
        HOME,
        new TextEncoder().encode("{}\n"),
        version,
        "x",
        author,
      ),
      /not a name and an email/,
    );
  }
  assert.equal(await site.read(HOME), HOME_TEXT);
  assert.equal(await site.commitCount(), 1);
});
