/**
 * What `/api/save` writes is what was sent and can be published again:
 * numbers keep their value or the page is refused, and a page whose written
 * bytes would exceed 100,000 is refused with 413 and nothing written.
 */
import assert from "node:assert/strict";
import { createRouter } from "../../mod.ts";
import { publishSite } from "../support/publish_site.ts";
import { HOME, HOME_TEXT } from "../support/site.ts";

const router = createRouter({ locales: ["en", "fr"] });
const KEY = "written key";

/** A page of 31 nested objects holding a list of zeros, written 32 deep. */
function nestedPage(zeros: number): string {
  const list = `[${Array(zeros).fill("0").join(",")}]`;
  return '{"a":'.repeat(31) + list + "}".repeat(31);
}

Deno.test("save answers 413 and writes nothing when the page it would write is over 100,000 bytes", async () => {
  await using s = await publishSite(router, KEY);
  const { version } = (await s.read()).body as { version: string };
  const nested = nestedPage(3_000);
  assert.ok(nested.length < 6_200, `${nested.length} bytes sent`);
  const devanagari = JSON.stringify({ t: "\u0958".repeat(33_000) });
  assert.equal(new TextEncoder().encode(devanagari).byteLength, 99_008);
  for (const content of [nested, devanagari]) {
    const { status, body } = await s.save(content, version);
    assert.equal(status, 413);
    assert.deepEqual(body, { error: "too_large" });
  }
  assert.equal(await s.site.read(HOME), HOME_TEXT, "nothing written");
  assert.equal(await s.site.commitCount(), 1);
});

Deno.test("save writes a page of exactly 100,000 bytes and refuses one byte more", async () => {
  await using s = await publishSite(router, KEY);
  let { version } = (await s.read()).body as { version: string };
  // Written as {\n  "t": "…"\n}\n: 14 bytes around the text.
  const exact = await s.save(
    JSON.stringify({ t: "x".repeat(100_000 - 14) }),
    version,
  );
  assert.equal(exact.status, 200);
  version = exact.body.version as string;
  assert.equal(
    new TextEncoder().encode(await s.site.read(HOME)).byteLength,
    100_000,
  );
  const over = await s.save(
    JSON.stringify({ t: "x".repeat(100_000 - 13) }),
    version,
  );
  assert.equal(over.status, 413);
  // What was written reads back and publishes back unchanged.
  const read = await s.read();
  assert.equal(read.status, 200);
  const again = await s.save(read.body.content as string, version);
  assert.equal(again.status, 200);
  assert.equal(again.body.version, version, "the same bytes, the same blob");
});

Deno.test("save refuses with 422, reason number and at, a number whose value parsing changes", async () => {
  await using s = await publishSite(router, KEY);
  const cases: [string, string][] = [
    ['{"n":12345678901234567890}', "/n"],
    ['{"a":[1,0.1e-400]}', "/a/1"],
    ['{"a":{"b~":1e400}}', "/a/b~0"],
    ['{"x":-1.7976931348623159e308}', "/x"],
    ['{"x":9007199254740993}', "/x"],
    ['{"x":0.10000000000000000555}', "/x"],
    ['{"x":1e-400}', "/x"],
    ['{"x":"1e-400","y":[{"z":2.0000000000000000001}]}', "/y/0/z"],
    [`{"x":0.${"0".repeat(400)}1}`, "/x"],
    [`{"x":1${"0".repeat(400)}}`, "/x"],
  ];
  for (const [content, at] of cases) {
    const { status, body } = await s.save(content, "");
    assert.equal(status, 422, content);
    assert.deepEqual(
      body,
      {
        error: "invalid_content",
        at,
        reason: "number",
        problems: [{ at, reason: "number" }],
      },
      content,
    );
  }
  assert.equal(await s.site.read(HOME), HOME_TEXT, "nothing written");
});

Deno.test("save accepts every number that keeps its value, written in its shortest form", async () => {
  await using s = await publishSite(router, KEY);
  let { version } = (await s.read()).body as { version: string };
  const numbers: [string, number][] = [
    ["1.0", 1],
    ["1e0", 1],
    ["100e-2", 1],
    ["-0", 0],
    ["0e999", 0],
    ["0.000e-5", 0],
    ["1e308", 1e308],
    ["5e-324", 5e-324],
    ["9007199254740992", 9007199254740992],
    ["12345678901234567000", 12345678901234567000],
    ["0.30000000000000004", 0.30000000000000004],
    ["123456789012345.6", 123456789012345.6],
    ["1.5E-7", 1.5e-7],
    ["1e21", 1e21],
    ["-2.5e+3", -2500],
  ];
  for (const [text, value] of numbers) {
    const { status, body } = await s.save(`{"n":${text}}`, version);
    assert.equal(status, 200, text);
    version = body.version as string;
    assert.equal(
      await s.site.read(HOME),
      JSON.stringify({ n: value }, null, 2) + "\n",
      text,
    );
  }
});
