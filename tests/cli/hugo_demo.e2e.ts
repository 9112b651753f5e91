/**
 * `deno task hugo-demo` for real, from a fresh copy: it starts `hugo server`
 * behind `editor serve --proxy --template-syntax refuse`, prints the URL and
 * a key that logs in, refuses template syntax in a publish, and removes the
 * folder on Ctrl-C.
 *
 * Run by `deno task test-frameworks`.
 */
import { checkDemo } from "./demo_support.ts";

Deno.test("deno task hugo-demo serves an editable page, refuses template syntax, and cleans up on Ctrl-C", async () => {
  await checkDemo({
    script: "examples/hugo/demo.ts",
    home: "src/content/pages/en/home.json",
    refused: {
      content: { title: "{{ .Site.Params.secret }}" },
      at: "/title",
      reason: "template",
    },
  });
});
