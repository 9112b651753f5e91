/**
 * Prints the built overlay's sizes, minified, gzipped and brotli-compressed
 * (the copies `deno task build` commits and the server answers), next to
 * their aims: the loader at most 2 KB gzipped, the parts every editor loads
 * at most 100 KB gzipped together; the lazy parts load only when needed.
 * `npx --yes deno@2.9.6 run -A bench/overlay_size.ts`.
 *
 * @module
 */

const DIST = new URL("../overlay/dist/", import.meta.url);
const manifest = JSON.parse(
  await Deno.readTextFile(new URL("manifest.json", DIST)),
) as { loader: string; eager: string[]; lazy: string[] };

async function size(names: string[], suffix: string): Promise<number> {
  let total = 0;
  for (const name of names) {
    total += (await Deno.stat(new URL(name + suffix, DIST))).size;
  }
  return total;
}

for (
  const [label, names, aim] of [
    ["loader (every page)", [manifest.loader], 2 * 1024],
    ["every editor", manifest.eager, 100 * 1024],
    ["lazy parts", manifest.lazy, undefined],
  ] as const
) {
  const gzipped = await size([...names], ".gz");
  console.log(
    `${label}: ${names.join(", ")}: ${await size(
      [...names],
      "",
    )} bytes minified, ${gzipped} bytes gzipped (${
      (gzipped / 1024).toFixed(1)
    } KB${
      aim === undefined
        ? ""
        : `; aim ${aim / 1024} KB: ${gzipped <= aim ? "met" : "over"}`
    }), ${await size([...names], ".br")} bytes brotli`,
  );
}
