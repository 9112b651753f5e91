/**
 * The dependency rule of the layout, checked on the sources:
 *
 * - the domain folders (`lib/pages/`, `lib/images/`, `lib/repository/`) never
 *   import `lib/http/` (nor anything above it);
 * - no import runs upward: from bottom to top the layers are the shared
 *   helpers (`lib/*.ts`, `lib/encoding/`), the domain folders, the host
 *   contract (`lib/http/env.ts`: the bindings' types, the clock and the
 *   log sink), `lib/access/`, `lib/publish/` and `lib/review/`, the rest
 *   of `lib/http/`, `routes/`, `router.ts`, then the
 *   entry points (`mod.ts`, `cli.ts`, `cli/`);
 * - the module graph of `mod.ts` reaches no `Deno.*` API, so the server runs
 *   on any host;
 * - access code (`lib/access/`) throws its own errors, never the HTTP error
 *   class;
 * - the browser code (`client/`, `overlay/`, `regions/`) and the server use
 *   the same JSON Pointer module, `lib/wire/pointer.ts`: no other file
 *   escapes or unescapes a reference token.
 */
import assert from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";

const ROOT = normalize(join(dirname(new URL(import.meta.url).pathname), ".."));

const DOMAIN = [
  "lib/pages/",
  "lib/images/",
  "lib/repository/",
  "lib/wire/",
  "lib/markdown/",
];

/** The layer of a file, bottom 0; `undefined` outside the layered tree. */
function layer(path: string): number | undefined {
  if (/^lib\/(?:encoding\/)?[^/]+\.ts$/.test(path)) return 0;
  if (DOMAIN.some((folder) => path.startsWith(folder))) return 1;
  if (path === "lib/http/env.ts") return 2;
  if (
    path.startsWith("lib/access/") || path.startsWith("lib/publish/") ||
    path.startsWith("lib/review/")
  ) {
    return 3;
  }
  if (path.startsWith("lib/http/")) return 4;
  if (path.startsWith("routes/")) return 5;
  if (path === "router.ts") return 6;
  if (path === "mod.ts" || path === "cli.ts" || path.startsWith("cli/")) {
    return 7;
  }
  return undefined;
}

/** The relative imports of a source, static and dynamic, resolved. */
function importsOf(path: string, source: string): string[] {
  const found: string[] = [];
  const pattern =
    /(?:^|[\s;])(?:import|export)\s[^;]*?from\s*["'](\.{1,2}\/[^"']+)["']|import\s*\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)|^import\s*["'](\.{1,2}\/[^"']+)["']/gm;
  for (const match of withoutComments(source).matchAll(pattern)) {
    const specifier = match[1] ?? match[2] ?? match[3];
    if (specifier === undefined) continue;
    found.push(normalize(join(dirname(path), specifier)));
  }
  return found;
}

/** The source without its comments (doc examples included). */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(
    /(^|[^:"'`\\])\/\/.*$/gm,
    "$1",
  );
}

async function sources(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (folder: string) => {
    for await (const entry of Deno.readDir(join(ROOT, folder))) {
      const path = folder === "" ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory) {
        if (["lib", "routes", "cli"].includes(path.split("/")[0]!)) {
          await walk(path);
        }
      } else if (path.endsWith(".ts") && layer(path) !== undefined) {
        files.set(path, await Deno.readTextFile(join(ROOT, path)));
      }
    }
  };
  await walk("");
  return files;
}

Deno.test("the domain folders never import lib/http/, and no import runs upward", async () => {
  const files = await sources();
  assert.ok(files.size > 30, `only ${files.size} files found`);
  const broken: string[] = [];
  for (const [path, source] of files) {
    const from = layer(path)!;
    for (const target of importsOf(path, source)) {
      const to = layer(target);
      if (to === undefined) continue;
      if (to > from) broken.push(`${path} imports ${target} (upward)`);
      if (
        DOMAIN.some((folder) => path.startsWith(folder)) &&
        target.startsWith("lib/http/")
      ) {
        broken.push(`${path} imports ${target} (domain into http)`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

/**
 * Reads every module reached from `mod.ts` through `follow`, once each.
 *
 * @returns each module's path and source
 */
async function graphOfMod(
  follow: (path: string, source: string) => string[],
): Promise<Map<string, string>> {
  const seen = new Map<string, string>();
  const visit = async (path: string) => {
    if (seen.has(path)) return;
    const source = await Deno.readTextFile(join(ROOT, path));
    seen.set(path, source);
    for (const target of follow(path, source)) await visit(target);
  };
  await visit("mod.ts");
  return seen;
}

Deno.test("the module graph of mod.ts reaches no Deno.* API", async () => {
  const graph = await graphOfMod(importsOf);
  assert.ok(graph.has("router.ts") && graph.has("lib/pages/page_rules.ts"));
  const reached = [...graph].filter(([, source]) =>
    /\bDeno\s*\.\s*[A-Za-z]/.test(withoutComments(source))
  ).map(([path]) => path);
  assert.deepEqual(reached, []);
});

Deno.test("the Redis store and its npm client are reached only through the ./redis export, never from mod.ts", async () => {
  const graph = await graphOfMod(importsOf);
  assert.ok(graph.has("router.ts"));
  const reached = [...graph].filter(([path, source]) =>
    path.startsWith("lib/kv/") || path.endsWith(".ts") &&
      /["']@redis\/client["']/.test(withoutComments(source))
  ).map(([path]) => path);
  assert.deepEqual(reached, []);
  const deno = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  assert.equal(deno.exports["./redis"], "./lib/kv/redis.ts");
  const redis = withoutComments(
    await Deno.readTextFile(join(ROOT, "lib/kv/redis.ts")),
  );
  assert.match(redis, /import\("@redis\/client"\)/, "loaded at first use");
  assert.doesNotMatch(redis, /\bDeno\s*\./);
});

/**
 * The specifiers a source imports when it is loaded: static imports and
 * re-exports, not `import type`, not `import()`.
 */
function staticSpecifiers(source: string): string[] {
  const pattern =
    /(?:^|[\s;])(?:import|export)\s(?!type\s)[^;]*?from\s*["']([^"']+)["']|^import\s*["']([^"']+)["']/gm;
  return [...withoutComments(source).matchAll(pattern)].map((match) =>
    match[1] ?? match[2] ?? ""
  );
}

/** The one npm package a cold start loads: `@noble/hashes`, for the digests. */
const AT_START = /^@noble\/hashes\//;

Deno.test("a cold start of mod.ts loads no npm package but @noble/hashes, and not node:crypto", async () => {
  // node:crypto brings up the Node compatibility layer: about 40 ms before
  // the first answer; the npm packages other than @noble/hashes (the short
  // digests every request makes) load when a route first needs them (a key
  // check, an upload, a login or publish body, the page rules).
  const graph = await graphOfMod((path, source) =>
    staticSpecifiers(source).filter((specifier) => specifier.startsWith("."))
      .map((specifier) => normalize(join(dirname(path), specifier)))
  );
  assert.ok(graph.has("router.ts") && graph.has("lib/digest.ts"));
  assert.ok(!graph.has("lib/pages/page_rules.ts"), "page rules load lazily");
  // A route's module loads with its first request (routes/lazy_routes.ts),
  // and mapping an error loads no body reader.
  for (
    const lazy of [
      "routes/auth.ts",
      "routes/content.ts",
      "routes/save.ts",
      "routes/upload.ts",
      "routes/session.ts",
      "routes/history.ts",
      "lib/access/admission.ts",
      "lib/access/rate_window.ts",
      "lib/access/session.ts",
      "lib/http/multipart.ts",
      "lib/http/read_capped.ts",
      // The key check (parsing a PHC string needs key_hash_format.ts only)
      // loads with the first key check or hashKey, verifyKey, argon2Hash.
      "lib/access/site_key.ts",
      "lib/access/precompiled_wasm.ts",
      // warnMissingVariables checks the GitHub variables without the client.
      "lib/repository/from_env.ts",
      "lib/repository/github.ts",
      "lib/repository/github_transport.ts",
      "lib/repository/github_commit.ts",
      "lib/repository/github_etags.ts",
      "lib/repository/github_pacing.ts",
      "lib/version.ts",
    ]
  ) assert.ok(!graph.has(lazy), `${lazy} loads lazily`);
  assert.ok(
    graph.has("lib/access/key_hash_format.ts") &&
      graph.has("lib/repository/github_variables.ts"),
    "what warnMissingVariables checks with",
  );
  const loaded = [...graph].flatMap(([path, source]) =>
    staticSpecifiers(source).filter((specifier) =>
      !specifier.startsWith(".") &&
      !/^node:(?!crypto$|zlib$)/.test(specifier) &&
      !AT_START.test(specifier)
    ).map((specifier) => `${path}: ${specifier}`)
  );
  assert.deepEqual(loaded, []);
  assert.deepEqual(
    staticSpecifiers(
      'import type { A } from "zod";\nimport { b } from "node:crypto";\nconst c = await import("hash-wasm");',
    ),
    ["node:crypto"],
  );
  assert.ok(AT_START.test("@noble/hashes/sha2.js") && !AT_START.test("zod"));
});

Deno.test("the rule itself: an upward import and a Deno call are found", () => {
  assert.deepEqual(
    importsOf("lib/pages/x.ts", 'import { a } from "../http/route.ts";'),
    ["lib/http/route.ts"],
  );
  assert.deepEqual(
    importsOf("lib/x.ts", 'const m = await import("./pages/y.ts");'),
    ["lib/pages/y.ts"],
  );
  assert.deepEqual(importsOf("lib/x.ts", '// import "./pages/y.ts";'), []);
  assert.ok(layer("lib/http/route.ts")! > layer("lib/pages/x.ts")!);
  assert.equal(relative(ROOT, join(ROOT, "mod.ts")), "mod.ts");
  assert.match(withoutComments("Deno.env.get('X')"), /Deno\./);
});

/** Every TypeScript source of the given folders, `overlay/dist` left out. */
async function sourcesUnder(
  folders: readonly string[],
): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (folder: string) => {
    for await (const entry of Deno.readDir(join(ROOT, folder))) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory) {
        if (path !== "overlay/dist") await walk(path);
      } else if (path.endsWith(".ts")) {
        files.set(path, await Deno.readTextFile(join(ROOT, path)));
      }
    }
  };
  for (const folder of folders) await walk(folder);
  for (const path of ["mod.ts", "cli.ts", "router.ts"]) {
    files.set(path, await Deno.readTextFile(join(ROOT, path)));
  }
  return files;
}

const POINTER = "lib/wire/pointer.ts";

/** A `~0`/`~1` written in a string, or a `~` replaced: pointer escaping. */
const TOKEN_ESCAPE = /["'`]~[01]|~[01]["'`]|replaceAll\(\s*["'`/]~/;

Deno.test("one JSON Pointer module: the browser code and the server import it, and no other file escapes tokens", async () => {
  const files = await sourcesUnder([
    "lib",
    "routes",
    "cli",
    "client",
    "overlay",
    "regions",
  ]);
  assert.ok(files.has(POINTER));
  const escaping = [...files].filter(([path, source]) =>
    path !== POINTER && TOKEN_ESCAPE.test(withoutComments(source))
  ).map(([path]) => path);
  assert.deepEqual(escaping, []);
  const users = [...files].filter(([path, source]) =>
    importsOf(path, source).includes(POINTER)
  ).map(([path]) => path);
  for (const side of ["client/", "overlay/", "regions/", "lib/"]) {
    assert.ok(
      users.some((path) => path.startsWith(side)),
      `nothing in ${side} imports ${POINTER}`,
    );
  }
  assert.ok(!/\bDeno\s*\./.test(withoutComments(files.get(POINTER)!)));
  assert.ok(TOKEN_ESCAPE.test('key.replaceAll("~", "~0")'));
  assert.ok(TOKEN_ESCAPE.test('part.replaceAll("~1", "/")'));
});

Deno.test("access code throws its own errors: it imports nothing of lib/http/ but the host contract", async () => {
  const files = await sources();
  const access = [...files].filter(([path]) => path.startsWith("lib/access/"));
  assert.ok(access.length > 5);
  const broken = access.flatMap(([path, source]) =>
    importsOf(path, source).filter((target) =>
      target.startsWith("lib/http/") && target !== "lib/http/env.ts"
    ).map((target) => `${path} imports ${target}`)
  );
  assert.deepEqual(broken, []);
  assert.deepEqual(
    importsOf(
      "lib/access/x.ts",
      'import { HttpError } from "../http/http_error.ts";',
    ),
    ["lib/http/http_error.ts"],
  );
});

Deno.test("the markdown engine is pure: it imports itself and markdown-it only, and touches no host or DOM API", async () => {
  const folder = "lib/markdown";
  const broken: string[] = [];
  let files = 0;
  for await (const entry of Deno.readDir(join(ROOT, folder))) {
    if (!entry.name.endsWith(".ts")) continue;
    files++;
    const path = `${folder}/${entry.name}`;
    const source = withoutComments(await Deno.readTextFile(join(ROOT, path)));
    for (const specifier of staticSpecifiers(source)) {
      if (specifier !== "markdown-it" && !/^\.\/[a-z_]+\.ts$/.test(specifier)) {
        broken.push(`${path}: ${specifier}`);
      }
    }
    if (/\b(?:Deno|document|window|navigator)\s*\./.test(source)) {
      broken.push(`${path}: a host or DOM API`);
    }
  }
  assert.ok(files >= 8, `${files} files`);
  assert.deepEqual(broken, []);
});
