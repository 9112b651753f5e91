import assert from "node:assert/strict";
import {
  compareFields,
  keepMine,
  resolveFields,
} from "../../overlay/state/merge.ts";
import { sameValue } from "../../overlay/state/values.ts";

const base = {
  title: "Home",
  sections: [{ id: "a", heading: "One", body: "<p>x</p>" }],
  image: { src: "a-000000000000.png", width: 10, height: 10, alt: "" },
};

Deno.test("keep mine re-applies only this person's fields onto the fresh version", () => {
  const fresh = { ...base, title: "Their title" };
  const result = keepMine(
    base,
    fresh,
    new Map([["/sections/0/heading", "Mine"]]),
  );
  assert.deepEqual(result, {
    ok: true,
    page: {
      ...base,
      title: "Their title",
      sections: [{ id: "a", heading: "Mine", body: "<p>x</p>" }],
    },
  });
});

Deno.test("keep mine refuses a field changed on both sides, and names it", () => {
  const fresh = { ...base, title: "Their title" };
  const result = keepMine(
    base,
    fresh,
    new Map<string, unknown>([["/title", "My title"], ["/image", {
      ...base.image,
      alt: "x",
    }]]),
  );
  assert.deepEqual(result, { ok: false, clashes: ["/title"] });
});

Deno.test("keep mine accepts a field both sides set to the same value, and refuses one whose place is gone", () => {
  assert.equal(
    keepMine(base, { ...base, title: "Same" }, new Map([["/title", "Same"]]))
      .ok,
    true,
  );
  assert.deepEqual(
    keepMine(
      base,
      { ...base, sections: [] },
      new Map([["/sections/0/heading", "Mine"]]),
    ),
    { ok: false, clashes: ["/sections/0/heading"] },
  );
});

Deno.test("sameValue compares JSON deeply", () => {
  assert.ok(sameValue({ a: [1, { b: "c" }] }, { a: [1, { b: "c" }] }));
  assert.ok(!sameValue({ a: [1] }, { a: [1, 2] }));
  assert.ok(!sameValue({ a: 1 }, { b: 1 }));
  assert.ok(!sameValue([], {}));
  assert.ok(!sameValue(null, {}));
});

Deno.test("the three-way comparison: one side's change is taken, a clash waits for a choice, a field whose place is gone keeps theirs", () => {
  const mine = new Map<string, unknown>([
    ["/title", "My title"],
    ["/sections/0/heading", "Mine"],
    ["/sections/1/heading", "Gone"],
  ]);
  const theirs = { ...base, title: "Their title" };
  const fields = compareFields(base, mine, theirs);
  assert.deepEqual(fields.map((f) => [f.pointer, f.clash, f.gone]), [
    ["/title", true, false],
    ["/sections/0/heading", false, false],
    ["/sections/1/heading", true, true],
  ]);
  assert.deepEqual(resolveFields(fields), {
    ok: false,
    undecided: ["/title"],
  });
  assert.deepEqual(resolveFields(fields, new Map([["/title", "mine"]])), {
    ok: true,
    changes: new Map([["/title", "My title"], ["/sections/0/heading", "Mine"]]),
  });
  assert.deepEqual(resolveFields(fields, new Map([["/title", "theirs"]])), {
    ok: true,
    changes: new Map([["/sections/0/heading", "Mine"]]),
  });
});
