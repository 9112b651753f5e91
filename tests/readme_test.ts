import assert from "node:assert/strict";

const readme = await Deno.readTextFile(
  new URL("../README.md", import.meta.url),
);

Deno.test("the README's entry point is examples/deno-deploy/main.ts, which the tests start for real", async () => {
  const example = await Deno.readTextFile(
    new URL("../examples/deno-deploy/main.ts", import.meta.url),
  );
  const code = example.slice(example.indexOf("import "));
  const block =
    /```ts ignore\n(import \{\s*createRouter,\s*type Env,[\s\S]*?)```/.exec(
      readme,
    )
      ?.[1];
  assert.equal(block, code);
});

Deno.test("the README opens with the two commands that CI runs", async () => {
  const lines = readme.split("\n");
  assert.equal(lines[2], "```sh");
  assert.match(
    lines[3] ?? "",
    /^npx --yes deno@2\.9\.6 task demo /,
  );
  assert.match(lines[4] ?? "", /^npx --yes deno@2\.9\.6 task test /);
  const ci = await Deno.readTextFile(new URL("../.ci/run", import.meta.url));
  assert.match(ci, /^npx --yes deno@2\.9\.6 task test$/m);
});
