// Writes hash-wasm's argon2 and blake2b WebAssembly beside this file, as
// argon2.wasm and blake2b.wasm, for functions/_middleware.js to import:
// workerd runs WebAssembly compiled at deploy time, never compiled at run
// time. Run by `npm install` (postinstall); the hash-wasm version must be
// the one @inpage/editor uses (4.13.0).

import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const source = await readFile(
  require.resolve("hash-wasm/dist/index.esm.js"),
  "utf8",
);
for (const name of ["argon2", "blake2b"]) {
  const found = new RegExp(
    `var name\\$(\\w+) = "${name}";\\s*var data\\$\\1 = "([A-Za-z0-9+/=]+)"`,
  ).exec(source);
  if (!found) throw new Error(`hash-wasm holds no ${name} WebAssembly`);
  const bytes = Buffer.from(found[2], "base64");
  await writeFile(new URL(`./${name}.wasm`, import.meta.url), bytes);
}
