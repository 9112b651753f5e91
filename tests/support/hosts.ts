/**
 * What the host tests share: the neutral build of the package (`deno bundle
 * --platform=browser --code-splitting` of its three server entries: `.`,
 * `./overlay` and `./redis`, so what loads lazily in Deno loads lazily
 * there too) installed as `@inpage/editor` in an example's node_modules
 * (where `npx jsr add @inpage/editor` puts the package), the example's
 * pinned npm packages, a recipe started as a real process on loopback, and
 * the walk every host must pass: the routes, then the overlay's files.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { type GitHubDouble, startGitHubDouble } from "./github_double.ts";
import { HOME, HOME_TEXT } from "./site.ts";
import { pngOfSize } from "./image_fixtures.ts";
import { gitBlobSha, hashKey } from "../../mod.ts";
import { startRedis } from "./redis_server.ts";

/** The repository root. */
export const ROOT: string = new URL("../../", import.meta.url).pathname;

/** The `npx` that runs Deno, as the docs say. */
const DENO = Deno.execPath();

/** The key of every host test, hashed with the default cost. */
export const KEY = "host test key";

let bundle: Promise<string> | undefined;

/** The package's server entries, as its package.json exports them. */
export const PACKAGE_EXPORTS = {
  ".": "./mod.js",
  "./overlay": "./lib/overlay_assets/serve.js",
  "./redis": "./lib/kv/redis.js",
} as const;

/**
 * Builds the neutral package once per test process: its entries and the
 * chunks they import (the page rules, zod, hash-wasm and the overlay's
 * files load when first needed, as from the published package). The npm
 * client of `./redis` stays an import of `@redis/client`, installed from the
 * example's lock as npm installs a JSR package's dependencies.
 *
 * @returns the folder of the built files
 */
export function neutralBundle(): Promise<string> {
  bundle ??= (async () => {
    const out = await Deno.makeTempDir({ prefix: "editor-bundle-" });
    await run(DENO, [
      "bundle",
      "--quiet",
      "--platform=browser",
      "--code-splitting",
      "--format=esm",
      "--external=@redis/client",
      "--outdir",
      out,
      "mod.ts",
      "lib/overlay_assets/serve.ts",
      "lib/kv/redis.ts",
    ], ROOT);
    return out;
  })();
  return bundle;
}

/**
 * Installs an example's pinned packages (`npm ci` when its node_modules
 * does not match the lock) and the neutral package as `@inpage/editor`.
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
  await Deno.remove(target, { recursive: true }).catch(() => {});
  await copyFolder(await neutralBundle(), target);
  await Deno.writeTextFile(
    join(target, "package.json"),
    JSON.stringify({
      name: "@inpage/editor",
      version: "2.1.0",
      type: "module",
      exports: PACKAGE_EXPORTS,
    }),
  );
  return dir;
}

async function copyFolder(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) {
      await copyFolder(join(from, entry.name), join(to, entry.name));
    } else await Deno.copyFile(join(from, entry.name), join(to, entry.name));
  }
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

/**
 * The overlay's files as a host serves them under `/_inpage/`: the loader
 * and the entry that `overlay/dist/manifest.json` names, each in brotli,
 * gzip and as built, with the bytes built (`fetch` unpacks them; a declared
 * length is the compressed copy's), the ETag and cache header of their kind,
 * `vary: accept-encoding`, and the loader's 304 to its ETag; another name
 * there is 404 JSON.
 *
 * Cloudflare's edge, and Miniflare in front of workerd, hand the worker
 * `accept-encoding: br, gzip` whatever the client sent and encode the answer
 * for the client themselves: with `recoded`, the encoding may be any the
 * client accepts, and the ETag any of the file's.
 *
 * @param url the recipe's URL
 * @param options `recoded` for a host that encodes for the client itself
 */
export async function assertServesOverlay(
  url: string,
  options: { recoded?: boolean } = {},
): Promise<void> {
  const dist = join(ROOT, "overlay", "dist");
  const manifest = JSON.parse(
    await Deno.readTextFile(join(dist, "manifest.json")),
  );
  for (const name of [manifest.loader, manifest.entry] as string[]) {
    const built = await Deno.readFile(join(dist, name));
    const etag = manifest.files[name].etag as string;
    for (
      const [accept, encoding, suffix] of [
        ["gzip, deflate, br", "br", ".br"],
        ["gzip", "gzip", ".gz"],
        ["identity", null, ""],
      ] as const
    ) {
      const response = await fetch(`${url}/_inpage/${name}`, {
        headers: { "accept-encoding": accept },
      });
      const where = `${name} (${accept})`;
      assert.equal(response.status, 200, where);
      const bytes = new Uint8Array(await response.arrayBuffer());
      assert.deepEqual(bytes, built, `${where}: the bytes as built`);
      const tags = [
        etag,
        ...["br", "gzip"].map((coding) => etag.replace(/"$/, `-${coding}"`)),
      ];
      if (options.recoded) {
        const used = response.headers.get("content-encoding");
        assert.ok(
          used === null || accept.split(/,\s*/).includes(used),
          `${where}: ${used}`,
        );
        const tag = (response.headers.get("etag") ?? "").replace(/^W\//, "");
        assert.ok(tags.includes(tag), `${where}: ${tag}`);
      } else {
        assert.equal(
          response.headers.get("content-encoding"),
          encoding,
          where,
        );
        assert.equal(
          response.headers.get("etag"),
          encoding ? etag.replace(/"$/, `-${encoding}"`) : etag,
          where,
        );
      }
      assert.equal(
        response.headers.get("cache-control"),
        name === manifest.loader
          ? "no-cache"
          : "public, max-age=31536000, immutable",
        where,
      );
      assert.equal(response.headers.get("vary"), "accept-encoding", where);
      assert.equal(
        response.headers.get("content-type"),
        "text/javascript; charset=utf-8",
        where,
      );
      const length = response.headers.get("content-length");
      if (length !== null && !options.recoded) {
        const copy = await Deno.readFile(join(dist, name + suffix));
        assert.equal(length, String(copy.byteLength), where);
      }
    }
  }
  const loader = await fetch(`${url}/_inpage/${manifest.loader}`, {
    headers: { "accept-encoding": "gzip" },
  });
  await loader.body?.cancel();
  const again = await fetch(`${url}/_inpage/${manifest.loader}`, {
    headers: {
      "accept-encoding": "gzip",
      "if-none-match": loader.headers.get("etag") ?? "",
    },
  });
  assert.equal(again.status, 304);
  assert.equal(await again.text(), "");
  const missing = await fetch(`${url}/_inpage/manifest.json`);
  assert.deepEqual([missing.status, await missing.json()], [404, {
    error: "not_found",
  }]);
}

/** How a recipe is started in its example's folder. */
export interface Recipe {
  /** The folder under examples/; it names the host in messages. */
  example: string;
  /** The host's command, given the example's folder. */
  program: (dir: string) => string;
  /** Its arguments. */
  args: string[];
  /**
   * Where it keeps RATE_LIMIT: a Deno KV file (`EDITOR_KV_PATH`, the
   * default) or a redis-server the test starts (`REDIS_URL`).
   */
  store?: "kv" | "redis";
  /** Variables the host itself sets (such as its client address header). */
  env?: Record<string, string>;
}

/** The variables that give a recipe its store, and the store, disposed last. */
async function storeOf(
  recipe: Recipe,
): Promise<{ variables: Record<string, string> } & AsyncDisposable> {
  if (recipe.store === "redis") {
    const server = await startRedis();
    return {
      variables: { REDIS_URL: server.url },
      [Symbol.asyncDispose]: () => server.stop(),
    };
  }
  const folder = await temporaryFolder();
  return {
    variables: { EDITOR_KV_PATH: join(folder.path, "kv.sqlite3") },
    [Symbol.asyncDispose]: () => folder[Symbol.asyncDispose](),
  };
}

let keyHash: Promise<string> | undefined;

/** {@linkcode KEY} hashed with the default cost, once per test process. */
function hashOfKey(): Promise<string> {
  keyHash ??= hashKey(KEY);
  return keyHash;
}

/**
 * Starts a recipe over a GitHub double, with RATE_LIMIT in a SQLite file,
 * passes the {@linkcode walk}, serves the overlay's files
 * ({@linkcode assertServesOverlay}), and checks its log: every line names a
 * client or carries a message, the token is never logged, no warning.
 *
 * @param recipe how to start it
 */
export async function walkRecipe(recipe: Recipe): Promise<void> {
  const hash = hashOfKey();
  const dir = await prepareExample(recipe.example);
  await using double = github();
  // This walk keeps RATE_LIMIT in a SQLite file (or Redis); the next test, in
  // memory.
  await using store = await storeOf(recipe);
  await using host = await startHost(recipe.program(dir), recipe.args, dir, {
    PORT: "0",
    ...store.variables,
    ...recipe.env,
    ...githubVariables(double, await hash),
  });
  await walk(host.url, double);
  await assertServesOverlay(host.url);
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
 * Starts a recipe over a GitHub double, with RATE_LIMIT in memory (or in
 * Redis for a recipe that keeps it there), and
 * checks with {@linkcode readDuringLogin} that a read sent during a login
 * is answered first; prints both times.
 *
 * @param recipe how to start it
 */
export async function readDuringLoginOf(recipe: Recipe): Promise<void> {
  const hash = hashOfKey();
  const dir = await prepareExample(recipe.example);
  await using double = github();
  await using store = recipe.store === "redis"
    ? await storeOf(recipe)
    : { variables: {}, [Symbol.asyncDispose]: () => Promise.resolve() };
  await using host = await startHost(recipe.program(dir), recipe.args, dir, {
    PORT: "0",
    ...store.variables,
    ...recipe.env,
    ...githubVariables(double, await hash),
  });
  const { readMs, loginMs } = await readDuringLogin(host.url);
  console.log(
    `${recipe.example}: read ${readMs.toFixed(1)} ms during a login of ${
      loginMs.toFixed(0)
    } ms`,
  );
}

/**
 * Starts two instances of a recipe on one redis-server, as a serverless host
 * runs several: a session opened on one is valid on the other and ends on
 * both with logout, and the login budget counts the attempts of both.
 *
 * @param recipe how to start it (its store is Redis)
 */
export async function twoInstancesOf(recipe: Recipe): Promise<void> {
  const hash = await hashOfKey();
  const dir = await prepareExample(recipe.example);
  await using double = github();
  await using store = await storeOf({ ...recipe, store: "redis" });
  const variables = {
    PORT: "0",
    ...store.variables,
    ...recipe.env,
    ...githubVariables(double, hash),
  };
  await using a = await startHost(
    recipe.program(dir),
    recipe.args,
    dir,
    variables,
  );
  await using b = await startHost(
    recipe.program(dir),
    recipe.args,
    dir,
    variables,
  );
  const login = await call(a.url, "/api/auth", json({ key: KEY }));
  assert.equal(login.status, 200);
  const cookie = login.response.headers.getSetCookie()
    .map((c) => c.split(";")[0]).join("; ");
  const session = (url: string) =>
    call(url, "/api/session", { headers: { cookie } });
  assert.deepEqual((await session(b.url)).body, {
    editor: { id: "editor", name: "editor", role: "publisher" },
  });
  const statuses = [];
  for (let attempt = 1; attempt <= 5; attempt++) {
    const url = attempt % 2 ? b.url : a.url;
    statuses.push(
      (await call(url, "/api/auth", json({ key: "wrong" }))).status,
    );
  }
  assert.deepEqual(statuses, [401, 401, 401, 401, 429]);
  const logout = await call(b.url, "/api/auth", {
    method: "DELETE",
    headers: { cookie },
  });
  assert.equal(logout.status, 200);
  assert.equal((await session(a.url)).status, 401);
}
