import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { build, ENTRIES } from "../../overlay/build.ts";

Deno.test("the committed overlay build is what overlay/build.ts makes from the sources (run deno task build)", async () => {
  const folder = await Deno.makeTempDir({ prefix: "overlay-build-" });
  try {
    await build(folder);
    for (const { output } of ENTRIES) {
      const fresh = await Deno.readTextFile(`${folder}/${output}`);
      const committed = await Deno.readTextFile(
        new URL(`../../overlay/dist/${output}`, import.meta.url),
      );
      assert.ok(
        fresh === committed,
        `overlay/dist/${output} is stale: run npx --yes deno@2.9.6 task build`,
      );
    }
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("the loader is at most 2 KB gzipped and never imports anything statically", async () => {
  const loader = await Deno.readFile(
    new URL("../../overlay/dist/loader.js", import.meta.url),
  );
  assert.ok(gzipSync(loader).byteLength <= 2048);
  const text = new TextDecoder().decode(loader);
  assert.doesNotMatch(text, /^\s*import\s/m);
  assert.match(text, /overlay\.js/);
});
