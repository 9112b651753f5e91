/**
 * The overlay's edit state without a browser: an immutable value changed
 * only by transactions; undo as a history of transactions grouped by their
 * own metadata; problems, the count and the status computed from it; the
 * store telling its subscribers once per transaction.
 */
import assert from "node:assert/strict";
import { EditState } from "../../overlay/state/state.ts";
import { createPage } from "../../overlay/state/page.ts";
import { fieldsFrom } from "../../overlay/state/fields.ts";
import { redo, undo } from "../../overlay/state/history.ts";
import {
  discardAll,
  restoreFields,
  setField,
  typed,
} from "../../overlay/state/commands.ts";
import { listCommand } from "../../overlay/state/lists.ts";
import {
  blockingProblems,
  emptiedFields,
  problemsOf,
  strayChanges,
} from "../../overlay/state/problems.ts";
import { changeCount, countChange } from "../../overlay/state/count.ts";
import { statusOf } from "../../overlay/state/status.ts";
import { marksOf } from "../../overlay/state/marks.ts";
import { createStore } from "../../overlay/store.ts";
import type { PageObject } from "../../overlay/state/values.ts";

const PATH = "src/content/pages/en/home.json";
const BASE: PageObject = {
  title: "Home",
  sections: [
    { id: "a", heading: "One", body: "<p>x</p>" },
    { id: "b", heading: "Two", body: "<p>y</p>" },
  ],
  cta: { text: "Go", link: { href: "/about/" } },
};
const FIELDS = fieldsFrom([
  ["/title", "text"],
  ["/sections/0/heading", "text"],
  ["/sections/0/body", "html"],
  ["/sections/1/heading", "text"],
  ["/sections/1/body", "html"],
  ["/cta/text", "text"],
  ["/cta/link", "link"],
], ["/sections"]);

function opened(base: PageObject = BASE): EditState {
  const empty = EditState.create(() => 1000);
  return empty.apply(
    empty.tr.addPage(createPage(PATH, "v1", structuredClone(base), FIELDS))
      .setActivity({ kind: "idle" }),
  );
}

const heading = (state: EditState, index: number) =>
  state.valueOf(PATH, `/sections/${index}/heading`);

Deno.test("a transaction answers a new state and leaves the old one as it was", () => {
  const before = opened();
  const after = before.apply(before.tr.change(PATH, "/title", "Welcome"));
  assert.equal(after.valueOf(PATH, "/title"), "Welcome");
  assert.equal(before.valueOf(PATH, "/title"), "Home");
  assert.equal(before.page(PATH)!.changes.size, 0);
  assert.notEqual(after.page(PATH), before.page(PATH));
  // Back to the stored value is no change.
  const back = after.apply(after.tr.change(PATH, "/title", "Home"));
  assert.equal(back.page(PATH)!.changes.size, 0);
  // A field inside a changed list is written into the list's value.
  const list = back.apply(
    listCommand(back, PATH, { op: "move", list: "/sections", from: 1, to: 0 })!,
  );
  const inside = list.apply(
    list.tr.change(PATH, "/sections/0/heading", "Deux"),
  );
  assert.deepEqual([...inside.page(PATH)!.changes.keys()], ["/sections"]);
  assert.equal(heading(inside, 0), "Deux");
  assert.equal(heading(inside, 1), "One");
});

Deno.test("undo: typing in one field while it has the focus is one step, by the transaction's group; each list operation and dialog a step of its own", () => {
  let state = opened();
  for (const value of ["H", "Ho", "Hom!"]) {
    state = state.apply(typed(state, PATH, "/title", value, "focus-1")!);
  }
  // The same field focused again is a new group, so a new step.
  state = state.apply(typed(state, PATH, "/title", "Hom!!", "focus-2")!);
  state = state.apply(
    typed(state, PATH, "/sections/1/heading", "Two!", "focus-3")!,
  );
  state = state.apply(
    listCommand(state, PATH, {
      op: "move",
      list: "/sections",
      from: 1,
      to: 0,
    })!,
  );
  state = state.apply(
    setField(state, PATH, "/cta/link", { href: "/en/" })!,
  );
  assert.equal(state.history.done.length, 5);
  assert.equal(state.canRedo, false);

  const steps: unknown[] = [];
  while (state.canUndo) {
    state = state.apply(undo(state)!);
    steps.push([state.valueOf(PATH, "/title"), heading(state, 0)]);
  }
  assert.deepEqual(steps, [
    ["Hom!!", "Two!"],
    ["Hom!!", "One"],
    ["Hom!!", "One"],
    ["Hom!", "One"],
    ["Home", "One"],
  ]);
  assert.equal(changeCount(state), 0);
  assert.equal(undo(state), undefined);
  while (state.canRedo) state = state.apply(redo(state)!);
  assert.equal(heading(state, 0), "Two!");
  assert.deepEqual(state.valueOf(PATH, "/cta/link"), { href: "/en/" });

  // A new change after an undo drops what could be redone.
  state = state.apply(undo(state)!);
  state = state.apply(typed(state, PATH, "/title", "Other", "focus-4")!);
  assert.equal(state.canRedo, false);
  // A transaction kept out of the history is no step, nor ends the group.
  const quiet = state.apply(
    state.tr.setMessage("Hello").setMeta("addToHistory", false),
  );
  assert.equal(quiet.history, state.history);
});

Deno.test("no undo during a publish; discard all drops the changes, the undo steps, the alert and what the server refused", () => {
  let state = opened();
  state = state.apply(typed(state, PATH, "/title", "New", "f")!);
  state = state.apply(
    state.tr.refuse(PATH, [{ at: "/sections/0/body", reason: "link" }])
      .setAlert({
        code: "refused",
        count: 1,
        reason: "link",
        shown: true,
      }),
  );
  const busy = state.apply(
    state.tr.setActivity({ kind: "publishing", step: "saving" }),
  );
  assert.equal(busy.canUndo, false);
  assert.equal(undo(busy), undefined);
  assert.equal(discardAll(busy), undefined);
  assert.equal(problemsOf(state).filter((p) => !p.local).length, 1);
  const discarded = state.apply(discardAll(state)!);
  assert.equal(changeCount(discarded), 0);
  assert.equal(discarded.canUndo, false);
  assert.equal(discarded.alert, undefined);
  assert.deepEqual(problemsOf(discarded), []);
  assert.deepEqual(statusOf(discarded), { tone: "clean", code: "noChanges" });
});

Deno.test("list operations: the count moves with each one; a removed item and an undone Add after leave no problem behind", () => {
  let state = opened();
  const copy = (from: number) =>
    listCommand(state, PATH, {
      op: "copy",
      list: "/sections",
      from,
      to: from + 1,
    })!;
  state = state.apply(copy(1));
  assert.equal(changeCount(state), 1);
  assert.equal(state.valueOf(PATH, "/sections/2/id"), "b-2");
  state = state.apply(copy(2));
  assert.equal(changeCount(state), 2);
  // A problem in the last copy, then that copy removed.
  state = state.apply(typed(state, PATH, "/sections/3/heading", "<b>", "f")!);
  assert.deepEqual(
    problemsOf(state).map((p) => [p.at, p.reason]),
    [["/sections/3/heading", "markup"]],
  );
  state = state.apply(
    listCommand(state, PATH, {
      op: "remove",
      list: "/sections",
      from: 3,
      to: 3,
    })!,
  );
  assert.equal(changeCount(state), 1);
  assert.deepEqual(problemsOf(state), []);
  // Undoing the remaining Add after: no problem for the item gone.
  state = state.apply(undo(state)!); // the removal
  state = state.apply(undo(state)!); // the typing
  state = state.apply(undo(state)!); // the second copy
  state = state.apply(undo(state)!); // the first copy
  assert.equal(changeCount(state), 0);
  assert.deepEqual(problemsOf(state), []);
  assert.deepEqual(statusOf(state), { tone: "clean", code: "noChanges" });
  // The marks follow: a region of an item gone has none.
  const marks = marksOf(state, [
    { path: PATH, pointer: "/sections/0/heading", kind: "text" },
  ]);
  assert.deepEqual(marks, [{ changed: false, problems: [] }]);
  // A move counts one; an index outside the list is no command.
  state = state.apply(
    listCommand(state, PATH, {
      op: "move",
      list: "/sections",
      from: 0,
      to: 1,
    })!,
  );
  assert.equal(changeCount(state), 1);
  assert.equal(
    listCommand(state, PATH, {
      op: "remove",
      list: "/sections",
      from: 7,
      to: 7,
    }),
    undefined,
  );
});

Deno.test("countChange: items added, removed and moved, fields changed in items kept; an image or a link counts once", () => {
  const a = { id: "a", heading: "A" };
  const b = { id: "b", heading: "B" };
  assert.equal(countChange([a, b], [a, b]), 0);
  assert.equal(countChange([a, b], [a, { ...a, id: "a-2" }, b]), 1);
  assert.equal(countChange([a, b], [b, a]), 1);
  assert.equal(countChange([a, b], [b]), 1);
  assert.equal(countChange([a, b], [{ ...a, heading: "X" }, b]), 1);
  assert.equal(countChange(["x", "y"], ["y", "x", "x"]), 2);
  assert.equal(
    countChange({ src: "a.png", alt: "A", width: 1 }, {
      src: "b.png",
      alt: "B",
      width: 2,
    }),
    1,
  );
  assert.equal(countChange({ href: "/", title: "T" }, { href: "/a" }), 1);
});

Deno.test("problems come from the state: tag-like text, refused links in rich text and link objects, the server's until the field changes; they hold a publish back", () => {
  let state = opened({
    ...BASE,
    cta: { text: "Go", link: { href: "javascript:alert(1)" } },
  });
  assert.deepEqual(problemsOf(state).map((p) => [p.at, p.reason, p.kind]), [
    ["/cta/link/href", "link", "link"],
  ]);
  state = state.apply(setField(state, PATH, "/cta/link", { href: "/ok/" })!);
  state = state.apply(
    typed(state, PATH, "/sections/0/heading", "A <script> heading", "f")!,
  );
  state = state.apply(
    typed(
      state,
      PATH,
      "/sections/1/body",
      '<p><a href="javascript:x">x</a></p>',
      "g",
    )!,
  );
  assert.deepEqual(problemsOf(state).map((p) => [p.at, p.reason, p.href]), [
    ["/sections/0/heading", "markup", undefined],
    ["/sections/1/body", "link", "javascript:x"],
  ]);
  assert.equal(blockingProblems(state).length, 2);
  // Server problems stay until their field changes.
  state = state.apply(state.tr.refuse(PATH, [
    { at: "/title", reason: "markup" },
    { at: "/sections/0/body", reason: "markup" },
  ]));
  assert.deepEqual(
    problemsOf(state).filter((p) => !p.local).map((p) => p.at),
    ["/title", "/sections/0/body"],
  );
  state = state.apply(typed(state, PATH, "/title", "Fixed", "h")!);
  assert.deepEqual(
    problemsOf(state).filter((p) => !p.local).map((p) => p.at),
    ["/sections/0/body"],
  );
  // An emptied heading and a change naming nothing in the file.
  state = state.apply(typed(state, PATH, "/sections/1/heading", " ", "i")!);
  assert.deepEqual(emptiedFields(state).map((p) => p.at), [
    "/sections/1/heading",
  ]);
  state = state.apply(state.tr.change(PATH, "/descripton", "Typo"));
  assert.deepEqual(strayChanges(state).map((p) => p.at), ["/descripton"]);
  const created = state.apply(
    state.tr.change(PATH, "/subtitle", "Made", { newKey: true }),
  );
  assert.deepEqual(strayChanges(created).map((p) => p.at), ["/descripton"]);
});

Deno.test("the store tells each subscriber once per transaction, with the problems already up to date", () => {
  const store = createStore(opened());
  const told: Array<[number, string]> = [];
  let later = false;
  store.subscribe((state, before) => {
    assert.notEqual(state, before);
    told.push([
      problemsOf(state).length,
      String(state.valueOf(PATH, "/title")),
    ]);
    // A transaction dispatched meanwhile is applied after, told once too.
    if (!later) {
      later = true;
      store.dispatch(store.state.tr.setMessage("later"));
      assert.equal(store.state.message, "");
    }
  });
  store.dispatch(typed(store.state, PATH, "/title", "<b>", "f"));
  store.dispatch(undefined);
  store.dispatch(
    listCommand(store.state, PATH, {
      op: "copy",
      list: "/sections",
      from: 0,
      to: 1,
    }),
  );
  assert.deepEqual(told, [[1, "<b>"], [1, "<b>"], [1, "<b>"]]);
  assert.equal(store.state.message, "later");
});

Deno.test("restored fields are one undo step; the status says what is under way, the last outcome, or the count", () => {
  let state = opened();
  assert.equal(statusOf(EditState.create()).tone, "loading");
  state = state.apply(
    restoreFields(
      state,
      PATH,
      new Map<string, unknown>([["/title", "Old"], ["/cta/text", "Went"]]),
    )!,
  );
  assert.equal(state.history.done.length, 1);
  assert.deepEqual(statusOf(state), {
    tone: "dirty",
    code: "unsaved",
    count: 2,
  });
  const publishing = state.apply(
    state.tr.setActivity({ kind: "publishing", step: "uploading" }),
  );
  assert.deepEqual(statusOf(publishing), { tone: "busy", code: "uploading" });
  const published = state.apply(state.tr.setNotice({
    code: "published",
    published: { message: "", at: 1, paths: [PATH] },
  }));
  assert.equal(statusOf(published).tone, "published");
  // The next change ends the outcome.
  const next = published.apply(typed(published, PATH, "/title", "X", "f")!);
  assert.equal(statusOf(next).tone, "dirty");
  assert.equal(next.notice, undefined);
});
