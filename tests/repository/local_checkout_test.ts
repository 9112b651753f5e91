import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type LocalCheckout,
  type LocalCheckoutOptions,
  openLocalCheckout,
} from "../../lib/repository/local/mod.ts";
import {
  type LocalCheckoutFaults,
  openCheckout,
} from "../../lib/repository/local/checkout.ts";
import {
  ConflictError,
  RepositoryError,
} from "../../lib/repository/repository.ts";

const PAGE = "src/content/pages/en/home.json";
const IMAGE = "public/images/x-0123456789ab.png";
const encoder = new TextEncoder();
const bytes = (text: string) => encoder.encode(text);

/** Runs git in a folder; throws with its error output when it fails. */
async function git(folder: string, ...args: string[]): Promise<string> {
  const output = await new Deno.Command("git", {
    args: ["-C", folder, ...args],
    stdin: "null",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, `git ${args.join(" ")}: ${stderr}`);
  return new TextDecoder().decode(output.stdout);
}

/** The raw standard output of a git command. */
async function gitBytes(
  folder: string,
  ...args: string[]
): Promise<Uint8Array> {
  const output = await new Deno.Command("git", {
    args: ["-C", folder, ...args],
    stdin: "null",
  }).output();
  assert.equal(output.code, 0);
  return output.stdout;
}

/** How many commits `HEAD` has (0 on an unborn branch). */
async function commitCount(folder: string): Promise<number> {
  const output = await new Deno.Command("git", {
    args: ["-C", folder, "rev-list", "--count", "HEAD"],
    stderr: "null",
  }).output();
  return output.code === 0
    ? Number(new TextDecoder().decode(output.stdout).trim())
    : 0;
}

/** The raw message of the last commit. */
async function commitMessage(folder: string): Promise<string> {
  const raw = await git(folder, "cat-file", "commit", "HEAD");
  return raw.slice(raw.indexOf("\n\n") + 2);
}

/** Names in a folder, sorted. */
async function names(folder: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(folder)) out.push(entry.name);
  return out.sort();
}

/**
 * Asserts that a failed write left the checkout as it was (the page's bytes,
 * no other file beside it, one commit), then that a new file in new folders
 * is refused the same way and leaves nothing: no folder remains.
 */
async function assertNothingWritten(
  checkout: LocalCheckout,
  folder: string,
  before: Uint8Array,
  newFile: string,
): Promise<void> {
  assert.deepEqual(await Deno.readFile(join(folder, PAGE)), before);
  assert.deepEqual(await names(join(folder, "src/content/pages/en")), [
    "home.json",
  ]);
  assert.equal(await commitCount(folder), 1);
  await assert.rejects(
    checkout.write(newFile, bytes("{}\n"), "", "New"),
    RepositoryError,
  );
  assert.deepEqual(await names(join(folder, "src/content/pages")), ["en"]);
}

/** Whether something is at a path (links not followed). */
async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** A fresh git repository with its own identity and, optionally, a first commit. */
async function makeRepo(
  options: { files?: Record<string, string>; identity?: boolean } = {},
): Promise<string> {
  const folder = await Deno.realPath(
    await Deno.makeTempDir({ prefix: "inpage-checkout-" }),
  );
  await git(folder, "init", "--quiet", "--initial-branch=main");
  await git(folder, "config", "commit.gpgsign", "false");
  if (options.identity !== false) {
    await git(folder, "config", "user.name", "Test Person");
    await git(folder, "config", "user.email", "test@example.com");
  }
  const files = options.files ?? { [PAGE]: '{ "title": "Home" }\n' };
  if (Object.keys(files).length > 0) {
    for (const [path, text] of Object.entries(files)) {
      await Deno.mkdir(join(folder, path, ".."), { recursive: true });
      await Deno.writeFile(join(folder, path), bytes(text));
    }
    await git(folder, "add", "--all");
    await git(folder, "commit", "--quiet", "--message=Start");
  }
  return folder;
}

/** Opens a checkout on a fresh repository and removes the folder afterwards. */
async function withRepo(
  test: (checkout: LocalCheckout, folder: string) => Promise<void>,
  options: Omit<LocalCheckoutOptions, "root"> & {
    files?: Record<string, string>;
    faults?: LocalCheckoutFaults;
  } = {},
): Promise<void> {
  const { files, faults, ...checkoutOptions } = options;
  const folder = await makeRepo(files === undefined ? {} : { files });
  try {
    await test(
      await openCheckout({ root: folder, ...checkoutOptions }, faults),
      folder,
    );
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
}

/** The version git computes for a file of the work tree. */
async function hashObject(folder: string, path: string): Promise<string> {
  return (await git(folder, "hash-object", "--", path)).trim();
}

Deno.test("local checkout versions equal git hash-object", async () => {
  await withRepo(async (checkout, folder) => {
    const file = await checkout.read(PAGE);
    assert.ok(file);
    assert.equal(file.version, await hashObject(folder, PAGE));
    assert.deepEqual(file.content, bytes('{ "title": "Home" }\n'));
    assert.equal(checkout.commits, true);
    assert.equal(checkout.root, folder);
  });
});

Deno.test("local checkout reads null for an absent file or folder", async () => {
  await withRepo(async (checkout) => {
    assert.equal(await checkout.read("src/content/pages/en/none.json"), null);
    assert.equal(await checkout.read("src/content/pages/xx/a/b.json"), null);
    // a file where a folder would be
    assert.equal(await checkout.read(`${PAGE}/child.json`), null);
  });
});

Deno.test("local checkout creates a file with an empty expected version and commits it alone", async () => {
  await withRepo(async (checkout, folder) => {
    const path = "src/content/pages/fr/a/b.json";
    const version = await checkout.write(path, bytes("{}\n"), "", "Add b");
    assert.equal(version, await hashObject(folder, path));
    assert.deepEqual(await Deno.readFile(join(folder, path)), bytes("{}\n"));
    assert.equal(await commitCount(folder), 2);
    assert.equal(await commitMessage(folder), "Add b\n");
    assert.equal(
      await git(folder, "show", "--name-only", "--format=", "HEAD"),
      `${path}\n`,
    );
    assert.equal(await git(folder, "status", "--porcelain"), "");
  });
});

Deno.test("local checkout updates a file with the right version", async () => {
  await withRepo(async (checkout, folder) => {
    const before = await checkout.read(PAGE);
    assert.ok(before);
    const content = bytes('{ "title": "Accueil" }\n');
    const version = await checkout.write(
      PAGE,
      content,
      before.version,
      "Update home",
    );
    assert.equal(version, await hashObject(folder, PAGE));
    assert.deepEqual(await checkout.read(PAGE), { content, version });
    assert.equal(await commitCount(folder), 2);
    assert.equal(
      await git(folder, "log", "-1", "--format=%s"),
      "Update home\n",
    );
    assert.equal(
      (await git(folder, "rev-parse", `HEAD:${PAGE}`)).trim(),
      version,
    );
  });
});

Deno.test("local checkout refuses a stale version and writes nothing", async () => {
  await withRepo(async (checkout, folder) => {
    const before = await Deno.readFile(join(folder, PAGE));
    const stale = "0123456789abcdef0123456789abcdef01234567";
    await assert.rejects(
      checkout.write(PAGE, bytes("{}\n"), stale, "Stale"),
      ConflictError,
    );
    assert.deepEqual(await Deno.readFile(join(folder, PAGE)), before);
    assert.equal(await commitCount(folder), 1);
    assert.deepEqual(await names(join(folder, "src/content/pages/en")), [
      "home.json",
    ]);
  });
});

Deno.test("local checkout refuses to create a file that exists", async () => {
  await withRepo(async (checkout, folder) => {
    const before = await Deno.readFile(join(folder, PAGE));
    await assert.rejects(
      checkout.write(PAGE, bytes("{}\n"), "", "Create again"),
      ConflictError,
    );
    assert.deepEqual(await Deno.readFile(join(folder, PAGE)), before);
    assert.equal(await commitCount(folder), 1);
  });
});

Deno.test("local checkout refuses a version for an absent file", async () => {
  await withRepo(async (checkout, folder) => {
    const file = await checkout.read(PAGE);
    assert.ok(file);
    await assert.rejects(
      checkout.write("src/new.json", bytes("{}\n"), file.version, "New"),
      ConflictError,
    );
    assert.equal(await exists(join(folder, "src/new.json")), false);
  });
});

Deno.test("local checkout keeps the user's other staged and unstaged work out of the commit", async () => {
  await withRepo(async (checkout, folder) => {
    await Deno.writeFile(join(folder, "staged.txt"), bytes("staged\n"));
    await git(folder, "add", "staged.txt");
    await Deno.writeFile(join(folder, "notes.txt"), bytes("changed\n"));
    const file = await checkout.read(PAGE);
    assert.ok(file);
    await checkout.write(PAGE, bytes("{}\n"), file.version, "Edit home");
    assert.equal(
      await git(folder, "show", "--name-only", "--format=", "HEAD"),
      `${PAGE}\n`,
    );
    assert.equal(
      await git(folder, "diff", "--cached", "--name-only"),
      "staged.txt\n",
    );
    assert.equal(
      await git(folder, "status", "--porcelain"),
      " M notes.txt\nA  staged.txt\n",
    );
  }, { files: { [PAGE]: "{}\n\n", "notes.txt": "notes\n" } });
});

Deno.test("local checkout makes no commit for identical content", async () => {
  await withRepo(async (checkout, folder) => {
    const file = await checkout.read(PAGE);
    assert.ok(file);
    const version = await checkout.write(
      PAGE,
      file.content.slice(),
      file.version,
      "Same",
    );
    assert.equal(version, file.version);
    assert.equal(await commitCount(folder), 1);
  });
});

Deno.test("local checkout makes no commit when the new bytes are those of HEAD", async () => {
  await withRepo(async (checkout, folder) => {
    const committed = await Deno.readFile(join(folder, PAGE));
    await Deno.writeFile(join(folder, PAGE), bytes("local edit\n"));
    const edited = await checkout.read(PAGE);
    assert.ok(edited);
    const version = await checkout.write(
      PAGE,
      committed,
      edited.version,
      "Back",
    );
    assert.equal(version, await hashObject(folder, PAGE));
    assert.deepEqual(await Deno.readFile(join(folder, PAGE)), committed);
    assert.equal(await commitCount(folder), 1);
    assert.equal(await git(folder, "status", "--porcelain"), "");
  });
});

Deno.test("local checkout puts the bytes of HEAD in the index too when they replace a staged edit", async () => {
  await withRepo(async (checkout, folder) => {
    const committed = await Deno.readFile(join(folder, PAGE));
    await Deno.writeFile(join(folder, PAGE), bytes("staged edit\n"));
    await git(folder, "add", PAGE);
    const edited = await checkout.read(PAGE);
    assert.ok(edited);
    await checkout.write(PAGE, committed, edited.version, "Back");
    assert.deepEqual(await Deno.readFile(join(folder, PAGE)), committed);
    assert.equal(await commitCount(folder), 1);
    // The staged edit is gone from the index: a later commit cannot bring
    // back the bytes the publish replaced.
    assert.equal(await git(folder, "status", "--porcelain"), "");
  });
});

Deno.test("local checkout lets exactly one of 20 concurrent writes win", async () => {
  await withRepo(async (checkout, folder) => {
    const file = await checkout.read(PAGE);
    assert.ok(file);
    const contents = Array.from(
      { length: 20 },
      (_, i) => bytes(`{ "n": ${i} }\n`),
    );
    const results = await Promise.allSettled(
      contents.map((content, i) =>
        checkout.write(PAGE, content, file.version, `Write ${i}`)
      ),
    );
    const won = results.flatMap((result, i) =>
      result.status === "fulfilled" ? [i] : []
    );
    assert.equal(won.length, 1);
    for (const result of results) {
      if (result.status === "rejected") {
        assert.ok(
          result.reason instanceof ConflictError,
          String(result.reason),
        );
      }
    }
    const winner = won[0] ?? -1;
    assert.deepEqual(await Deno.readFile(join(folder, PAGE)), contents[winner]);
    assert.equal(await commitCount(folder), 2);
    assert.equal(
      await git(folder, "log", "-1", "--format=%s"),
      `Write ${winner}\n`,
    );
  });
});

Deno.test("local checkout serialises writes of two checkouts of one repository", async () => {
  await withRepo(async (first, folder) => {
    const second = await openLocalCheckout({ root: folder });
    const writes = Array.from(
      { length: 10 },
      (_, i) =>
        (i % 2 === 0 ? first : second).write(
          `src/content/pages/en/p${i}.json`,
          bytes(`${i}\n`),
          "",
          `Add p${i}`,
        ),
    );
    await Promise.all(writes);
    assert.equal(await commitCount(folder), 11);
    assert.equal(await git(folder, "status", "--porcelain"), "");
  });
});

Deno.test("local checkout waits for another process's lock", async () => {
  await withRepo(async (checkout, folder) => {
    const lock = await Deno.open(join(folder, ".git/inpage-editor.lock"), {
      read: true,
      write: true,
      create: true,
    });
    await lock.lock(true);
    let settled = false;
    const write = checkout.write("src/a.json", bytes("{}\n"), "", "Add a")
      .finally(() => settled = true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(settled, false);
    assert.equal(await exists(join(folder, "src/a.json")), false);
    lock.close();
    await write;
    assert.equal(await commitCount(folder), 2);
  });
});

Deno.test("local checkout leaves the old file whole when a write fails after the temporary file", async () => {
  const faults = {
    afterTempWrite: () => {
      throw new Error("Injected failure");
    },
  };
  await withRepo(async (checkout, folder) => {
    const before = await Deno.readFile(join(folder, PAGE));
    const file = await checkout.read(PAGE);
    assert.ok(file);
    const error = await checkout
      .write(PAGE, bytes("{}\n"), file.version, "Fail")
      .catch((error) => error);
    assert.ok(error instanceof RepositoryError);
    assert.equal(error.code, "unavailable");
    assert.match(error.message, /Injected failure/);
    await assertNothingWritten(
      checkout,
      folder,
      before,
      "src/content/pages/de/x/y.json",
    );
    assert.equal(await git(folder, "status", "--porcelain"), "");
  }, { faults });
});

Deno.test("local checkout restores the file when git cannot update the index", async () => {
  await withRepo(async (checkout, folder) => {
    const before = await Deno.readFile(join(folder, PAGE));
    const file = await checkout.read(PAGE);
    assert.ok(file);
    await Deno.writeFile(join(folder, ".git/index.lock"), new Uint8Array());
    const error = await checkout
      .write(PAGE, bytes("{}\n"), file.version, "Blocked")
      .catch((error) => error);
    assert.ok(error instanceof RepositoryError, String(error));
    assert.equal(error.code, "unavailable");
    assert.match(error.message, /index\.lock/);
    await assertNothingWritten(
      checkout,
      folder,
      before,
      "src/content/pages/de/new.json",
    );
    await Deno.remove(join(folder, ".git/index.lock"));
    assert.equal(await git(folder, "status", "--porcelain"), "");
  });
});

Deno.test("local checkout restores the file and the index when the commit fails", async () => {
  await withRepo(async (checkout, folder) => {
    await Deno.writeFile(join(folder, "staged.txt"), bytes("staged\n"));
    await git(folder, "add", "staged.txt");
    const indexBefore = await git(folder, "ls-files", "--stage");
    const statusBefore = await git(folder, "status", "--porcelain");
    const before = await Deno.readFile(join(folder, PAGE));
    const file = await checkout.read(PAGE);
    assert.ok(file);
    // the branch cannot move while its ref is locked
    await Deno.writeFile(
      join(folder, ".git/refs/heads/main.lock"),
      new Uint8Array(),
    );
    const error = await checkout
      .write(PAGE, bytes("{}\n"), file.version, "Blocked")
      .catch((error) => error);
    assert.ok(error instanceof RepositoryError, String(error));
    assert.equal(error.code, "unavailable");
    assert.match(error.message, /git commit/);
    assert.match(error.message, /main\.lock/);
    assert.deepEqual(await Deno.readFile(join(folder, PAGE)), before);
    await assert.rejects(
      checkout.write("src/other.json", bytes("{}\n"), "", "Add other"),
      RepositoryError,
    );
    assert.equal(await exists(join(folder, "src/other.json")), false);
    assert.equal(await git(folder, "ls-files", "--stage"), indexBefore);
    assert.equal(await git(folder, "status", "--porcelain"), statusBefore);
    assert.equal(await commitCount(folder), 1);

    await Deno.remove(join(folder, ".git/refs/heads/main.lock"));
    await checkout.write(PAGE, bytes("{}\n"), file.version, "Unblocked");
    assert.equal(await commitCount(folder), 2);
  });
});

Deno.test("local checkout writes without committing when commit is false", async () => {
  await withRepo(async (checkout, folder) => {
    assert.equal(checkout.commits, false);
    const file = await checkout.read(PAGE);
    assert.ok(file);
    const version = await checkout.write(
      PAGE,
      bytes("{}\n"),
      file.version,
      "No commit",
    );
    assert.equal(version, await hashObject(folder, PAGE));
    assert.equal(await commitCount(folder), 1);
    assert.equal(await git(folder, "status", "--porcelain"), ` M ${PAGE}\n`);
  }, { commit: false });
});

Deno.test("local checkout writes in a plain folder without git", async () => {
  const folder = await Deno.makeTempDir({ prefix: "inpage-plain-" });
  try {
    const checkout = await openLocalCheckout({ root: folder });
    assert.equal(checkout.commits, false);
    assert.equal(checkout.root, await Deno.realPath(folder));
    const v1 = await checkout.write(PAGE, bytes("{}\n"), "", "Add");
    const v2 = await checkout.write(PAGE, bytes("[]\n"), v1, "Edit");
    assert.deepEqual(await checkout.read(PAGE), {
      content: bytes("[]\n"),
      version: v2,
    });
    await assert.rejects(
      checkout.write(PAGE, bytes("{}\n"), v1, "Stale"),
      ConflictError,
    );
    assert.deepEqual(await names(folder), ["src"]);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("local checkout commits the first commit of an unborn branch", async () => {
  const folder = await makeRepo({ files: {} });
  try {
    const checkout = await openLocalCheckout({ root: folder });
    assert.equal(checkout.commits, true);
    await checkout.write(PAGE, bytes("{}\n"), "", "First");
    assert.equal(await commitCount(folder), 1);
    assert.equal(await git(folder, "log", "--format=%s"), "First\n");
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("local checkout commits relative to a root below the top of the work tree", async () => {
  await withRepo(async (_, folder) => {
    await Deno.mkdir(join(folder, "site"));
    const checkout = await openLocalCheckout({ root: join(folder, "site") });
    assert.equal(checkout.commits, true);
    await checkout.write(PAGE, bytes("{}\n"), "", "Add in site");
    assert.equal(
      await git(folder, "show", "--name-only", "--format=", "HEAD"),
      `site/${PAGE}\n`,
    );
    // a failure there restores the index with the full path
    await Deno.writeFile(
      join(folder, ".git/refs/heads/main.lock"),
      new Uint8Array(),
    );
    const indexBefore = await git(folder, "ls-files", "--stage");
    await assert.rejects(
      checkout.write("src/b.json", bytes("{}\n"), "", "Add b"),
      RepositoryError,
    );
    assert.equal(await git(folder, "ls-files", "--stage"), indexBefore);
  });
});

Deno.test("local checkout keeps the message verbatim", async () => {
  await withRepo(async (checkout, folder) => {
    const message = "#12 --amend -m café: “quotes” and $HOME";
    await checkout.write("src/a.json", bytes("{}\n"), "", message);
    assert.equal(await commitMessage(folder), `${message}\n`);
  });
});

Deno.test("local checkout uses the fallback identity only when git has none", async () => {
  const globalConfig = await Deno.makeTempFile();
  const saved = {
    GIT_CONFIG_GLOBAL: Deno.env.get("GIT_CONFIG_GLOBAL"),
    GIT_CONFIG_NOSYSTEM: Deno.env.get("GIT_CONFIG_NOSYSTEM"),
  };
  const folder = await makeRepo({ files: {}, identity: false });
  try {
    Deno.env.set("GIT_CONFIG_GLOBAL", globalConfig);
    Deno.env.set("GIT_CONFIG_NOSYSTEM", "1");
    await git(folder, "config", "user.useConfigOnly", "true");
    const anonymous = await openLocalCheckout({ root: folder });
    await anonymous.write("a.json", bytes("{}\n"), "", "Anonymous");
    assert.equal(
      await git(folder, "log", "-1", "--format=%an <%ae>|%cn <%ce>"),
      "inpage editor <editor@localhost>|inpage editor <editor@localhost>\n",
    );

    await git(folder, "config", "user.name", "Site Owner");
    await git(folder, "config", "user.email", "owner@example.com");
    const known = await openLocalCheckout({ root: folder });
    await known.write("b.json", bytes("{}\n"), "", "Known");
    assert.equal(
      await git(folder, "log", "-1", "--format=%an <%ae>|%cn <%ce>"),
      "Site Owner <owner@example.com>|Site Owner <owner@example.com>\n",
    );
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) Deno.env.delete(name);
      else Deno.env.set(name, value);
    }
    await Deno.remove(folder, { recursive: true });
    await Deno.remove(globalConfig);
  }
});

Deno.test("local checkout ignores GIT_DIR and GIT_INDEX_FILE from the environment", async () => {
  const other = await makeRepo();
  const saved = {
    GIT_DIR: Deno.env.get("GIT_DIR"),
    GIT_INDEX_FILE: Deno.env.get("GIT_INDEX_FILE"),
  };
  try {
    await withRepo(async (_, folder) => {
      Deno.env.set("GIT_DIR", join(other, ".git"));
      Deno.env.set("GIT_INDEX_FILE", join(other, ".git/index"));
      try {
        const checkout = await openLocalCheckout({ root: folder });
        await checkout.write("src/a.json", bytes("{}\n"), "", "Add a");
      } finally {
        for (const [name, value] of Object.entries(saved)) {
          if (value === undefined) Deno.env.delete(name);
          else Deno.env.set(name, value);
        }
      }
      assert.equal(await commitCount(folder), 2);
      assert.equal(await commitCount(other), 1);
    });
  } finally {
    await Deno.remove(other, { recursive: true });
  }
});

Deno.test("local checkout refuses paths that leave the root", async () => {
  await withRepo(async (checkout, folder) => {
    const before = await names(folder);
    const refused = [
      "",
      "/etc/passwd",
      join(folder, "src/a.json"),
      "../outside.json",
      "src/../../outside.json",
      "src/./a.json",
      "src//a.json",
      "src/a.json/",
      ".git/config",
      "src/.GIT/config",
      "src\\a.json",
      "C:/a.json",
      "src/a\0.json",
      "src/a\n.json",
    ];
    for (const path of refused) {
      await assert.rejects(checkout.read(path), RepositoryError, path);
      await assert.rejects(
        checkout.write(path, bytes("{}\n"), "", "Escape"),
        (error: unknown) =>
          error instanceof RepositoryError && error.code === "unauthorized",
        path,
      );
    }
    assert.deepEqual(await names(folder), before);
    assert.equal(await commitCount(folder), 1);
  });
});

Deno.test("local checkout refuses symbolic links that lead outside the root", async () => {
  const outside = await Deno.makeTempDir({ prefix: "inpage-outside-" });
  try {
    await withRepo(async (checkout, folder) => {
      await Deno.writeFile(join(outside, "secret.png"), bytes("secret"));
      // a linked folder on the way
      await Deno.symlink(outside, join(folder, "src/content/pages/fr"));
      // a linked top folder, with missing folders below it
      await Deno.symlink(outside, join(folder, "public"));
      // a linked file
      await Deno.mkdir(join(folder, "assets"));
      await Deno.symlink(
        join(outside, "secret.png"),
        join(folder, "assets/secret.png"),
      );
      // a dangling link
      await Deno.symlink(join(outside, "none"), join(folder, "gone"));

      const cases = [
        "src/content/pages/fr/home.json",
        "src/content/pages/fr/secret.png",
        IMAGE,
        "assets/secret.png",
        "gone/a.json",
      ];
      for (const path of cases) {
        await assert.rejects(checkout.read(path), RepositoryError, path);
        for (const expected of ["", "0".repeat(40)]) {
          await assert.rejects(
            checkout.write(path, bytes("{}\n"), expected, "Escape"),
            (error: unknown) =>
              error instanceof RepositoryError &&
              error.code === "unauthorized",
            path,
          );
        }
      }
      assert.deepEqual(await names(outside), ["secret.png"]);
      assert.deepEqual(
        await Deno.readFile(join(outside, "secret.png")),
        bytes("secret"),
      );
      assert.equal(await commitCount(folder), 1);
    });
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("local checkout follows linked folders inside the root, never a linked file", async () => {
  await withRepo(async (checkout, folder) => {
    await Deno.symlink(
      join(folder, "src/content/pages/en"),
      join(folder, "src/content/pages/en-link"),
    );
    const file = await checkout.read("src/content/pages/en-link/home.json");
    assert.deepEqual(file, await checkout.read(PAGE));
    // a page that is itself a link (to `.env`, say) is never read, and
    // replacing it would turn the link into a file: refused too
    await Deno.writeTextFile(join(folder, ".env"), "GITHUB_TOKEN=secret\n");
    await Deno.symlink(
      join(folder, ".env"),
      join(folder, "src/content/pages/en/alias.json"),
    );
    await assert.rejects(
      checkout.read("src/content/pages/en/alias.json"),
      RepositoryError,
    );
    await assert.rejects(
      checkout.write(
        "src/content/pages/en/alias.json",
        bytes("{}\n"),
        file?.version ?? "",
        "Alias",
      ),
      RepositoryError,
    );
  });
});

Deno.test("local checkout refuses a FIFO at a page path without opening it (no hang), for a read and a write", async () => {
  await withRepo(async (checkout, folder) => {
    const fifo = "src/content/pages/en/pipe.json";
    const made = await new Deno.Command("mkfifo", {
      args: [join(folder, fifo)],
    }).output();
    assert.ok(made.success, "mkfifo");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("the read hangs")), 5_000);
    });
    try {
      await assert.rejects(
        Promise.race([checkout.read(fifo), late]),
        (error: unknown) =>
          error instanceof RepositoryError && error.code === "unavailable" &&
          /not a regular file/.test(error.message),
      );
      await assert.rejects(
        Promise.race([checkout.write(fifo, bytes("{}\n"), "", "Pipe"), late]),
        (error: unknown) =>
          error instanceof RepositoryError && error.code === "unavailable",
      );
    } finally {
      clearTimeout(timer);
    }
    assert.ok((await Deno.lstat(join(folder, fifo))).isFifo);
  });
});

Deno.test("local checkout round-trips binary image bytes", async () => {
  await withRepo(async (checkout, folder) => {
    const image = new Uint8Array(4096);
    image.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    for (let i = 8; i < image.length; i++) image[i] = (i * 131) % 256;
    image.set([0x0d, 0x0a, 0x00, 0x0a, 0x0d], 100);
    const version = await checkout.write(IMAGE, image, "", "Add image x");
    assert.equal(version, await hashObject(folder, IMAGE));
    const file = await checkout.read(IMAGE);
    assert.ok(file);
    assert.deepEqual(file.content, image);
    assert.equal(file.version, version);
    assert.deepEqual(await Deno.readFile(join(folder, IMAGE)), image);
    assert.deepEqual(
      await gitBytes(folder, "cat-file", "blob", `HEAD:${IMAGE}`),
      image,
    );
  });
});

Deno.test("local checkout keeps the file mode", {
  ignore: Deno.build.os === "windows",
}, async () => {
  await withRepo(async (checkout, folder) => {
    await Deno.chmod(join(folder, "run.sh"), 0o755);
    await git(folder, "add", "run.sh");
    await git(folder, "commit", "--quiet", "--message=Executable");
    const file = await checkout.read("run.sh");
    assert.ok(file);
    await checkout.write("run.sh", bytes("echo 2\n"), file.version, "Edit");
    assert.equal(
      (await Deno.stat(join(folder, "run.sh"))).mode! & 0o777,
      0o755,
    );
    assert.match(await git(folder, "ls-tree", "HEAD", "run.sh"), /^100755 /);
  }, { files: { "run.sh": "echo 1\n" } });
});

Deno.test("local checkout refuses a missing root", async () => {
  await assert.rejects(
    openLocalCheckout({ root: "/nonexistent/inpage/root" }),
    (error: unknown) =>
      error instanceof RepositoryError && error.code === "not_found",
  );
  await assert.rejects(openLocalCheckout({ root: "" }), TypeError);
});
