/**
 * What the host tests share: the neutral bundle (`deno bundle --platform=
 * browser mod.ts`) installed as `@inpage/editor` in an example's
 * node_modules (where `npx jsr add @inpage/editor` puts the package), the
 * example's pinned npm packages, a recipe started as a real process on
 * loopback, and the walk every host must pass.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { type GitHubDouble, startGitHubDouble } from "./github_double.ts";
import { HOME, HOME_TEXT } from "./site.ts";
import { pngOfSize } from "./image_fixtures.ts";
import { gitBlobSha, hashKey } from "../../mod.ts";

/** The repository root. */
export const ROOT: string = new URL("../../", import.meta.url).pathname;

/** The `npx` that runs Deno, as the docs say. */
const DENO = Deno.execPath();

/** The key of every host test, hashed with the default cost. */
export const KEY = "host test key";

let bundle: Promise<string> | undefined;

/**
 * Builds the neutral bundle once per test process.
 *
 * @returns the path of `mod.js` in a temporary folder
 */
export function neutralBundle(): Promise<string> {
  bundle ??= (async () => {
    const out = join(
      await Deno.makeTempDir({ prefix: "editor-bundle-" }),
      "mod.js",
    );
    await run(DENO, [
      "bundle",
      "--quiet",
      "--platform=browser",
      "-o",
      out,
      "mod.ts",
    ], ROOT);
    return out;
  })();
  return bundle;
}

/**
 * Installs an example's pinned packages (`npm ci` when its node_modules
 * does not match the lock) and the neutral bundle as `@inpage/editor`.
 *
 * @param example the folder under examples/
 * @returns the example's folder
 */
export async function prepareExample(example: string): Promise<string> {
  const dir = join(ROOT, "examples", example);
  const lock = await Deno.readTextFile(join(dir, "package-lock.json"));
  const installed = await Deno.readTextFile(
    join(dir, "node_modules", ".inpage-lock.json"),
  ).catch(() => "");
  if (installed !== lock) {
    await run(
      "npm",
      ["ci", "--no-audit", "--no-fund", "--loglevel=error"],
      dir,
    );
    await Deno.writeTextFile(
      join(dir, "node_modules", ".inpage-lock.json"),
      lock,
    );
  }
  const target = join(dir, "node_modules", "@inpage", "editor");
  await Deno.mkdir(target, { recursive: true });
  await Deno.copyFile(await neutralBundle(), join(target, "mod.js"));
  await Deno.writeTextFile(
    join(target, "package.json"),
    JSON.stringify({
      name: "@inpage/editor",
      version: "2.1.0",
      type: "module",
      exports: { ".": "./mod.js" },
    }),
  );
  return dir;
}

async function run(program: string, args: string[], cwd: string) {
  const { success, stderr, stdout } = await new Deno.Command(program, {
    args,
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  if (!success) {
    const text = new TextDecoder();
    throw new Error(
      `${program} ${args.join(" ")} failed in ${cwd}:\n${
        text.decode(stdout)
      }\n${text.decode(stderr)}`,
    );
  }
}

/**
 * A temporary folder, removed when disposed.
 *
 * @returns its path
 */
export async function temporaryFolder(): Promise<
  { path: string } & AsyncDisposable
> {
  const path = await Deno.makeTempDir({ prefix: "editor-host-" });
  return {
    path,
    [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }),
  };
}

/** A recipe running as a process. */
export interface HostProcess extends AsyncDisposable {
  /** The URL it printed, without the final slash. */
  url: string;
  /** Everything it printed, both streams. */
  output: () => string;
  /** The JSON lines it logged, parsed. */
  logLines: () => Record<string, unknown>[];
}

/**
 * Starts a recipe and waits for its `Listening on http://…/` line.
 *
 * @param program the host's command
 * @param args its arguments
 * @param cwd the example's folder
 * @param env its environment (PATH and HOME are added)
 * @returns the running recipe, stopped when disposed
 */
export async function startHost(
  program: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<HostProcess> {
  const child = new Deno.Command(program, {
    args,
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/tmp",
      NO_COLOR: "1",
      ...env,
    },
  }).spawn();
  let text = "";
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      text += chunk;
    }
  };
  const pumps = Promise.all([pump(child.stdout), pump(child.stderr)]);
  let exited = false;
  const status = child.status.finally(() => void (exited = true));
  const deadline = Date.now() + 60_000;
  let url: string | undefined;
  const stop = async () => {
    if (!exited) child.kill("SIGTERM");
    const timer = setTimeout(() => {
      if (!exited) child.kill("SIGKILL");
    }, 5_000);
    await status;
    clearTimeout(timer);
    await pumps;
  };
  while (
    !(url = /Listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(text)?.[1])
  ) {
    if (exited || Date.now() > deadline) {
      await stop();
      throw new Error(`${program} ${args.join(" ")} did not start:\n${text}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    url,
    output: () => text,
    logLines: () =>
      text.split("\n").filter((line) => line.startsWith('{"time"')).map((
        line,
      ) => JSON.parse(line)),
    [Symbol.asyncDispose]: stop,
  };
}

/** The GitHub double every host test writes to, with the home page. */
export function github(): GitHubDouble {
  return startGitHubDouble({ files: { [HOME]: HOME_TEXT } });
}

/** The environment variables of a recipe over the double. */
export function githubVariables(
  double: GitHubDouble,
  keyHash: string,
): Record<string, string> {
  return {
    EDITOR_KEY_HASH: keyHash,
    GITHUB_TOKEN: double.token,
    GITHUB_REPOSITORY: double.repository,
    GITHUB_API_URL: double.url,
  };
}

async function call(
  url: string,
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; body: unknown; response: Response }> {
  const response = await fetch(url + path, init);
  assert.equal(
    response.headers.get("content-type"),
    "application/json; charset=utf-8",
  );
  assert.equal(response.headers.get("cache-control"), "no-store");
  return { status: response.status, body: await response.json(), response };
}

function json(body: unknown, cookie?: string): RequestInit {
  return {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(cookie ? { cookie } : {}),
    },
    body: JSON.stringify(body),
  };
}

/**
 * The walk every host passes: log in, read, publish, stale publish (409),
 * upload, wrong keys until 429, log out, then 401. The login is the first
 * of the five attempts the auth budget allows, so the fifth wrong key
 * answers 429.
 *
 * @param url the recipe's URL
 * @param double the GitHub double behind it
 * @returns the statuses in order
 */
export async function walk(
  url: string,
  double: GitHubDouble,
): Promise<number[]> {
  const statuses: number[] = [];
  const login = await call(url, "/api/auth", json({ key: KEY }));
  assert.equal(login.status, 200, JSON.stringify(login.body));
  statuses.push(login.status);
  const cookie = login.response.headers.getSetCookie()
    .map((c) => c.split(";")[0]).join("; ");
  assert.match(cookie, /editor_session=[\w-]{43}; editor_edit=1/);

  const read = await call(url, `/api/content?path=${HOME}`, {
    headers: { cookie },
  });
  const version = await gitBlobSha(new TextEncoder().encode(HOME_TEXT));
  assert.deepEqual(read.body, { content: HOME_TEXT, version });
  statuses.push(read.status);

  const publish = await call(
    url,
    "/api/save",
    json({ path: HOME, content: '{"title":"Hosted"}', version }, cookie),
  );
  assert.equal(publish.status, 200, JSON.stringify(publish.body));
  statuses.push(publish.status);
  assert.equal(
    new TextDecoder().decode(double.files.get(HOME)),
    '{\n  "title": "Hosted"\n}\n',
  );

  const stale = await call(
    url,
    "/api/save",
    json({ path: HOME, content: '{"title":"Late"}', version }, cookie),
  );
  assert.deepEqual([stale.status, stale.body], [409, { error: "conflict" }]);
  statuses.push(stale.status);

  const form = new FormData();
  const png = pngOfSize(4_000, 40, 30);
  form.append("file", new Blob([png], { type: "image/png" }), "photo.png");
  form.append("name", "Host photo");
  const upload = await call(url, "/api/upload", {
    method: "POST",
    headers: { cookie },
    body: form,
  });
  assert.equal(upload.status, 200, JSON.stringify(upload.body));
  const { src } = upload.body as { src: string };
  assert.match(src, /^host-photo-[0-9a-f]{12}\.png$/);
  assert.deepEqual(upload.body, { src, width: 40, height: 30 });
  assert.deepEqual(double.files.get(`public/images/${src}`), png);
  statuses.push(upload.status);

  for (let attempt = 1; attempt <= 5; attempt++) {
    const wrong = await call(
      url,
      "/api/auth",
      json({ key: `wrong ${attempt}` }),
    );
    statuses.push(wrong.status);
    if (wrong.status === 429) {
      assert.match(wrong.response.headers.get("retry-after") ?? "", /^\d+$/);
    }
  }

  const logout = await call(url, "/api/auth", {
    method: "DELETE",
    headers: { cookie },
  });
  statuses.push(logout.status);
  const after = await call(url, `/api/content?path=${HOME}`, {
    headers: { cookie },
  });
  statuses.push(after.status);
  assert.deepEqual(statuses, [
    200, // log in
    200, // read
    200, // publish
    409, // stale publish
    200, // upload
    401, // wrong keys: the login spent the first of five attempts
    401,
    401,
    401,
    429, // the sixth attempt in the window
    200, // log out
    401, // the session is gone
  ]);
  return statuses;
}

/**
 * Sends a read while a login computes its hash, and shows the order: the
 * read is answered before the login is. Returns how long the read took.
 *
 * @param url the recipe's URL
 * @returns the read's time and the login's, in milliseconds
 */
export async function readDuringLogin(
  url: string,
): Promise<{ readMs: number; loginMs: number }> {
  const events: string[] = [];
  const loginStarted = performance.now();
  const login = fetch(url + "/api/auth", json({ key: KEY })).then(
    async (response) => {
      await response.body?.cancel();
      events.push("login answered");
      return { status: response.status, ms: performance.now() - loginStarted };
    },
  );
  // Give the login time to reach its hash before the read is sent.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const readStarted = performance.now();
  const read = await fetch(url + `/api/content?path=${HOME}`);
  await read.body?.cancel();
  const readMs = performance.now() - readStarted;
  events.push("read answered");
  const { status, ms: loginMs } = await login;
  assert.equal(status, 200);
  assert.equal(read.status, 401);
  assert.deepEqual(events, ["read answered", "login answered"]);
  return { readMs, loginMs };
}

/** How a recipe is started in its example's folder. */
export interface Recipe {
  /** The folder under examples/; it names the host in messages. */
  example: string;
  /** The host's command, given the example's folder. */
  program: (dir: string) => string;
  /** Its arguments. */
  args: string[];
}

let keyHash: Promise<string> | undefined;

/** {@linkcode KEY} hashed with the default cost, once per test process. */
function hashOfKey(): Promise<string> {
  keyHash ??= hashKey(KEY);
  return keyHash;
}

/**
 * Starts a recipe over a GitHub double, with RATE_LIMIT in a SQLite file,
 * passes the {@linkcode walk}, and checks its log: every line names a
 * client or carries a message, the token is never logged, no warning.
 *
 * @param recipe how to start it
 */
export async function walkRecipe(recipe: Recipe): Promise<void> {
  const hash = hashOfKey();
  const dir = await prepareExample(recipe.example);
  await using double = github();
  // This walk keeps RATE_LIMIT in a SQLite file; the next test, in memory.
  await using store = await temporaryFolder();
  await using host = await startHost(recipe.program(dir), recipe.args, dir, {
    PORT: "0",
    EDITOR_KV_PATH: join(store.path, "kv.sqlite3"),
    ...githubVariables(double, await hash),
  });
  await walk(host.url, double);
  const lines = host.logLines();
  // A line per request (its client), per notice (its message), per GitHub
  // call (its budget left).
  assert.ok(
    lines.every((line) =>
      line.client !== undefined || line.message ||
      Number.isInteger(line.remaining)
    ),
  );
  assert.ok(!host.output().includes(double.token), "the token is never logged");
  assert.ok(
    !host.output().includes("warning:"),
    `no warning expected:\n${host.output()}`,
  );
}

/**
 * Starts a recipe over a GitHub double, with RATE_LIMIT in memory, and
 * checks with {@linkcode readDuringLogin} that a read sent during a login
 * is answered first; prints both times.
 *
 * @param recipe how to start it
 */
export async function readDuringLoginOf(recipe: Recipe): Promise<void> {
  const hash = hashOfKey();
  const dir = await prepareExample(recipe.example);
  await using double = github();
  await using host = await startHost(recipe.program(dir), recipe.args, dir, {
    PORT: "0",
    ...githubVariables(double, await hash),
  });
  const { readMs, loginMs } = await readDuringLogin(host.url);
  console.log(
    `${recipe.example}: read ${readMs.toFixed(1)} ms during a login of ${
      loginMs.toFixed(0)
    } ms`,
  );
}
