/**
 * The one per-field merge (`lib/wire/merge.ts`), as the server's review
 * publish uses it: a change made from a base, applied onto the page as it
 * is now.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { changedFields, mergePages } from "../../lib/wire/merge.ts";

const base = {
  title: "Home",
  intro: "Hello",
  hero: { src: "sea-0123456789ab.webp", width: 10, height: 10, alt: "Sea" },
  sections: [
    { id: "a", heading: "One", body: "<p>1</p>" },
    { id: "b", heading: "Two", body: "<p>2</p>" },
  ],
};

Deno.test("fields changed on one side each take that side", () => {
  const mine = { ...base, title: "Welcome" };
  const theirs = { ...base, intro: "Hi there" };
  assert.deepEqual(mergePages(base, mine, theirs), {
    ok: true,
    page: { ...base, title: "Welcome", intro: "Hi there" },
  });
});

Deno.test("a field changed on both sides to different values is a clash, and nothing is merged", () => {
  const mine = { ...base, title: "Mine", intro: "Mine too" };
  const theirs = { ...base, title: "Theirs" };
  assert.deepEqual(mergePages(base, mine, theirs), {
    ok: false,
    clashes: ["/title"],
  });
});

Deno.test("a field both sides set to the same value is no clash", () => {
  const both = { ...base, title: "Same" };
  assert.deepEqual(mergePages(base, both, both), { ok: true, page: both });
});

Deno.test("an item's field follows the item only while the list keeps its places", () => {
  const mine = structuredClone(base);
  mine.sections[1]!.heading = "Deux";
  // Theirs edited the other item: both apply.
  const edited = structuredClone(base);
  edited.sections[0]!.body = "<p>one</p>";
  const merged = mergePages(base, mine, edited);
  assert.ok(merged.ok);
  assert.deepEqual(merged.page.sections, [
    { id: "a", heading: "One", body: "<p>one</p>" },
    { id: "b", heading: "Deux", body: "<p>2</p>" },
  ]);
  // Theirs reordered the list: index 1 is another item now, a clash.
  const reordered = { ...base, sections: [base.sections[1], base.sections[0]] };
  assert.deepEqual(mergePages(base, mine, reordered), {
    ok: false,
    clashes: ["/sections/1/heading"],
  });
  // Theirs removed the item: its place is gone.
  const shorter = { ...base, sections: [base.sections[0]] };
  assert.deepEqual(mergePages(base, mine, shorter), {
    ok: false,
    clashes: ["/sections/1/heading"],
  });
});

Deno.test("a list grown or reordered is one field; an image is one field", () => {
  const grown = {
    ...base,
    sections: [...base.sections, { id: "c", heading: "Three", body: "" }],
  };
  assert.deepEqual([...changedFields(base, grown)], [[
    "/sections",
    grown.sections,
  ]]);
  const image = { ...base, hero: { ...base.hero, alt: "The sea" } };
  assert.deepEqual([...changedFields(base, image)], [["/hero", image.hero]]);
  // The image changed on both sides (alt here, src there): a clash.
  const theirs = {
    ...base,
    hero: { ...base.hero, src: "sky-0123456789ab.webp" },
  };
  assert.deepEqual(mergePages(base, image, theirs), {
    ok: false,
    clashes: ["/hero"],
  });
});

Deno.test("a key removed on one side is removed; added keys are added", () => {
  const { intro: _, ...mine } = { ...base, date: "2026-01-01" };
  const theirs = { ...base, title: "Theirs" };
  const merged = mergePages(base, mine, theirs);
  assert.ok(merged.ok);
  assert.equal("intro" in merged.page, false);
  assert.equal(merged.page.date, "2026-01-01");
  assert.equal(merged.page.title, "Theirs");
});

/** Small JSON pages: a few keys, strings, numbers, a list of items with ids. */
const page = fc.record({
  title: fc.constantFrom("Home", "Welcome", "Hi"),
  count: fc.integer({ min: 0, max: 3 }),
  list: fc.array(
    fc.record({
      id: fc.constantFrom("a", "b", "c"),
      text: fc.constantFrom("x", "y"),
    }, { noNullPrototype: true }),
    { maxLength: 3 },
  ),
}, { noNullPrototype: true });

Deno.test("merging onto an unchanged page gives mine; an unchanged mine gives theirs", () => {
  fc.assert(
    fc.property(page, page, (start, other) => {
      assert.deepEqual(mergePages(start, other, start), {
        ok: true,
        page: other,
      });
      assert.deepEqual(mergePages(start, start, other), {
        ok: true,
        page: other,
      });
    }),
  );
});

Deno.test("a merge that succeeds keeps every change of each side where the other did not touch", () => {
  fc.assert(
    fc.property(page, page, page, (start, mine, theirs) => {
      const merged = mergePages(start, mine, theirs);
      if (!merged.ok) return;
      for (const [pointer, value] of changedFields(start, mine)) {
        const kept = changedFields(start, merged.page).get(pointer);
        assert.deepEqual(kept, value, pointer);
      }
    }),
  );
});

Deno.test("a clash with a choice is settled: theirs keeps the value now, mine takes the change's; one without stays a clash", () => {
  const mine = { ...base, title: "Mine", intro: "Hi" };
  const theirs = { ...base, title: "Theirs", intro: "Hey" };
  assert.deepEqual(mergePages(base, mine, theirs), {
    ok: false,
    clashes: ["/title", "/intro"],
  });
  const settled = mergePages(
    base,
    mine,
    theirs,
    new Map([["/title", "mine"], ["/intro", "theirs"]]),
  );
  assert.deepEqual(settled, {
    ok: true,
    page: { ...base, title: "Mine", intro: "Hey" },
  });
  assert.deepEqual(
    mergePages(base, mine, theirs, new Map([["/title", "mine"]])),
    { ok: false, clashes: ["/intro"] },
  );
});

Deno.test("choosing mine for a field whose item moved on the other side leaves it a clash", () => {
  const mine = structuredClone(base);
  mine.sections[0]!.heading = "One (mine)";
  const theirs = { ...base, sections: [base.sections[1]!, base.sections[0]!] };
  const choices = new Map([["/sections/0/heading", "mine" as const]]);
  assert.deepEqual(mergePages(base, mine, theirs, choices), {
    ok: false,
    clashes: ["/sections/0/heading"],
  });
  const kept = mergePages(
    base,
    mine,
    theirs,
    new Map([["/sections/0/heading", "theirs" as const]]),
  );
  assert.deepEqual(kept, { ok: true, page: theirs });
});

Deno.test("a change to an item that theirs replaced clashes, even where the item now in its place holds the same value", () => {
  // Found by the property above (seed -696200538): b's text made "x" here,
  // b replaced by a (text "x") there; the merge kept theirs and lost b's.
  const start = { list: [{ id: "b", text: "y" }] };
  const mine = { list: [{ id: "b", text: "x" }] };
  const theirs = { list: [{ id: "a", text: "x" }] };
  assert.deepEqual(mergePages(start, mine, theirs), {
    ok: false,
    clashes: ["/list/0/text"],
  });
});
