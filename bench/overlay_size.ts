/**
 * Prints the built loader's and overlay's sizes, minified and gzipped, next
 * to their aims (loader at most 2 KB gzipped, overlay at most 120 KB):
 * `npx --yes deno@2.9.6 run -A bench/overlay_size.ts`.
 *
 * @module
 */

import { gzipSync } from "node:zlib";

const AIMS: Record<string, number> = {
  "loader.js": 2 * 1024,
  "overlay.js": 120 * 1024,
};

for (const [file, aim] of Object.entries(AIMS)) {
  const bytes = await Deno.readFile(
    new URL(`../overlay/dist/${file}`, import.meta.url),
  );
  const gzipped = gzipSync(bytes, { level: 9 }).byteLength;
  console.log(
    `${file}: ${bytes.byteLength} bytes minified, ${gzipped} bytes gzipped (${
      (gzipped / 1024).toFixed(1)
    } KB; aim ${aim / 1024} KB: ${gzipped <= aim ? "met" : "over"})`,
  );
}
