/**
 * `deno task astro-demo` for real: it copies the Astro example to a
 * temporary git repository, installs its packages, starts `astro dev` behind
 * `editor serve --proxy`, prints the URL and a key that logs in, and removes
 * the folder on Ctrl-C (SIGINT).
 *
 * Slow (npm install, astro dev): run by `deno task test-astro`.
 */
import { checkDemo } from "./demo_support.ts";

Deno.test("deno task astro-demo prints a URL and a key that work, and cleans up on Ctrl-C", async () => {
  await checkDemo({
    script: "examples/astro/demo.ts",
    home: "src/content/pages/en/home.json",
  });
});
