// Serves this example in workerd through Miniflare, on a loopback port:
// pages_worker.js with functions/, the Durable Object, the precompiled
// argon2 WebAssembly, and @inpage/editor from node_modules (where
// `npx jsr add @inpage/editor` puts it; the tests put the neutral build
// there). Variables come from the environment; PORT defaults to 8788.

import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { Miniflare } from "miniflare";

const root = fileURLToPath(new URL(".", import.meta.url));

async function files(dir) {
  const found = [];
  for (const entry of await readdir(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...await files(path));
    else if (entry.name.endsWith(".js")) found.push(path);
  }
  return found;
}

const modules = [];
for (
  const path of [
    "pages_worker.js",
    "rate_limit_object.js",
    ...await files("functions"),
  ]
) {
  modules.push({
    type: "ESModule",
    path: join(root, path),
    contents: await readFile(join(root, path), "utf8"),
  });
}
for (const name of ["argon2.wasm", "blake2b.wasm"]) {
  modules.push({
    type: "CompiledWasm",
    path: join(root, name),
    contents: await readFile(join(root, name)),
  });
}
// The package as `npx jsr add @inpage/editor` installs it: every module of
// node_modules/@inpage/editor (its entries and the parts they import when
// first needed).
const editor = join(root, "node_modules/@inpage/editor");
for (const path of await files(relative(root, editor))) {
  modules.push({
    type: "ESModule",
    path: join(root, path),
    contents: await readFile(join(root, path), "utf8"),
  });
}
// workerd resolves a bare specifier beside the importing module: each
// folder of functions/ (and the root) gets a module per export of the
// package that re-exports it.
const { exports } = JSON.parse(
  await readFile(join(editor, "package.json"), "utf8"),
);
const folders = new Set(
  modules.filter(({ path }) => !path.startsWith(editor)).map(({ path }) =>
    relative(root, join(path, ".."))
  ),
);
for (const folder of folders) {
  for (const [name, file] of Object.entries(exports)) {
    const shim = join(root, folder, "@inpage/editor", name);
    const target = relative(join(shim, ".."), join(editor, file));
    modules.push({
      type: "ESModule",
      path: shim,
      contents: `export * from "${
        target.startsWith(".") ? target : `./${target}`
      }";`,
    });
  }
}

const bindings = {};
for (
  const name of [
    "EDITOR_KEY_HASH",
    "EDITOR_CLIENT_IP_HEADER",
    "GITHUB_TOKEN",
    "GITHUB_REPOSITORY",
    "GITHUB_BRANCH",
    "GITHUB_API_URL",
  ]
) {
  if (process.env[name]) bindings[name] = process.env[name];
}

const mf = new Miniflare({
  modules,
  modulesRoot: root,
  compatibilityDate: "2025-07-18",
  compatibilityFlags: ["nodejs_compat"],
  bindings,
  durableObjects: { RATE_LIMIT_OBJECT: "RateLimitObject" },
  host: "127.0.0.1",
  port: Number(process.env.PORT ?? 8788),
});
const url = await mf.ready;
console.log(`Listening on ${url}`);
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => mf.dispose().then(() => process.exit(0)));
}
