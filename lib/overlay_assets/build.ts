/**
 * Builds the loader and the overlay into `overlay/dist/`:
 * `deno task build`. The built files are committed; a test fails when they
 * differ from a fresh build.
 *
 * - `deno bundle` (browser platform, minified, ES modules, code splitting)
 *   makes the loader, the overlay's entry, and one part per dynamic
 *   `import()` (the cropper), each part named by its content hash.
 * - The preview mode of review links (`preview/mode.ts`) is bundled apart,
 *   in one file `preview-{hash}.js` that the loader imports for
 *   `?inpage-preview=`: it shares no chunk with the overlay.
 * - The entry is renamed `overlay-{hash}.js` (the first 12 hex digits of the
 *   SHA-256 of its bytes) and the loader imports it by that name, so every
 *   file but `loader.js` can be cached for good.
 * - Each file gets a gzip (`.gz`, level 9) and a brotli (`.br`, quality 11)
 *   copy when that is smaller, so that serving compresses nothing.
 * - `manifest.json` lists the files with their ETag, their encodings, and
 *   which parts every editor loads (the entry and what it imports
 *   statically) and which load lazily.
 * - `files.ts` holds the manifest and the compressed copies (base64) as a
 *   module, which `serve.ts` imports when a first file is asked for: every
 *   host reaches the files through its module loader (a bundler included),
 *   with no file system or `fetch` of the package's own files.
 *
 * @module
 */

import { fileURLToPath as fromFileUrl } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/**
 * The file a page includes; the only one not named by its hash.
 *
 * @example
 * ```ts
 * import { LOADER } from "./build.ts";
 *
 * console.assert(LOADER === "loader.js");
 * ```
 */
export const LOADER = "loader.js";

/**
 * What `manifest.json` holds.
 *
 * @example
 * ```ts
 * import type { OverlayManifest } from "./build.ts";
 *
 * const manifest: OverlayManifest = JSON.parse(
 *   await Deno.readTextFile(new URL("../../overlay/dist/manifest.json", import.meta.url)),
 * );
 * console.assert(manifest.eager[0] === manifest.entry);
 * ```
 */
export interface OverlayManifest {
  /** The loader's file name (`loader.js`). */
  loader: string;
  /** The overlay's entry, imported by the loader (`overlay-{hash}.js`). */
  entry: string;
  /** The entry and the parts it imports statically: loaded for every editor. */
  eager: string[];
  /** The parts imported with `import()`: loaded only when needed. */
  lazy: string[];
  /** Every file, with its ETag and the encodings it has a copy in. */
  files: Record<string, { etag: string; encodings: ("br" | "gzip")[] }>;
}

const SOURCES = fromFileUrl(new URL("../../overlay/", import.meta.url));

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0"))
    .join("");
}

/** The relative imports of a built file: static and dynamic. */
function importsOf(text: string): { static: string[]; dynamic: string[] } {
  const found = { static: [] as string[], dynamic: [] as string[] };
  for (
    const match of text.matchAll(
      /import\s*\(\s*"\.\/([^"]+)"\s*\)|(?:import|from)\s*"\.\/([^"]+)"/g,
    )
  ) {
    if (match[1] !== undefined) found.dynamic.push(match[1]);
    else if (match[2] !== undefined) found.static.push(match[2]);
  }
  return found;
}

/** The module of the built files, beside them (see {@linkcode filesModule}). */
const FILES_MODULE = "files.ts";

/**
 * The source of `files.ts`: the manifest, and each file's compressed copies
 * in base64 by their stored names (`{name}.br`, `{name}.gz`; `{name}` itself
 * only for a file without a gzip copy, whose bytes are otherwise the gzip
 * copy's, unpacked when a client accepts no encoding).
 */
async function filesModule(
  outDir: string,
  manifest: OverlayManifest,
): Promise<string> {
  const files: Record<string, string> = {};
  for (const [name, { encodings }] of Object.entries(manifest.files)) {
    const stored = encodings.map((encoding) =>
      `${name}.${encoding === "br" ? "br" : "gz"}`
    );
    if (!encodings.includes("gzip")) stored.push(name);
    for (const file of stored) {
      files[file] = btoa(
        Array.from(
          await Deno.readFile(`${outDir}/${file}`),
          (byte) => String.fromCharCode(byte),
        ).join(""),
      );
    }
  }
  return [
    "// Made by `deno task build` (lib/overlay_assets/build.ts); do not edit.",
    "// The overlay's manifest and built files for lib/overlay_assets/serve.ts.",
    "",
    "/** The manifest, as manifest.json beside this module. */",
    "export const MANIFEST: {",
    "  loader: string;",
    "  entry: string;",
    "  eager: string[];",
    "  lazy: string[];",
    '  files: Record<string, { etag: string; encodings: ("br" | "gzip")[] }>;',
    `} = ${JSON.stringify(manifest)};`,
    "",
    "/** Each stored file in base64, by name. */",
    `export const FILES: Readonly<Record<string, string>> = ${
      JSON.stringify(files, null, 1)
    };`,
    "",
  ].join("\n");
}

/** A part `deno bundle` split off, named `{name}-{8 letters or digits}.js`. */
const CHUNK = /^(.+)-[A-Z0-9]{8}\.js$/;

/**
 * Renames every split-off part by the hash of its own bytes, and rewrites the
 * names in the files that import it. `deno bundle` names parts by a hash that
 * also depends on where the sources and the npm cache are on disk, so the
 * same sources built in another folder would give other names; these names
 * depend on the bytes alone. A part is renamed once the parts it names are.
 *
 * @param built the bundled files by name, changed in place
 */
async function renameChunksByContent(built: Map<string, string>) {
  let pending = [...built.keys()].filter((name) => CHUNK.test(name));
  while (pending.length > 0) {
    const ready = pending.filter((name) =>
      !pending.some((other) =>
        other !== name && built.get(name)!.includes(other)
      )
    );
    const next = ready[0] ?? pending[0]!;
    const text = built.get(next)!;
    const hash = (await sha256Hex(new TextEncoder().encode(text))).slice(0, 8)
      .toUpperCase();
    const renamed = `${CHUNK.exec(next)![1]}-${hash}.js`;
    built.delete(next);
    built.set(renamed, text);
    for (const [name, source] of built) {
      if (source.includes(next)) {
        built.set(name, source.replaceAll(next, renamed));
      }
    }
    pending = pending.filter((name) => name !== next);
  }
}

/**
 * A chunk that only defines esbuild's export helper (`__export`): what two
 * parts share when both use it (the helper's export is named in group 3).
 */
const HELPER_ONLY =
  /^var (\w+)=Object\.defineProperty;var (\w+)=\(\w+,\w+\)=>\{for\(var \w+ in \w+\)\1\(\w+,\w+,\{get:\w+\[\w+\],enumerable:!0\}\)\};export\{\2 as (\w+)\};?\s*$/;

/**
 * Inlines the chunks that only define the export helper into the files
 * that import them, and drops them: a file of a hundred bytes is not worth
 * a request, the entry must stay the one file every editor loads (the
 * bundler imports such a chunk from it for the order of evaluation alone),
 * and a lazy part must import no other part (a retry fetches it whole).
 *
 * @param built the bundled files by name, changed in place
 */
function inlineHelperChunks(built: Map<string, string>) {
  for (const [chunk, source] of [...built]) {
    const helper = CHUNK.test(chunk) ? HELPER_ONLY.exec(source) : null;
    if (!helper) continue;
    const named = new RegExp(
      `import\\{${helper[3]} as (\\w+)\\}from"\\./${chunk}";?`,
      "g",
    );
    const inlined = new Map<string, string>();
    for (const [name, text] of built) {
      if (name === chunk) continue;
      inlined.set(
        name,
        text.replaceAll(`import"./${chunk}";`, "").replace(
          named,
          (_, local: string) =>
            `var ${local}=(o,p)=>{for(var k in p)Object.defineProperty(o,k,{get:p[k],enumerable:!0})};`,
        ),
      );
    }
    // Imported some other way: the chunk stays.
    if ([...inlined.values()].some((text) => text.includes(`./${chunk}`))) {
      continue;
    }
    built.delete(chunk);
    for (const [name, text] of inlined) built.set(name, text);
  }
}

/**
 * The preview mode of review links (`overlay/preview/mode.ts`), bundled
 * apart from the overlay in one file: it shares no chunk with the overlay's
 * entry, which stays one file for every editor.
 */
async function bundlePreview(): Promise<string> {
  const result = await new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "--quiet",
      "--platform=browser",
      "--format=esm",
      "--minify",
      `${SOURCES}preview/mode.ts`,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!result.success) {
    throw new Error(
      `deno bundle failed:\n${new TextDecoder().decode(result.stderr)}`,
    );
  }
  return new TextDecoder().decode(result.stdout);
}

/**
 * Bundles the loader and the overlay into a folder, replacing what it holds.
 *
 * @param outDir where the built files go
 * @returns the manifest written beside them
 * @example
 * ```ts ignore
 * import { build } from "./build.ts";
 *
 * const folder = await Deno.makeTempDir();
 * const manifest = await build(folder);
 * console.log(manifest.entry); // overlay-{hash}.js
 * ```
 */
export async function build(
  outDir: string = fromFileUrl(new URL("../../overlay/dist/", import.meta.url)),
): Promise<OverlayManifest> {
  const bundled = await Deno.makeTempDir({ prefix: "overlay-bundle-" });
  try {
    const result = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--quiet",
        "--platform=browser",
        "--format=esm",
        "--minify",
        "--code-splitting",
        "--outdir",
        bundled,
        `${SOURCES}overlay.ts`,
        `${SOURCES}loader.ts`,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!result.success) {
      throw new Error(
        `deno bundle failed:\n${new TextDecoder().decode(result.stderr)}`,
      );
    }
    const built = new Map<string, string>();
    for await (const entry of Deno.readDir(bundled)) {
      if (entry.isFile) {
        built.set(
          entry.name,
          await Deno.readTextFile(`${bundled}/${entry.name}`),
        );
      }
    }
    inlineHelperChunks(built);
    await renameChunksByContent(built);
    const preview = await bundlePreview();
    const overlay = built.get("overlay.js");
    const loader = built.get(LOADER);
    if (overlay === undefined || loader === undefined) {
      throw new Error(`deno bundle made ${[...built.keys()].join(", ")}`);
    }
    const entry = `overlay-${
      (await sha256Hex(new TextEncoder().encode(overlay))).slice(0, 12)
    }.js`;
    built.delete("overlay.js");
    built.set(entry, overlay);
    if (loader.split('"./overlay.js"').length !== 2) {
      throw new Error('the loader must name "./overlay.js" exactly once');
    }
    if (loader.split('"./preview.js"').length !== 2) {
      throw new Error('the loader must name "./preview.js" exactly once');
    }
    const previewName = `preview-${
      (await sha256Hex(new TextEncoder().encode(preview))).slice(0, 12)
    }.js`;
    built.set(previewName, preview);
    built.set(
      LOADER,
      loader.replace('"./overlay.js"', `"./${entry}"`).replace(
        '"./preview.js"',
        `"./${previewName}"`,
      ),
    );
    for (const name of built.keys()) {
      if (
        name !== LOADER && name !== entry && name !== previewName &&
        !/-[A-Z0-9]{8}\.js$/.test(name)
      ) {
        throw new Error(`${name} is not named by its hash`);
      }
    }

    const eager = [entry];
    const lazy: string[] = [];
    for (let index = 0; index < eager.length; index++) {
      const { static: statics, dynamic } = importsOf(
        built.get(eager[index]!) ?? "",
      );
      for (const name of statics) if (!eager.includes(name)) eager.push(name);
      for (const name of dynamic) if (!lazy.includes(name)) lazy.push(name);
    }
    for (let index = 0; index < lazy.length; index++) {
      const { static: statics, dynamic } = importsOf(
        built.get(lazy[index]!) ?? "",
      );
      for (const name of [...statics, ...dynamic]) {
        if (!eager.includes(name) && !lazy.includes(name)) lazy.push(name);
      }
    }

    lazy.push(previewName);
    await Deno.mkdir(outDir, { recursive: true });
    for await (const old of Deno.readDir(outDir)) {
      if (old.isFile) await Deno.remove(`${outDir}/${old.name}`);
    }
    const manifest: OverlayManifest = {
      loader: LOADER,
      entry,
      eager,
      lazy,
      files: {},
    };
    for (const name of [...built.keys()].sort()) {
      const bytes = new TextEncoder().encode(built.get(name));
      await Deno.writeFile(`${outDir}/${name}`, bytes);
      const encodings: ("br" | "gzip")[] = [];
      const br = brotliCompressSync(bytes, {
        params: {
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
        },
      });
      if (br.byteLength < bytes.byteLength) {
        await Deno.writeFile(`${outDir}/${name}.br`, br);
        encodings.push("br");
      }
      const gzip = gzipSync(bytes, { level: 9 });
      if (gzip.byteLength < bytes.byteLength) {
        await Deno.writeFile(`${outDir}/${name}.gz`, gzip);
        encodings.push("gzip");
      }
      manifest.files[name] = {
        etag: `"${(await sha256Hex(bytes)).slice(0, 20)}"`,
        encodings,
      };
    }
    await Deno.writeTextFile(
      `${outDir}/manifest.json`,
      JSON.stringify(manifest, null, 2) + "\n",
    );
    await Deno.writeTextFile(
      `${outDir}/${FILES_MODULE}`,
      await filesModule(outDir, manifest),
    );
    return manifest;
  } finally {
    await Deno.remove(bundled, { recursive: true });
  }
}

if (import.meta.main) {
  const folder = fromFileUrl(new URL("../../overlay/dist/", import.meta.url));
  const manifest = await build(folder);
  for (const name of Object.keys(manifest.files)) {
    const size = (await Deno.stat(`${folder}${name}`)).size;
    const part = manifest.eager.includes(name)
      ? "every editor"
      : manifest.lazy.includes(name)
      ? "lazy"
      : "every page";
    console.log(`overlay/dist/${name}: ${size} bytes (${part})`);
  }
}
