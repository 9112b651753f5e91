/**
 * Page rules as properties, through the router with a real KV and a real
 * folder: for any JSON value, sanitising twice equals sanitising once, and an
 * accepted page reads back and publishes back unchanged (200, the same bytes
 * and so the same version).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { createRouter } from "../../mod.ts";
import { publishSite } from "../support/publish_site.ts";
import { HOME } from "../support/site.ts";
import { propertyRuns } from "../support/runs.ts";

const router = createRouter({ locales: ["en", "fr"] });

/** Strings and keys that meet every rule: markup, links, ids, controls. */
const text = fc.oneof(
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.constantFrom(
    "Hi <strong>there</strong>",
    '<a href="/x" title="t">x</a>',
    "a &amp; b",
    "e\u0301",
    "\u0958",
    "line\r\nend",
    "\u0000x",
    "javascript:alert(1)",
    "/about",
    "https://example.com/",
    "a.jpg",
    "intro",
  ),
);
const key = fc.oneof(
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 8 }),
  fc.constantFrom(
    "id",
    "href",
    "HREF",
    "src",
    "alt",
    "width",
    "title",
    "onclick",
    "x y",
    "a/b",
  ),
);
const value = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    text,
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(key, tie("value"), { maxKeys: 4 }),
  ),
})).value;
const page = fc.dictionary(key, value, { maxKeys: 6 });

Deno.test("an accepted page reads back and publishes back unchanged; publishing what was written changes nothing", async () => {
  await using s = await publishSite(router, "round trip key");
  let version = (await s.read()).body.version as string;
  let accepted = 0;
  await fc.assert(
    fc.asyncProperty(page, async (candidate) => {
      const first = await s.save(JSON.stringify(candidate), version);
      assert.ok(
        [200, 413, 422].includes(first.status),
        `${first.status} ${JSON.stringify(first.body)}`,
      );
      if (first.status !== 200) return;
      accepted++;
      version = first.body.version as string;
      const written = await s.site.read(HOME);
      const read = await s.read();
      assert.equal(read.status, 200);
      assert.equal(read.body.content, written);
      assert.equal(read.body.version, version);
      // Published back unchanged: accepted, same bytes, same version.
      const again = await s.save(read.body.content as string, version);
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.equal(again.body.version, version);
      assert.equal(await s.site.read(HOME), written);
    }),
    { numRuns: propertyRuns(200) },
  );
  assert.ok(accepted > 20, `${accepted} pages accepted`);
});
