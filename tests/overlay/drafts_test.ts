/**
 * Drafts without a browser: one per page and per tab in the storage, so
 * that two tabs editing one page both keep their work; the drafts of this
 * tab and of closed tabs offered back when a page opens, one after the
 * other, and none of a tab still open; a draft of an older version folded
 * in field by field; a draft the page already holds (its own interrupted
 * publish) offering nothing; another tab's publish taken as the new
 * version; chosen images read back under new object URLs.
 */
import assert from "node:assert/strict";
import { EditState } from "../../overlay/state/state.ts";
import { createPage } from "../../overlay/state/page.ts";
import { fieldsFrom } from "../../overlay/state/fields.ts";
import { typed } from "../../overlay/state/commands.ts";
import { offerOf } from "../../overlay/state/drafts.ts";
import { chosenIn } from "../../overlay/state/images.ts";
import { createStore, type Store } from "../../overlay/store.ts";
import { draftKey, Drafts, keepDrafts } from "../../overlay/io/drafts.ts";
import { ChosenImages, memoryImageStore } from "../../overlay/io/images.ts";
import {
  type DraftQuestions,
  offerDrafts,
} from "../../overlay/flows/drafts.ts";
import { takePublished } from "../../overlay/flows/tabs.ts";
import type { PageObject } from "../../overlay/state/values.ts";
import { memoryStorage } from "../support/memory_storage.ts";

const PATH = "src/content/pages/en/home.json";
const BASE: PageObject = {
  title: "Home",
  image: { src: "old-0123456789ab.png", width: 10, height: 10, alt: "Old" },
  sections: [{ id: "a", heading: "One" }, { id: "b", heading: "Two" }],
};
const FIELDS = fieldsFrom([
  ["/title", "text"],
  ["/image", "image"],
  ["/sections/0/heading", "text"],
], ["/sections"]);

/** A tab: its store on the page as read, keeping its drafts. */
function tab(
  storage: Storage,
  id: string,
  version = "v1",
  base: PageObject = BASE,
): { store: Store; drafts: Drafts } {
  const state = EditState.create();
  const store = createStore(state.apply(
    state.tr.addPage(createPage(PATH, version, structuredClone(base), FIELDS))
      .setActivity({ kind: "idle" }),
  ));
  const drafts = new Drafts(storage, id);
  keepDrafts(store, drafts, () => 1000);
  return { store, drafts };
}

/** Questions answered as a test says, each one noted. */
function answering(
  restore: "restore" | "discard" | "later" = "restore",
): DraftQuestions & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    restore: (offer, own) => {
      asked.push(`${own ? "own" : "other"} ${offer.draft.changes.size}`);
      return Promise.resolve(restore);
    },
    merge: (offer) => {
      asked.push(`merge ${offer.fields.map((f) => f.pointer).join(" ")}`);
      return Promise.resolve({
        action: "keep",
        choices: new Map(
          offer.fields.filter((f) => f.clash).map((f) => [
            f.pointer,
            "mine" as const,
          ]),
        ),
      });
    },
  };
}

const type = (store: Store, pointer: string, value: string) =>
  store.dispatch(typed(store.state, PATH, pointer, value, pointer));

Deno.test("two tabs on one page each keep their own draft: after a reload each gets its own back, and a closed tab's is offered to the next one", async () => {
  const storage = memoryStorage();
  const one = tab(storage, "one");
  const two = tab(storage, "two");
  type(one.store, "/title", "Title from tab one");
  type(two.store, "/sections/0/heading", "Heading from tab two");
  assert.ok(storage.getItem(draftKey(PATH, "one")));
  assert.ok(storage.getItem(draftKey(PATH, "two")));

  // Tab one reloads while tab two is open: only its own draft comes back.
  const again = tab(storage, "one");
  const ask = answering();
  await offerDrafts({
    store: again.store,
    drafts: again.drafts,
    open: new Set(["one", "two"]),
    ask,
  }, PATH);
  assert.deepEqual(ask.asked, ["own 1"]);
  assert.equal(again.store.state.valueOf(PATH, "/title"), "Title from tab one");
  assert.equal(again.store.state.valueOf(PATH, "/sections/0/heading"), "One");
  assert.ok(storage.getItem(draftKey(PATH, "two")));

  // Tab two closed: the next opening gets its work too, and keeps both.
  const third = tab(storage, "one");
  const later = answering();
  await offerDrafts({
    store: third.store,
    drafts: third.drafts,
    open: new Set(["one"]),
    ask: later,
  }, PATH);
  assert.deepEqual(later.asked, ["own 1", "other 1"]);
  assert.equal(third.store.state.valueOf(PATH, "/title"), "Title from tab one");
  assert.equal(
    third.store.state.valueOf(PATH, "/sections/0/heading"),
    "Heading from tab two",
  );
  assert.equal(storage.getItem(draftKey(PATH, "two")), null);
  const kept = third.drafts.all(PATH);
  assert.deepEqual(kept.map((each) => [each.tab, each.draft.changes.size]), [
    ["one", 2],
  ]);
});

Deno.test("a draft left unanswered is set aside, not overwritten by the next changes; an earlier overlay's draft is offered as a closed tab's", async () => {
  const storage = memoryStorage();
  storage.setItem(
    `inpage-editor:draft:${PATH}@v0`,
    JSON.stringify({
      savedAt: 1,
      version: "v1",
      base: [["/title", "Home"]],
      changes: [["/title", "Old overlay's title"]],
    }),
  );
  const first = tab(storage, "one");
  type(first.store, "/sections/0/heading", "Mine");
  const reloaded = tab(storage, "one");
  const ask = answering("later");
  await offerDrafts({
    store: reloaded.store,
    drafts: reloaded.drafts,
    open: new Set(["one"]),
    ask,
  }, PATH);
  assert.deepEqual(ask.asked, ["own 1", "other 1"]);
  type(reloaded.store, "/title", "Typed after");
  const all = reloaded.drafts.all(PATH).map((
    each,
  ) => [...each.draft.changes.values()]);
  assert.deepEqual(
    all.sort(),
    [
      ["Mine"],
      ["Old overlay's title"],
      ["Typed after"],
    ].sort(),
  );
});

Deno.test("a draft of an older version folds in field by field; a draft the page already holds offers nothing (an interrupted publish of this tab is published)", async () => {
  const storage = memoryStorage();
  const before = tab(storage, "one");
  type(before.store, "/title", "My title");
  type(before.store, "/sections/0/heading", "My one");
  const theirs = structuredClone(BASE);
  theirs.title = "Their title";
  const after = tab(storage, "one", "v2", theirs);
  const offer = offerOf(
    after.store.state.page(PATH)!,
    after.drafts.all(PATH)[0]!.draft,
  );
  assert.equal(offer?.kind, "merge");
  if (offer?.kind !== "merge") return;
  assert.deepEqual(
    offer.fields.map((f) => [f.pointer, f.base, f.mine, f.theirs, f.clash]),
    [
      ["/title", "Home", "My title", "Their title", true],
      ["/sections/0/heading", "One", "My one", "One", false],
    ],
  );
  const ask = answering();
  await offerDrafts({
    store: after.store,
    drafts: after.drafts,
    open: new Set(["one"]),
    ask,
  }, PATH);
  assert.equal(after.store.state.valueOf(PATH, "/title"), "My title");
  assert.equal(after.store.state.page(PATH)!.version, "v2");

  // The server already holds this tab's changes: its publish went through.
  const published: PageObject = { ...structuredClone(BASE), title: "My title" };
  (published.sections as PageObject[])[0]!.heading = "My one";
  const next = tab(storage, "one", "v3", published);
  const quiet = answering();
  const done = await offerDrafts({
    store: next.store,
    drafts: next.drafts,
    open: new Set(["one"]),
    ask: quiet,
    pending: { message: "", at: 1, paths: [PATH] },
  }, PATH);
  assert.equal(done, true);
  assert.deepEqual(quiet.asked, []);
  assert.deepEqual(next.drafts.all(PATH), []);
});

Deno.test("another tab's publish is this tab's new version, its own changes kept on top; a clash waits for its own publish", () => {
  const storage = memoryStorage();
  const one = tab(storage, "one");
  type(one.store, "/sections/0/heading", "Mine");
  const published = { ...structuredClone(BASE), title: "Their title" };
  takePublished(one.store, PATH, "v2", JSON.stringify(published));
  const page = one.store.state.page(PATH)!;
  assert.equal(page.version, "v2");
  assert.equal(one.store.state.valueOf(PATH, "/title"), "Their title");
  assert.equal(one.store.state.valueOf(PATH, "/sections/0/heading"), "Mine");
  // Its draft follows the new version.
  assert.equal(one.drafts.all(PATH)[0]!.draft.version, "v2");
  // A clash is left for the publish's conflict view.
  type(one.store, "/title", "My title");
  takePublished(
    one.store,
    PATH,
    "v3",
    JSON.stringify({ ...published, title: "Third" }),
  );
  assert.equal(one.store.state.page(PATH)!.version, "v2");
});

Deno.test("a draft's chosen images come back under new object URLs, the draft renamed", async () => {
  const storage = memoryStorage();
  const store = memoryImageStore();
  const before = tab(storage, "one");
  const images = new ChosenImages(store);
  const blob = new Blob([new Uint8Array([9])], { type: "image/jpeg" });
  const src = images.add(blob, "photo.jpg");
  before.store.dispatch(
    before.store.state.tr.change(PATH, "/image", {
      ...BASE.image as object,
      src,
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, 0));
  const after = tab(storage, "one");
  const fresh = new ChosenImages(store);
  await offerDrafts({
    store: after.store,
    drafts: after.drafts,
    open: new Set(["one"]),
    ask: answering(),
    images: fresh,
  }, PATH);
  const [revived] = chosenIn(after.store.state.valueOf(PATH, "/image"));
  assert.ok(revived && revived !== src && fresh.has(revived));
  assert.equal(await (await fetch(revived)).bytes().then((b) => b[0]), 9);
  const [kept] = chosenIn(
    after.drafts.all(PATH)[0]!.draft.changes.get("/image"),
  );
  assert.equal(kept, revived);
});
