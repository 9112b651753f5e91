/**
 * The overlay's edit session without a browser: changes, undo and redo over
 * text and list changes, drafts across a version change, the three-way
 * merge and the message lifecycle. Publishing goes through the real browser
 * client to the real router over a real KV and a real git checkout.
 */
import assert from "node:assert/strict";
import { createClient, type PageObject } from "../../client/mod.ts";
import { createRouter } from "../../mod.ts";
import { EditSession } from "../../overlay/session/session.ts";
import { draftKey } from "../../overlay/session/drafts.ts";
import { ORIGIN } from "../support/helpers.ts";
import { HOME, signedInSite } from "../support/site.ts";
import { routerClient } from "../support/router_client.ts";

const PATH = "src/content/pages/en/home.json";
const BASE: PageObject = {
  title: "Home",
  sections: [
    { id: "a", heading: "One", body: "<p>x</p>" },
    { id: "b", heading: "Two", body: "<p>y</p>" },
  ],
};
const FIELDS = [
  ["/title", "text"],
  ["/sections/0/heading", "text"],
  ["/sections/1/heading", "text"],
  ["/sections/0/body", "html"],
  ["/sections", "list"],
] as const;

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
  s.addPage(PATH, "v1", structuredClone(BASE), FIELDS);
  return s;
}

Deno.test("changes: pointer → value, back to the stored value is no change, a field inside a changed list is written into it", () => {
  const s = session();
  const events: string[] = [];
  s.subscribe((event) => events.push(event.type));
  s.change(PATH, "/title", "Welcome");
  assert.equal(s.count, 1);
  assert.deepEqual(s.status, { text: "1 unsaved change", tone: "dirty" });
  assert.equal(s.valueOf(PATH, "/title"), "Welcome");
  s.change(PATH, "/title", "Home");
  assert.equal(s.count, 0);
  assert.deepEqual(s.status, { text: "No unsaved changes", tone: "clean" });

  // A whole-list change (a reorder), then a field inside it.
  s.change(PATH, "/sections/0/heading", "Uno");
  const [first, second] = BASE.sections as PageObject[];
  s.change(PATH, "/sections", [second, { ...first, heading: "Uno" }]);
  assert.deepEqual([...s.page(PATH)!.changes.keys()], ["/sections"]);
  s.change(PATH, "/sections/0/heading", "Deux");
  assert.deepEqual([...s.page(PATH)!.changes.keys()], ["/sections"]);
  assert.equal(s.valueOf(PATH, "/sections/0/heading"), "Deux");
  assert.equal(s.valueOf(PATH, "/sections/1/heading"), "Uno");
  assert.ok(events.includes("state"));
});

Deno.test("undo and redo step through text and list changes across the page; typing in one field is one step", () => {
  const s = session();
  const shown: string[] = [];
  s.subscribe((event) => {
    if (event.type === "values") shown.push(event.path);
  });
  s.change(PATH, "/title", "H");
  s.change(PATH, "/title", "Ho");
  s.change(PATH, "/title", "Hom!");
  s.seal();
  s.change(PATH, "/sections/1/heading", "Two!");
  // A move, as the structure operations make it: from the current list.
  const [first, second] = s.valueOf(PATH, "/sections") as PageObject[];
  s.change(PATH, "/sections", [second, first]);
  assert.equal(s.valueOf(PATH, "/sections/0/heading"), "Two!");
  assert.equal(s.canUndo, true);
  assert.equal(s.canRedo, false);

  assert.ok(s.undo());
  assert.equal(s.valueOf(PATH, "/sections/0/heading"), "One");
  assert.equal(s.valueOf(PATH, "/sections/1/heading"), "Two!");
  assert.ok(s.undo());
  assert.equal(s.valueOf(PATH, "/sections/1/heading"), "Two");
  assert.ok(s.undo());
  assert.equal(s.valueOf(PATH, "/title"), "Home");
  assert.equal(s.count, 0);
  assert.equal(s.undo(), false);
  assert.deepEqual(shown, [PATH, PATH, PATH]);

  assert.ok(s.redo());
  assert.equal(s.valueOf(PATH, "/title"), "Hom!");
  assert.ok(s.redo());
  assert.ok(s.redo());
  assert.equal(s.valueOf(PATH, "/sections/0/heading"), "Two!");
  assert.equal(s.redo(), false);

  // A new change after an undo drops what could be redone.
  s.undo();
  s.change(PATH, "/title", "Other");
  assert.equal(s.canRedo, false);

  s.discardAll();
  assert.equal(s.count, 0);
  assert.equal(s.canUndo, false);
});

Deno.test("drafts are kept per page path and offered after someone else publishes: fields changed on one side fold in, clashes wait for a choice", () => {
  const store = memoryStorage();
  store.setItem(`inpage-editor:draft:${PATH}@v0`, "{}"); // an earlier overlay's
  const before = session(store);
  before.change(PATH, "/title", "My title");
  before.change(PATH, "/sections/0/heading", "My one");
  assert.ok(store.getItem(draftKey(PATH)));

  // Same version: offered as it is.
  const again = session(store);
  const same = again.draftOffer(PATH);
  assert.equal(same?.kind, "same");
  assert.ok(again.restoreDraft(PATH, same!));
  assert.equal(again.valueOf(PATH, "/title"), "My title");
  assert.equal(store.getItem(`inpage-editor:draft:${PATH}@v0`), null);

  // Someone published v2 meanwhile, changing the title and another heading.
  const later = new EditSession(store);
  const theirs = structuredClone(BASE);
  theirs.title = "Their title";
  (theirs.sections as PageObject[])[1]!.heading = "Their two";
  later.addPage(PATH, "v2", theirs, FIELDS);
  const older = later.draftOffer(PATH);
  assert.equal(older?.kind, "older");
  if (older?.kind !== "older") return;
  assert.deepEqual(
    older.fields.map((f) => [f.pointer, f.base, f.mine, f.theirs, f.clash]),
    [
      ["/title", "Home", "My title", "Their title", true],
      ["/sections/0/heading", "One", "My one", "One", false],
    ],
  );
  assert.equal(later.restoreDraft(PATH, older), false);
  assert.ok(later.restoreDraft(PATH, older, new Map([["/title", "theirs"]])));
  assert.deepEqual([...later.page(PATH)!.changes], [[
    "/sections/0/heading",
    "My one",
  ]]);
  // The draft now holds the folded changes against v2.
  const kept = JSON.parse(store.getItem(draftKey(PATH))!);
  assert.equal(kept.version, "v2");
  assert.deepEqual(kept.base, [["/sections/0/heading", "One"]]);
  later.discardDraft(PATH);
  later.discardAll();
  assert.equal(store.length, 0);
});

Deno.test("a draft the page now holds (published, then the page reloaded before the answer cleared it) is dropped, not offered", () => {
  const store = memoryStorage();
  const before = session(store);
  before.change(PATH, "/title", "Published title");
  assert.ok(store.getItem(draftKey(PATH)));
  // The page reloads with the published version before the draft is cleared.
  const reloaded = new EditSession(store);
  reloaded.addPage(PATH, "v2", {
    ...structuredClone(BASE),
    title: "Published title",
  }, FIELDS);
  assert.equal(reloaded.draftOffer(PATH), undefined);
  assert.equal(store.getItem(draftKey(PATH)), null);
  // One field still differs: the draft is offered.
  const mixed = session(store);
  mixed.change(PATH, "/title", "Published title");
  mixed.change(PATH, "/sections/0/heading", "Not published");
  const later = new EditSession(store);
  later.addPage(PATH, "v2", {
    ...structuredClone(BASE),
    title: "Published title",
  }, FIELDS);
  assert.equal(later.draftOffer(PATH)?.kind, "older");
});

Deno.test("publish: the message typed is used once and cleared after every publish, Keep mine included; a conflict compares the three sides", async () => {
  const router = createRouter({ locales: ["en", "fr"] });
  await using signed = await signedInSite(router, "session key");
  const client = routerClient(router.handle, signed.env, signed.cookie);
  const read = await client.read(HOME);
  const fields = [["/title", "text"], ["/sections/0/body", "html"]] as const;
  const mine = new EditSession();
  mine.addPage(HOME, read.version, JSON.parse(read.content), fields);
  const other = new EditSession();
  other.addPage(HOME, read.version, JSON.parse(read.content), fields);

  // A plain publish: committed with the message, which is then cleared.
  mine.setMessage("First message");
  mine.change(HOME, "/title", "Mine");
  assert.deepEqual(await mine.publish(client), { kind: "published" });
  assert.equal(mine.message, "");
  assert.deepEqual(mine.status, { text: "Published", tone: "published" });
  assert.equal(
    (await signed.site.git("log", "-1", "--format=%s")).trim(),
    "First message",
  );

  // Someone else's session publishes over an older version: conflict.
  other.setMessage("Their message");
  other.change(HOME, "/title", "Theirs");
  other.change(HOME, "/sections/0/body", "<p>Their body</p>");
  const outcome = await other.publish(client);
  assert.equal(outcome.kind, "conflict");
  if (outcome.kind !== "conflict") return;
  assert.deepEqual(
    outcome.fields.map((f) => [f.pointer, f.mine, f.theirs, f.clash]),
    [
      ["/title", "Theirs", "Mine", true],
      [
        "/sections/0/body",
        "<p>Their body</p>",
        "Hello <strong>world</strong>",
        false,
      ],
    ],
  );
  assert.equal(other.message, "Their message");
  // Keep mine without a choice for the clash publishes nothing.
  assert.equal(
    (await other.keepMine(
      client,
      HOME,
      outcome.fresh,
      outcome.fields,
      new Map(),
    ))
      .kind,
    "failed",
  );
  // Choosing "theirs" for the title publishes the rest with the message.
  assert.deepEqual(
    await other.keepMine(
      client,
      HOME,
      outcome.fresh,
      outcome.fields,
      new Map([["/title", "theirs"]]),
    ),
    { kind: "published" },
  );
  assert.equal(other.message, "");
  const page = JSON.parse((await client.read(HOME)).content);
  assert.equal(page.title, "Mine");
  assert.equal(page.sections[0].body, "<p>Their body</p>");
  assert.equal(
    (await signed.site.git("log", "-1", "--format=%s")).trim(),
    "Their message",
  );
  // The next publish, with no message typed, gets the default one.
  other.change(HOME, "/title", "Next");
  assert.deepEqual(await other.publish(client), { kind: "published" });
  assert.equal(
    (await signed.site.git("log", "-1", "--format=%s")).trim(),
    `Update ${HOME}`,
  );
});

Deno.test("problems: every refused field at once from a 422, tag-like text flagged as it is typed, a refused link in rich text and an emptied heading", async () => {
  const s = session();
  s.change(PATH, "/sections/0/heading", "A <tricks> heading");
  assert.deepEqual(
    s.problems.map((p) => [p.at, p.reason, p.local]),
    [["/sections/0/heading", "markup", true]],
  );
  assert.match(s.problems[0]!.sentence, /^Plain text cannot hold/);
  s.change(
    PATH,
    "/sections/0/body",
    '<p><a href="javascript:alert(1)">x</a></p>',
  );
  assert.deepEqual(
    s.problems.map((p) => [p.at, p.reason, p.href]),
    [
      ["/sections/0/heading", "markup", undefined],
      ["/sections/0/body", "link", "javascript:alert(1)"],
    ],
  );
  s.change(PATH, "/sections/0/heading", "Fine");
  s.change(PATH, "/sections/1/heading", " ");
  assert.deepEqual(s.emptied().map((p) => p.at), ["/sections/1/heading"]);

  // A page that already fails the rules is flagged when it is opened.
  const broken = new EditSession();
  broken.addPage(PATH, "v1", {
    title: "<tricks>",
    cta: { link: { href: "javascript:x" } },
  }, [["/title", "text"]]);
  assert.deepEqual(broken.problems.map((p) => [p.at, p.reason]), [
    ["/title", "markup"],
    ["/cta/link/href", "link"],
  ]);

  // A 422 listing every problem outlines them all at once.
  const client = createClient({
    origin: ORIGIN,
    fetch: () =>
      Promise.resolve(Response.json({
        error: "invalid_content",
        at: "/sections/0/heading",
        reason: "markup",
        problems: [
          { at: "/sections/0/heading", reason: "markup" },
          { at: "/sections/0/body", reason: "link" },
        ],
      }, { status: 422 })),
  });
  const outcome = await s.publish(client);
  assert.equal(outcome.kind, "failed");
  assert.deepEqual(
    s.problems.filter((p) => !p.local).map((p) => [p.at, p.reason]),
    [["/sections/0/heading", "markup"], ["/sections/0/body", "link"]],
  );
  assert.equal(s.status.text, "Not published: 2 fields were refused");
  // Changing a refused field takes its problem away.
  s.change(PATH, "/sections/0/heading", "Fixed");
  assert.deepEqual(
    s.problems.filter((p) => !p.local).map((p) => p.at),
    ["/sections/0/body"],
  );
});
