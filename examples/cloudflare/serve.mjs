// Serves this example in workerd through Miniflare, on a loopback port:
// pages_worker.js with functions/, the Durable Object, the precompiled
// argon2 WebAssembly, and @inpage/editor from node_modules (where
// `npx jsr add @inpage/editor` puts it; the tests put the neutral bundle
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
// workerd resolves a bare specifier beside the importing module: the
// package sits at the root, and each folder of functions/ re-exports it.
const folders = new Set(
  modules.map(({ path }) => relative(root, join(path, ".."))),
);
for (const folder of folders) {
  if (folder === "") continue;
  const up = "../".repeat(folder.split("/").length + 1);
  modules.push({
    type: "ESModule",
    path: join(root, folder, "@inpage/editor"),
    contents: `export * from "${up}@inpage/editor";`,
  });
}
const editor = join(root, "node_modules/@inpage/editor");
const { exports } = JSON.parse(
  await readFile(join(editor, "package.json"), "utf8"),
);
modules.push({
  type: "ESModule",
  path: join(root, "@inpage/editor"),
  contents: await readFile(join(editor, exports["."]), "utf8"),
});

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
