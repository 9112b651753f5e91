/**
 * List operations on a page's values: a copy with fresh ids, a move, a
 * removal and a first item from a template (as transactions and undo
 * steps in state_test.ts, against the server in publish_test.ts).
 */
import assert from "node:assert/strict";
import type { PageObject } from "../../overlay/state/values.ts";
import { pageRules } from "../../lib/pages/page_rules.ts";
import {
  copyItem,
  firstItem,
  freshId,
  idsIn,
  moveItem,
  removeItem,
  retarget,
} from "../../overlay/state/lists.ts";
import { itemNoun } from "../../overlay/views/words.ts";

const BASE: PageObject = {
  title: "Home",
  sections: [
    { id: "a", heading: "One", body: "<p>x</p>" },
    { id: "b", heading: "Two", body: "<p>y</p>", cards: [{ id: "b-2" }] },
    { id: "c", heading: "Three", body: "<p>z</p>" },
  ],
};

Deno.test("copy: the copy follows its item, every id in it fresh and unique in the page, so the page rules accept it", () => {
  const page = structuredClone(BASE);
  const list = page.sections as PageObject[];
  const copied = copyItem(list, 1, page) as PageObject[];
  assert.equal(copied.length, 4);
  assert.deepEqual(copied.map((item) => item.id), ["a", "b", "b-3", "c"]);
  assert.deepEqual(copied[2]!.cards, [{ id: "b-4" }]);
  assert.equal(copied[2]!.heading, "Two");
  assert.notEqual(copied[2], list[1]);
  assert.equal(list.length, 3);
  pageRules(JSON.stringify({ ...page, sections: copied }));
  // Copying the copy again still finds fresh ones.
  const again = copyItem(copied, 2, { ...page, sections: copied });
  assert.deepEqual(
    (again as PageObject[]).map((item) => item.id),
    ["a", "b", "b-3", "b-5", "c"],
  );
  assert.equal(freshId("x".repeat(64), new Set()).length <= 64, true);
  assert.deepEqual([...idsIn({ ID: "q", list: [{ Id: "r" }] })].sort(), [
    "q",
    "r",
  ]);
  // An item without an id is copied as it is.
  assert.deepEqual(copyItem(["one", "two"], 0, {}), ["one", "one", "two"]);
});

Deno.test("move, remove, first item and pointer rewriting", () => {
  assert.deepEqual(moveItem(["a", "b", "c"], 2, 0), ["c", "a", "b"]);
  assert.deepEqual(moveItem(["a", "b", "c"], 0, 1), ["b", "a", "c"]);
  assert.deepEqual(moveItem(["a", "b", "c"], 0, 9), ["b", "c", "a"]);
  assert.deepEqual(removeItem(["a", "b", "c"], 1), ["a", "c"]);
  assert.deepEqual(firstItem('{"id":"a","heading":""}', BASE), [{
    id: "a-2",
    heading: "",
  }]);
  assert.deepEqual(firstItem('{"id":"new"}', BASE), [{ id: "new" }]);
  assert.equal(firstItem("{oops", BASE), undefined);
  assert.equal(
    retarget("/sections/1/heading", "/sections/1", "/sections/0"),
    "/sections/0/heading",
  );
  assert.equal(
    retarget("/sections/10/heading", "/sections/1", "/sections/0"),
    "/sections/10/heading",
  );
  assert.equal(retarget("/title", "/sections/1", "/sections/0"), "/title");
  assert.equal(itemNoun("/sections"), "section");
  assert.equal(itemNoun("/nav"), "nav item");
  assert.equal(itemNoun("/0"), "item");
});
