/**
 * The recipes in `docs/` are the tested examples: every code block marked
 * `<!-- excerpt: path -->` (then `<!-- deno-fmt-ignore -->` for a language
 * `deno fmt` would reformat) is a verbatim part of that file of the
 * repository (an example's template, configuration or page file, its
 * lines indented alike), so a
 * change to the example that the guide does not follow fails here.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";

const ROOT = new URL("../", import.meta.url).pathname;

async function markdownFiles(folder: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(folder)) {
    const path = join(folder, entry.name);
    if (entry.isDirectory) found.push(...await markdownFiles(path));
    else if (entry.name.endsWith(".md")) found.push(path);
  }
  return found.sort();
}

/** Each marked block of a markdown text: the file it quotes, and its lines. */
function excerpts(text: string): { file: string; code: string }[] {
  const found: { file: string; code: string }[] = [];
  const pattern =
    /<!-- excerpt: (\S+) -->\n+(?:<!-- deno-fmt-ignore -->\n+)?(`{3,})[^\n]*\n([\s\S]*?)\n\2/g;
  for (const match of text.matchAll(pattern)) {
    found.push({ file: match[1]!, code: match[3]! });
  }
  return found;
}

/**
 * Whether a file holds the lines of an excerpt, in order, each indented by
 * the same prefix (markdown code blocks lose their common indentation).
 */
function holds(source: string, code: string): boolean {
  const lines = source.split("\n");
  const wanted = code.split("\n");
  for (let start = 0; start < lines.length; start++) {
    const first = lines[start]!;
    if (!first.endsWith(wanted[0]!)) continue;
    const prefix = first.slice(0, first.length - wanted[0]!.length);
    if (prefix.trim() !== "") continue;
    if (
      wanted.every((line, i) => {
        const actual = lines[start + i];
        return actual === prefix + line || (line === "" && actual === "");
      })
    ) return true;
  }
  return false;
}

Deno.test("every excerpt in docs/ is a verbatim part of the file it names", async () => {
  let count = 0;
  for (const path of await markdownFiles(join(ROOT, "docs"))) {
    const text = await Deno.readTextFile(path);
    const marks = text.match(/<!-- excerpt: /g)?.length ?? 0;
    const found = excerpts(text);
    const doc = relative(ROOT, path);
    assert.equal(found.length, marks, `${doc}: a mark without its code block`);
    for (const { file, code } of found) {
      const source = await Deno.readTextFile(join(ROOT, file));
      assert.ok(
        holds(source, code),
        `${doc} quotes ${file}, which no longer holds:\n${code}`,
      );
      count++;
    }
  }
  assert.ok(count >= 10, `${count} excerpts`);
});

Deno.test("the excerpt rule itself: a mark and its block are found, a changed line is not in the file", () => {
  const text =
    "<!-- excerpt: a.txt -->\n\n```js\nconst a = 1;\n```\n\nno mark\n```\nx\n```\n" +
    "<!-- excerpt: b.txt -->\n<!-- deno-fmt-ignore -->\n```js\n  b\n```\n";
  assert.deepEqual(excerpts(text), [
    { file: "a.txt", code: "const a = 1;" },
    { file: "b.txt", code: "  b" },
  ]);
  assert.ok(holds("x\n  <a>\n    <b>\n  </a>\n", "<a>\n  <b>\n</a>"));
  assert.ok(!holds("x\n  <a>\n   <b>\n  </a>\n", "<a>\n  <b>\n</a>"));
});
