/**
 * The public corpora through the router: XSS payloads in page strings,
 * traversal payloads as paths, JSONTestSuite files as content, and hostile
 * shapes. Every request is a real Request through `router.handle()`, with a
 * real KV and a real folder on disk.
 */
import assert from "node:assert/strict";
import { Parser } from "htmlparser2";
import { parseFragment } from "parse5";
import { createRouter } from "../../mod.ts";
import type { Repository } from "../../mod.ts";
import {
  answer,
  from,
  login,
  ORIGIN,
  postJson,
  readRequest,
} from "../support/helpers.ts";
import { HOME, siteEnv } from "../support/site.ts";
import { ALLOWED_TAGS } from "../support/allowlist.ts";
import { CORPORA, corpusFiles } from "../support/corpora.ts";

const router = createRouter({ locales: ["en", "fr"] });
const KEY = "corpus key";

/** A real local checkout that also counts the calls made to it. */
function counting(inner: Repository) {
  const calls = { read: 0, write: 0 };
  const repository: Repository = {
    read: (path) => (calls.read++, inner.read(path)),
    write: (
      path,
      content,
      expected,
      message,
    ) => (calls.write++, inner.write(path, content, expected, message)),
  };
  return { repository, calls };
}

async function setup() {
  let calls = { read: 0, write: 0 };
  const base = await siteEnv(KEY, {
    commit: false,
    repository: (checkout) => {
      const counted = counting(checkout);
      calls = counted.calls;
      return counted.repository;
    },
  });
  const { site, env } = base;
  const cookie = await login(router.handle, env, KEY);
  let sent = 0;
  // A new client every 25 requests keeps each under its rate budget.
  const client = () => {
    const n = Math.floor(sent++ / 25);
    return from(`10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`);
  };
  return {
    site,
    env,
    calls,
    save: (body: unknown) =>
      router.handle(postJson("/api/save", body, { cookie }), env, client()),
    read: (query: string) =>
      router.handle(
        readRequest(query, cookie),
        env,
        client(),
      ),
    [Symbol.asyncDispose]: () => base[Symbol.asyncDispose](),
  };
}

interface TreeNode {
  nodeName: string;
  attrs?: { name: string }[];
  childNodes?: TreeNode[];
  content?: TreeNode;
}

/** Tags, attributes and comments outside the allowlist in a parse5 tree. */
function treeProblems(node: TreeNode): string[] {
  const problems: string[] = [];
  const stack: TreeNode[] = [...(node.childNodes ?? [])];
  while (stack.length > 0) {
    const current = stack.pop() as TreeNode;
    const name = current.nodeName;
    if (name === "#comment") problems.push("comment (tree)");
    else if (!name.startsWith("#")) {
      if (!ALLOWED_TAGS.has(name)) problems.push(`tag ${name} (tree)`);
      for (const { name: attribute } of current.attrs ?? []) {
        if (name !== "a" || (attribute !== "href" && attribute !== "title")) {
          problems.push(`attribute ${attribute} on ${name} (tree)`);
        }
      }
    }
    stack.push(...(current.childNodes ?? []));
    if (current.content) stack.push(current.content);
  }
  return problems;
}

async function lines(folder: string): Promise<string[]> {
  const out: string[] = [];
  for await (const { name, text } of corpusFiles(folder)) {
    if (!name.endsWith(".txt")) continue;
    out.push(...text.split(/\r?\n/).filter((line) => line.length > 0));
  }
  return out;
}

async function tree(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.name === ".git") continue;
      out.push(`${dir}/${entry.name}`);
      if (entry.isDirectory) await walk(`${dir}/${entry.name}`);
    }
  };
  await walk(root);
  return out.sort();
}

Deno.test("every DOMPurify payload that DOMPurify changes is refused with 422 in a page string", async () => {
  await using s = await setup();
  const cases: { payload: string; expected: string | string[] }[] = JSON.parse(
    await Deno.readTextFile(new URL("xss/dompurify.json", CORPORA)),
  );
  assert.equal(cases.length, 223);
  let changed = 0;
  for (const { payload, expected } of cases) {
    const differs = Array.isArray(expected)
      ? !expected.includes(payload)
      : expected !== payload;
    if (!differs) continue;
    changed++;
    const { status, body } = await answer(
      await s.save({
        path: HOME,
        content: JSON.stringify({ title: "T", body: payload }),
        version: "",
      }),
    );
    assert.equal(status, 422, payload);
    assert.equal((body as { at: string }).at, "/body", payload);
  }
  assert.ok(
    changed > 150,
    `${changed} payloads differ from DOMPurify's output`,
  );
  assert.equal(s.calls.write, 0);
});

Deno.test("every PayloadsAllTheThings XSS line is refused or written with nothing outside the allowlist, by two other parsers", async () => {
  await using s = await setup();
  const payloads = await lines("xss/payloadsallthethings");
  assert.ok(payloads.length > 2_500, `${payloads.length} lines`);
  let refused = 0;
  let written = 0;
  for (const [index, payload] of payloads.entries()) {
    const path = `src/content/pages/en/xss-${index}.json`;
    const response = await s.save({
      path,
      content: JSON.stringify({ body: payload, link: { text: payload } }),
      version: "",
    });
    const { status } = await answer(response);
    assert.ok(status === 200 || status === 422, `${status} for ${payload}`);
    if (status === 422) {
      refused++;
      continue;
    }
    written++;
    const file = JSON.parse(await s.site.read(path) ?? "null");
    for (const text of [file.body, file.link.text] as string[]) {
      const problems: string[] = [];
      const parser = new Parser({
        onopentag(name, attributes) {
          if (!ALLOWED_TAGS.has(name)) problems.push(`tag ${name}`);
          for (const attribute of Object.keys(attributes)) {
            if (
              name !== "a" || (attribute !== "href" && attribute !== "title")
            ) {
              problems.push(`attribute ${attribute} on ${name}`);
            }
          }
        },
        oncomment: () => void problems.push("comment"),
        onprocessinginstruction: (name) =>
          void problems.push(`instruction ${name}`),
        oncdatastart: () => void problems.push("cdata"),
      }, {
        decodeEntities: true,
        lowerCaseTags: true,
        lowerCaseAttributeNames: true,
      });
      parser.write(text);
      parser.end();
      // And the tree a browser builds (parse5 follows the HTML standard's
      // tree construction; the page rules tokenize with htmlparser2).
      problems.push(...treeProblems(parseFragment(text)));
      assert.deepEqual(problems, [], `written: ${text}`);
    }
  }
  assert.equal(refused + written, payloads.length);
  assert.ok(refused > written, `refused ${refused}, written ${written}`);
});

Deno.test("every traversal payload as a path gets 400, raw and percent-encoded, and reads or writes nothing", async () => {
  await using s = await setup();
  const raw = await lines("traversal/payloadsallthethings");
  const payloads = [
    ...new Set(raw.map((line) => line.replaceAll("{FILE}", "etc/passwd"))),
  ];
  assert.ok(payloads.length > 20_000, `${payloads.length} payloads`);
  const before = await tree(s.site.root);
  const outside = await tree(`${s.site.root}/..`);
  let requests = 0;
  for (const payload of payloads) {
    const encoded = encodeURIComponent(payload);
    for (const query of [encoded, encodeURIComponent(encoded)]) {
      const { status, body } = await answer(await s.read(query));
      assert.equal(status, 400, `content path ${query}`);
      assert.deepEqual(body, { error: "bad_request" });
      requests++;
    }
    for (const path of [payload, encoded]) {
      const { status } = await answer(
        await s.save({ path, content: "{}", version: "" }),
      );
      assert.equal(status, 400, `save path ${path}`);
      requests++;
    }
  }
  // The raw lines straight in the URL, as an attacker would send them.
  for (const payload of payloads.slice(0, 3_000)) {
    let request: Request;
    try {
      request = new Request(`${ORIGIN}/api/content?path=${payload}`);
    } catch {
      continue;
    }
    const response = await router.handle(request, s.env, from("10.255.255.1"));
    assert.ok(
      [400, 401, 429].includes(response.status),
      `${response.status} for ${payload}`,
    );
    await response.body?.cancel();
  }
  assert.deepEqual(s.calls, { read: 0, write: 0 });
  assert.deepEqual(await tree(s.site.root), before);
  assert.deepEqual(await tree(`${s.site.root}/..`), outside);
  assert.ok(requests > 80_000);
});

Deno.test("every JSONTestSuite file as content gives 200 or 422 (413 past the cap), never a 500, each within a second", async () => {
  await using s = await setup();
  const counts: Record<string, number> = {};
  let index = 0;
  for await (
    const { name, text: content } of corpusFiles("json/test_parsing/")
  ) {
    const started = performance.now();
    const response = await s.save({
      path: `src/content/pages/en/json-${index++}.json`,
      content,
      version: "",
    });
    const { status } = await answer(response);
    const elapsed = performance.now() - started;
    assert.ok(elapsed < 1_000, `${name} took ${elapsed} ms`);
    const expected = new TextEncoder().encode(content).length > 100_000
      ? [413]
      : name.startsWith("n_")
      ? [422]
      : [200, 422];
    assert.ok(expected.includes(status), `${name}: ${status}`);
    counts[status] = (counts[status] ?? 0) + 1;
  }
  assert.equal(index, 318);
  assert.equal(
    counts[413],
    1,
    "n_structure_open_array_object.json is 250,001 bytes",
  );
  assert.ok((counts[200] ?? 0) > 0 && (counts[422] ?? 0) > 188);
});

Deno.test("a page nested 100,000 levels deep and a page with 100,000 ids are refused quickly", async () => {
  await using s = await setup();
  const cases: [string, string, number[]][] = [
    [
      "arrays 100,000 deep",
      `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
      [413],
    ],
    ["arrays 49,990 deep", `{"a":${"[".repeat(49_990)}${"]".repeat(49_990)}}`, [
      422,
    ]],
    [
      "objects 12,000 deep",
      `{"a":${'{"a":'.repeat(12_000)}1${"}".repeat(12_000)}}`,
      [422],
    ],
    [
      "100,000 ids",
      JSON.stringify({
        items: Array.from({ length: 100_000 }, (_, i) => ({ id: `i${i}` })),
      }),
      [413],
    ],
    [
      "2,000 ids",
      JSON.stringify({
        items: Array.from({ length: 2_000 }, (_, i) => ({ id: `i${i}` })),
      }),
      // Passes every page rule; the stale version then gives 409.
      [409],
    ],
    [
      "5,000 ids, one repeated",
      JSON.stringify({
        items: Array.from(
          { length: 5_000 },
          (_, i) => ({ id: i === 4_999 ? "i0" : `i${i}` }),
        ),
      }),
      [422],
    ],
  ];
  for (const [name, content, expected] of cases) {
    const started = performance.now();
    const { status } = await answer(
      await s.save({ path: HOME, content, version: "x" }),
    );
    const elapsed = performance.now() - started;
    assert.ok(expected.includes(status), `${name}: ${status}`);
    assert.ok(elapsed < 1_000, `${name} took ${elapsed} ms`);
  }
});
