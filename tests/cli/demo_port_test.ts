/**
 * Every demo takes `--port` the same way: 0 picks a free port, a taken port
 * or a bad one is said in one line (no stack trace) with exit code 1, before
 * anything is copied or installed.
 */
import assert from "node:assert/strict";
import { listenProblem, parseDemoArgs } from "../../examples/demo_args.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

async function run(args: string[]) {
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** The temporary folders the demos make, to see that none is left. */
async function demoFolders(): Promise<string[]> {
  const names: string[] = [];
  const tmp = Deno.env.get("TMPDIR") ?? "/tmp";
  for await (const entry of Deno.readDir(tmp)) {
    if (/^inpage-(demo|astro|eleventy|hugo)-/.test(entry.name)) {
      names.push(entry.name);
    }
  }
  return names.sort();
}

const commands: [string, string[]][] = [
  ["demo", ["task", "--quiet", "demo"]],
  ["astro-demo", ["run", "-A", "examples/astro/demo.ts"]],
  ["eleventy-demo", ["run", "-A", "examples/eleventy/demo.ts"]],
  ["hugo-demo", ["run", "-A", "examples/hugo/demo.ts"]],
];

Deno.test("deno task demo, astro-demo, eleventy-demo and hugo-demo say a taken port in one line and exit 1, copying nothing", async () => {
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = taken.addr as Deno.NetAddr;
  try {
    const before = await demoFolders();
    for (const [name, command] of commands) {
      const result = await run([...command, "--port", String(port)]);
      assert.equal(result.code, 1, name);
      assert.equal(
        result.stderr,
        `${name}: Port ${port} is in use on 127.0.0.1: pass --port with another one (0 picks a free port)\n`,
      );
      assert.equal(result.stdout, "", name);
    }
    assert.deepEqual(await demoFolders(), before);
  } finally {
    taken.close();
  }
});

Deno.test("deno task demo, astro-demo, eleventy-demo and hugo-demo refuse a port that is not a number, with the usage", async () => {
  for (const [name, command] of commands) {
    const result = await run([...command, "--port", "80a"]);
    assert.equal(result.code, 1, name);
    assert.match(
      result.stderr,
      new RegExp(
        `^${name}: --port must be a whole number from 0 to 65535\n\nUsage: deno task ${name} \\[--port 8787\\]`,
      ),
    );
    assert.doesNotMatch(result.stderr, /\n\s+at /);
  }
});

Deno.test("the demos' options: --port 0 picks a free port, and a bad value is one line", () => {
  assert.deepEqual(parseDemoArgs([]), {
    port: 8787,
    hostname: "127.0.0.1",
    help: false,
  });
  assert.deepEqual(parseDemoArgs(["--port", "0"]), {
    port: 0,
    hostname: "127.0.0.1",
    help: false,
  });
  assert.deepEqual(parseDemoArgs(["--port=4000", "--hostname", "::1"]), {
    port: 4000,
    hostname: "::1",
    help: false,
  });
  for (const bad of ["-1", "65536", "1e3", "", " 80", "0x50"]) {
    assert.equal(
      parseDemoArgs([`--port=${bad}`]),
      "--port must be a whole number from 0 to 65535",
      bad,
    );
  }
  assert.equal(typeof parseDemoArgs(["--nope"]), "string");
  assert.equal(listenProblem("127.0.0.1", 0), undefined);
});
