/**
 * `deno task eleventy-demo` for real, from a fresh copy: it installs the
 * Eleventy example's packages, starts `eleventy --serve` behind
 * `editor serve --proxy --template-syntax refuse`, prints the URL and a key
 * that logs in, refuses template syntax in a publish, and removes the
 * folder on Ctrl-C.
 *
 * Slow (npm install, eleventy --serve): run by `deno task test-frameworks`.
 */
import { checkDemo } from "./demo_support.ts";

Deno.test("deno task eleventy-demo serves an editable page, refuses template syntax, and cleans up on Ctrl-C", async () => {
  await checkDemo({
    script: "examples/eleventy/demo.ts",
    home: "src/content/pages/en/home.json",
    refused: {
      content: { title: "{{ range.constructor('return 1')() }}" },
      at: "/title",
      reason: "template",
    },
  });
});
