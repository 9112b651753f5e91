/**
 * List operations on the edit model: a copy with fresh ids, a move, a
 * removal and a first item from a template, each one undo step of the
 * whole list, kept in the draft, and Keep mine when someone else changed
 * the list or an item in it (through the real router, KV and git).
 */
import assert from "node:assert/strict";
import type { PageObject } from "../../client/mod.ts";
import { createRouter } from "../../mod.ts";
import { pageRules } from "../../lib/pages/page_rules.ts";
import {
  copyItem,
  firstItem,
  freshId,
  idsIn,
  itemNoun,
  moveItem,
  removeItem,
  retarget,
} from "../../overlay/session/lists.ts";
import { EditSession } from "../../overlay/session/session.ts";
import { draftKey } from "../../overlay/session/drafts.ts";
import { HOME, signedInSite } from "../support/site.ts";
import { routerClient } from "../support/router_client.ts";

const PATH = "src/content/pages/en/home.json";
const BASE: PageObject = {
  title: "Home",
  sections: [
    { id: "a", heading: "One", body: "<p>x</p>" },
    { id: "b", heading: "Two", body: "<p>y</p>", cards: [{ id: "b-2" }] },
    { id: "c", heading: "Three", body: "<p>z</p>" },
  ],
};

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

function session(store?: Storage): EditSession {
  const s = new EditSession(store, () => 1000);
  s.addPage(PATH, "v1", structuredClone(BASE), [["/sections", "list"]]);
  return s;
}

const headings = (s: EditSession) =>
  (s.valueOf(PATH, "/sections") as PageObject[]).map((item) => item.heading);

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

Deno.test("each list operation is one undo step of the whole list, undone and redone, kept in the draft", () => {
  const store = memoryStorage();
  const s = session(store);
  const current = () => s.valueOf(PATH, "/sections") as unknown[];
  s.change(PATH, "/title", "Typed");
  // A copy right after typing is a step of its own.
  s.changeList(PATH, "/sections", copyItem(current(), 1, BASE));
  assert.deepEqual(headings(s), ["One", "Two", "Two", "Three"]);
  assert.equal(s.valueOf(PATH, "/sections/2/id"), "b-3");
  s.change(PATH, "/sections/2/heading", "Copy");
  s.changeList(PATH, "/sections", moveItem(current(), 2, 0));
  s.changeList(PATH, "/sections", removeItem(current(), 3));
  assert.deepEqual(headings(s), ["Copy", "One", "Two"]);
  assert.equal(s.count, 2); // the title and the whole list
  assert.deepEqual([...s.page(PATH)!.changes.keys()], ["/title", "/sections"]);
  const kept = JSON.parse(store.getItem(draftKey(PATH))!);
  assert.deepEqual(
    kept.changes[1][1].map((item: PageObject) => item.id),
    ["b-3", "a", "b"],
  );

  assert.ok(s.undo()); // the removal
  assert.deepEqual(headings(s), ["Copy", "One", "Two", "Three"]);
  assert.ok(s.undo()); // the move
  assert.deepEqual(headings(s), ["One", "Two", "Copy", "Three"]);
  assert.ok(s.undo()); // the heading typed in the copy
  assert.deepEqual(headings(s), ["One", "Two", "Two", "Three"]);
  assert.ok(s.undo()); // the copy
  assert.deepEqual(headings(s), ["One", "Two", "Three"]);
  assert.equal(s.valueOf(PATH, "/title"), "Typed");
  assert.ok(s.redo());
  assert.ok(s.redo());
  assert.ok(s.redo());
  assert.ok(s.redo());
  assert.deepEqual(headings(s), ["Copy", "One", "Two"]);
  assert.equal(s.redo(), false);

  // Back to the stored list: no change left for it.
  s.changeList(PATH, "/sections", structuredClone(BASE.sections) as unknown[]);
  assert.deepEqual([...s.page(PATH)!.changes.keys()], ["/title"]);
});

Deno.test("Keep mine: a list changed on the other side, or an item in it, clashes with a list operation; each choice publishes what it says", async () => {
  const router = createRouter({ locales: ["en", "fr"] });
  await using signed = await signedInSite(router, "session key");
  const client = routerClient(router.handle, signed.env, signed.cookie);
  const read = await client.read(HOME);
  const start = JSON.parse(read.content) as PageObject;
  start.sections = [
    { id: "one", body: "<p>One</p>" },
    { id: "two", body: "<p>Two</p>" },
  ];
  const seeded = await client.publish({
    path: HOME,
    content: start,
    version: read.version,
  });
  const open = () => {
    const s = new EditSession();
    s.addPage(HOME, seeded.version, structuredClone(start), [[
      "/sections",
      "list",
    ]]);
    return s;
  };
  const list = (s: EditSession) => s.valueOf(HOME, "/sections") as unknown[];

  // Someone else changes an item's body; I copy the first item.
  const other = open();
  other.change(HOME, "/sections/1/body", "<p>Their two</p>");
  assert.equal((await other.publish(client)).kind, "published");
  const mine = open();
  mine.changeList(HOME, "/sections", copyItem(list(mine), 0, start));
  const outcome = await mine.publish(client);
  assert.equal(outcome.kind, "conflict");
  if (outcome.kind !== "conflict") return;
  assert.deepEqual(
    outcome.fields.map((field) => [field.pointer, field.clash]),
    [["/sections", true]],
  );
  // Keep mine with "mine": my list, as I made it, over theirs.
  assert.deepEqual(
    await mine.keepMine(
      client,
      HOME,
      outcome.fresh,
      outcome.fields,
      new Map([["/sections", "mine"]]),
    ),
    { kind: "published" },
  );
  let page = JSON.parse((await client.read(HOME)).content);
  assert.deepEqual(page.sections.map((s: PageObject) => [s.id, s.body]), [
    ["one", "<p>One</p>"],
    ["one-2", "<p>One</p>"],
    ["two", "<p>Two</p>"],
  ]);

  // Someone else removes an item; I move one. Choosing theirs keeps theirs
  // and publishes nothing of mine.
  const now = await client.read(HOME);
  const second = new EditSession();
  second.addPage(HOME, now.version, JSON.parse(now.content), [[
    "/sections",
    "list",
  ]]);
  const third = new EditSession();
  third.addPage(HOME, now.version, JSON.parse(now.content), [[
    "/sections",
    "list",
  ]]);
  second.changeList(HOME, "/sections", removeItem(list(second), 2));
  second.change(HOME, "/title", "Their title");
  assert.equal((await second.publish(client)).kind, "published");
  third.changeList(HOME, "/sections", moveItem(list(third), 2, 0));
  third.change(HOME, "/title", "My title");
  const clash = await third.publish(client);
  assert.equal(clash.kind, "conflict");
  if (clash.kind !== "conflict") return;
  assert.deepEqual(
    clash.fields.map((field) => [field.pointer, field.clash]).sort(),
    [["/sections", true], ["/title", true]],
  );
  const kept = await third.keepMine(
    client,
    HOME,
    clash.fresh,
    clash.fields,
    new Map([["/sections", "theirs"], ["/title", "mine"]]),
  );
  assert.deepEqual(kept, { kind: "published" });
  page = JSON.parse((await client.read(HOME)).content);
  assert.deepEqual(page.sections.map((s: PageObject) => s.id), [
    "one",
    "one-2",
  ]);
  assert.equal(page.title, "My title");
});
