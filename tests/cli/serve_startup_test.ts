/**
 * What `editor serve` says at start-up about the folder it is given: the CLI
 * driven through `main` with its io parameter (the real server, real KV,
 * real git), exact text and exit code.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../../cli.ts";
import { tempSite } from "../support/site.ts";
import { fastHash } from "../support/helpers.ts";

const PAGES = "src/content/pages";

/** `editor serve …` in this process: its outputs, a way to stop it. */
async function serve(args: string[]) {
  const kvFolder = await Deno.makeTempDir({ prefix: "editor-kv-" });
  const hash = await fastHash("startup key");
  let out = "";
  let err = "";
  let stop: (() => void) | undefined;
  const code = main(
    ["serve", "--port", "0", "--kv", join(kvFolder, "kv.sqlite3"), ...args],
    {
      out: (text) => void (out += text),
      err: (text) => void (err += text),
      stdin: new Blob([]).stream(),
      isTerminal: false,
      getEnv: (name) => name === "EDITOR_KEY_HASH" ? hash : undefined,
      onStopSignal: (onStop) => {
        stop = onStop;
        return () => {};
      },
    },
  );
  const started = await Promise.race([
    code.then((exit) => ({ exit })),
    (async () => {
      while (!out.includes("listening on")) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return { exit: undefined };
    })(),
  ]);
  const finish = async () => {
    if (started.exit === undefined) stop?.();
    const exit = await code;
    await Deno.remove(kvFolder, { recursive: true });
    return exit;
  };
  return { out: () => out, err: () => err, finish };
}

/** A folder with a page, not in any git repository. */
async function plainFolder(): Promise<AsyncDisposable & { root: string }> {
  const parent = await Deno.realPath(
    await Deno.makeTempDir({ prefix: "editor-plain-" }),
  );
  await Deno.mkdir(join(parent, PAGES, "en"), { recursive: true });
  await Deno.writeTextFile(join(parent, PAGES, "en", "home.json"), "{}\n");
  return {
    root: parent,
    [Symbol.asyncDispose]: () => Deno.remove(parent, { recursive: true }),
  };
}

Deno.test("editor serve --repo on a folder that does not exist says so, exit 1", async () => {
  const parent = await Deno.realPath(await Deno.makeTempDir());
  const missing = join(parent, "no-such-site");
  const file = join(parent, "a-file");
  await Deno.writeTextFile(file, "");
  try {
    const run = await serve(["--repo", missing]);
    assert.equal(await run.finish(), 1);
    assert.equal(
      run.err(),
      `editor: ${missing} does not exist: pass --repo with the site's checkout (or --demo to try a demo site)\n`,
    );
    assert.equal(run.out(), "");
    const notFolder = await serve(["--repo", file]);
    assert.equal(await notFolder.finish(), 1);
    assert.equal(
      notFolder.err(),
      `editor: ${file} is not a folder: pass --repo with the site's checkout (or --demo to try a demo site)\n`,
    );
    const empty = await serve(["--repo", parent]);
    assert.equal(await empty.finish(), 1);
    assert.equal(
      empty.err(),
      `editor: ${parent} has no src/content/pages folder: pass --repo with the site's checkout (or --demo to try a demo site)\n`,
    );
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("editor serve warns at start-up of declared locales without a folder and folders without a declared locale", async () => {
  await using site = await tempSite();
  const run = await serve(["--repo", site.root, "--locales", "de,en"]);
  assert.equal(
    run.err(),
    "Warning: --locales names de, but there is no folder src/content/pages/de: its pages answer 404 until a publish creates one\n" +
      "Warning: src/content/pages/fr is not in --locales (de,en): its pages answer 400 bad_request (add fr to --locales, or leave --locales out to use the folders)\n",
  );
  assert.match(run.out(), /locales de, en, one commit per publish/);
  assert.equal(await run.finish(), 0);
});

Deno.test("editor serve with --locales matching the folders, or without --locales, warns of nothing", async () => {
  await using site = await tempSite();
  for (const args of [["--locales", "fr,en"], []]) {
    const run = await serve(["--repo", site.root, ...args]);
    assert.equal(run.err(), "", args.join(" "));
    assert.equal(await run.finish(), 0);
  }
});

Deno.test("editor serve on a folder that is not a git repository says that publishes will not be committed, and why", async () => {
  await using folder = await plainFolder();
  const run = await serve(["--repo", folder.root]);
  assert.equal(
    run.err(),
    `Warning: ${folder.root} is not in a git repository, so publishes and uploads write files without committing them (run git init there to commit each publish, or pass --no-commit to say so)\n`,
  );
  assert.match(run.out(), /, no commits\)\n$/);
  assert.equal(await run.finish(), 0);
  const quiet = await serve(["--repo", folder.root, "--no-commit"]);
  assert.equal(quiet.err(), "");
  assert.equal(await quiet.finish(), 0);
});

Deno.test("editor serve without git on the PATH says that publishes will not be committed, and why", async () => {
  await using site = await tempSite();
  const path = Deno.env.get("PATH") ?? "";
  const empty = await Deno.makeTempDir({ prefix: "editor-no-git-" });
  Deno.env.set("PATH", empty);
  try {
    const run = await serve(["--repo", site.root]);
    assert.equal(
      run.err(),
      "Warning: git is not installed, so publishes and uploads write files without committing them (install git to commit each publish, or pass --no-commit to say so)\n",
    );
    assert.equal(await run.finish(), 0);
  } finally {
    Deno.env.set("PATH", path);
    await Deno.remove(empty);
  }
});
