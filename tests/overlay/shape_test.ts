/**
 * The overlay's shape, checked on its sources:
 *
 * - no function in `overlay/` is longer than 80 lines (measured on the
 *   syntax tree by a lint rule run through `Deno.lint.runPlugin`);
 * - the state (`overlay/state/`) is plain data and pure functions: it
 *   imports no storage, no client, no language table and no view, and
 *   touches neither the DOM nor the browser's storage;
 * - every `data-inpage-*` name is written once, in the region contract
 *   (`lib/wire/regions.ts`): the overlay, the CLI and the regions helper
 *   import it (the loader, which must stay one small file, writes the page
 *   attribute out, checked equal here).
 */
import assert from "node:assert/strict";
import { dirname, join, normalize } from "node:path";
import { INPAGE_ATTRIBUTES } from "../../lib/wire/regions.ts";

const ROOT = normalize(
  join(dirname(new URL(import.meta.url).pathname), "../.."),
);

/** The longest a function of the overlay may be, in lines. */
const MAX_LINES = 80;

/** A lint rule reporting every function longer than {@linkcode MAX_LINES}. */
const FUNCTION_LENGTH: Deno.lint.Plugin = {
  name: "overlay-shape",
  rules: {
    "function-length": {
      create(context) {
        const check = (node: Deno.lint.Node) => {
          const [start, end] = node.range;
          const lines = context.sourceCode.text.slice(start, end).split("\n")
            .length;
          if (lines > MAX_LINES) {
            context.report({ node, message: `${lines} lines` });
          }
        };
        return {
          FunctionDeclaration: check,
          FunctionExpression: check,
          ArrowFunctionExpression: check,
        };
      },
    },
  },
};

/** Every TypeScript source under a folder of the project. */
async function sources(folder: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (at: string) => {
    for await (const entry of Deno.readDir(join(ROOT, at))) {
      const path = `${at}/${entry.name}`;
      if (entry.isDirectory) {
        if (path !== "overlay/dist") await walk(path);
      } else if (path.endsWith(".ts")) {
        files.set(path, await Deno.readTextFile(join(ROOT, path)));
      }
    }
  };
  await walk(folder);
  return files;
}

/** The line of an offset in a source. */
function lineOf(source: string, offset: number): number {
  return source.slice(0, offset).split("\n").length;
}

/** The functions of a source longer than the limit, as `path:line (n lines)`. */
function longFunctions(path: string, source: string): string[] {
  return Deno.lint.runPlugin(FUNCTION_LENGTH, path, source).map((found) =>
    `${path}:${lineOf(source, found.range[0])} (${found.message})`
  );
}

Deno.test("no function in overlay/ is longer than 80 lines", async () => {
  const files = await sources("overlay");
  assert.ok(files.size > 40, `only ${files.size} files found`);
  const long = [...files].flatMap(([path, source]) =>
    longFunctions(path, source)
  );
  assert.deepEqual(long, []);
});

Deno.test("the rule itself: a function of 81 lines is found, one of 80 is not, whatever its form", () => {
  const body = (lines: number) => "\n".repeat(lines - 1);
  assert.deepEqual(
    longFunctions("a.ts", `function a() {${body(80)}}`),
    [],
  );
  assert.equal(longFunctions("a.ts", `function a() {${body(81)}}`).length, 1);
  assert.equal(
    longFunctions("a.ts", `const f = () => {${body(81)}};`).length,
    1,
  );
  assert.equal(
    longFunctions("a.ts", `class A { m() {${body(81)}} }`).length,
    1,
  );
  assert.equal(
    longFunctions("a.ts", `const o = { m: function () {${body(81)}} };`)
      .length,
    1,
  );
});

/** The relative imports of a source, static and dynamic, types included. */
function importsOf(path: string, source: string): string[] {
  const pattern =
    /(?:^|[\s;])(?:import|export)\s[^;]*?from\s*["'](\.{1,2}\/[^"']+)["']|import\s*\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)|^import\s*["'](\.{1,2}\/[^"']+)["']/gm;
  return [...withoutComments(source).matchAll(pattern)].map((match) =>
    normalize(join(dirname(path), match[1] ?? match[2] ?? match[3] ?? ""))
  );
}

/** The imports of a source that load at run time (not `import type`). */
function runtimeImportsOf(path: string, source: string): string[] {
  const pattern =
    /(?:^|[\s;])(?:import|export)\s(?!type\s)[^;]*?from\s*["'](\.{1,2}\/[^"']+)["']|import\s*\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/gm;
  return [...withoutComments(source).matchAll(pattern)].map((match) =>
    normalize(join(dirname(path), match[1] ?? match[2] ?? ""))
  );
}

function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(
    /(^|[^:"'`\\])\/\/.*$/gm,
    "$1",
  );
}

/** What the state may not reach: I/O, words, views. */
const FORBIDDEN_IMPORTS = [
  /^overlay\/i18n\//,
  /^overlay\/messages\.ts$/,
  /^overlay\/views\//,
  /^overlay\/io\//,
  /^overlay\/flows\//,
  /^overlay\/(?:overlay|controller|regions|ui)\.ts$/,
];

/** Browser APIs the state may not touch. */
const FORBIDDEN_APIS =
  /\b(?:localStorage|sessionStorage|indexedDB|BroadcastChannel|navigator|document|fetch)\b/;

Deno.test("the state imports no storage, no client, no language table and no view, and touches no browser API", async () => {
  const files = [...await sources("overlay/state")];
  assert.ok(files.length > 10, `only ${files.length} state modules`);
  const broken: string[] = [];
  for (const [path, source] of files) {
    for (const target of importsOf(path, source)) {
      if (FORBIDDEN_IMPORTS.some((rule) => rule.test(target))) {
        broken.push(`${path} imports ${target}`);
      }
    }
    for (const target of runtimeImportsOf(path, source)) {
      if (target.startsWith("client/")) {
        broken.push(`${path} loads ${target}`);
      }
    }
    const code = withoutComments(source);
    const api = FORBIDDEN_APIS.exec(code);
    if (api) broken.push(`${path} uses ${api[0]}`);
  }
  assert.deepEqual(broken, []);
  // The rule itself.
  assert.ok(
    FORBIDDEN_IMPORTS.some((rule) =>
      importsOf("overlay/state/x.ts", 'import { text } from "../i18n/mod.ts";')
        .some((target) => rule.test(target))
    ),
  );
  assert.deepEqual(
    runtimeImportsOf(
      "overlay/state/x.ts",
      'import type { Client } from "../../client/mod.ts";',
    ),
    [],
  );
  assert.ok(FORBIDDEN_APIS.test("localStorage.getItem(key)"));
});

/** A `data-inpage-…` name written in code (not in a comment). */
const ATTRIBUTE = /["'`[]data-inpage-[a-z]/;

Deno.test("every data-inpage-* name is written once, in the region contract", async () => {
  const files = new Map([
    ...await sources("overlay"),
    ...await sources("cli"),
    ...await sources("regions"),
    ...await sources("client"),
  ]);
  const writing = [...files].filter(([path, source]) =>
    path !== "overlay/loader.ts" && ATTRIBUTE.test(withoutComments(source))
  ).map(([path]) => path);
  assert.deepEqual(writing, []);
  // The loader writes the page attribute out: the same name.
  const loader = files.get("overlay/loader.ts")!;
  const written = [...withoutComments(loader).matchAll(/data-inpage-[a-z-]+/g)]
    .map((match) => match[0]);
  assert.ok(written.length > 0);
  assert.deepEqual(
    [...new Set(written)].filter((name) =>
      !Object.values(INPAGE_ATTRIBUTES).includes(name as never)
    ),
    [],
  );
  assert.ok(ATTRIBUTE.test('querySelector("[data-inpage-page]")'));
});
