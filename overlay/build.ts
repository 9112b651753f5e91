/**
 * Builds the loader and the overlay into `overlay/dist/` with
 * `deno bundle` (browser platform, minified, one ES module each):
 * `deno task build`. The built files are committed; a test fails when they
 * differ from a fresh build.
 *
 * @module
 */

import { fileURLToPath as fromFileUrl } from "node:url";

/** The entry points and the file each one is built into. */
export const ENTRIES: ReadonlyArray<{ source: string; output: string }> = [
  { source: "loader.ts", output: "loader.js" },
  { source: "overlay.ts", output: "overlay.js" },
];

/**
 * Bundles every entry point into a folder.
 *
 * @param outDir where the built files go
 * @returns the paths written
 */
export async function build(
  outDir: string = fromFileUrl(new URL("./dist/", import.meta.url)),
): Promise<string[]> {
  await Deno.mkdir(outDir, { recursive: true });
  const written: string[] = [];
  for (const { source, output } of ENTRIES) {
    const target = `${outDir.replace(/\/$/, "")}/${output}`;
    const result = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--quiet",
        "--platform=browser",
        "--format=esm",
        "--minify",
        "--output",
        target,
        fromFileUrl(new URL(source, import.meta.url)),
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!result.success) {
      throw new Error(
        `deno bundle ${source} failed:\n${
          new TextDecoder().decode(result.stderr)
        }`,
      );
    }
    written.push(target);
  }
  return written;
}

if (import.meta.main) {
  for (const path of await build()) {
    const size = (await Deno.stat(path)).size;
    console.log(`${path}: ${size} bytes`);
  }
}
