/**
 * Send for review carries every page this tab changed, without a browser:
 * the tab edits About, goes to Home (a new page view, its drafts in the
 * same storage), edits it, and one review holds both; a draft of an older
 * version is rebased onto the page read again; a clashing one, or one with
 * a field to fix, is held back and named; other tabs' drafts are not
 * carried; drafts are cleared after a review is sent and kept after a
 * failure; a carried draft's chosen image goes up staged. Through the real
 * browser client to the real router (a real KV, a real git checkout).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Client } from "../../client/mod.ts";
import { EditorError } from "../../client/mod.ts";
import { createRouter } from "../../mod.ts";
import { sendForReview, showElsewhere } from "../../overlay/flows/review.ts";
import { Drafts, keepDrafts } from "../../overlay/io/drafts.ts";
import {
  ChosenImages,
  type ImageStore,
  memoryImageStore,
} from "../../overlay/io/images.ts";
import { carryDraft } from "../../overlay/state/carry.ts";
import { typed } from "../../overlay/state/commands.ts";
import {
  decodeDraft,
  type Draft,
  draftOf,
  encodeDraft,
} from "../../overlay/state/drafts.ts";
import { type FieldKind, fieldsFrom } from "../../overlay/state/fields.ts";
import { createPage } from "../../overlay/state/page.ts";
import { EditState } from "../../overlay/state/state.ts";
import { alertWords } from "../../overlay/views/words.ts";
import { createStore, type Store } from "../../overlay/store.ts";
import { routerClient } from "../support/router_client.ts";
import { memoryStorage } from "../support/memory_storage.ts";
import { HOME, type SignedInSite, signedInSite } from "../support/site.ts";

const ABOUT = "src/content/pages/en/about.json";
const ABOUT_PAGE = { title: "About", lead: "<p>Who we are</p>", note: "N" };
const FIELDS: Record<string, Array<[string, FieldKind]>> = {
  [HOME]: [["/title", "text"]],
  [ABOUT]: [["/title", "text"], ["/lead", "html"], ["/note", "text"]],
};
const ADDRESS: Record<string, string> = {
  [HOME]: "/en/",
  [ABOUT]: "/en/about/",
};

/** Commits a page file to the site's branch, as someone else would. */
async function commitPage(
  signed: SignedInSite,
  path: string,
  page: unknown,
): Promise<void> {
  await Deno.writeTextFile(
    join(signed.site.root, path),
    JSON.stringify(page, null, 2) + "\n",
  );
  await signed.site.git("add", path);
  await signed.site.git(
    "-c",
    "user.name=Someone",
    "-c",
    "user.email=someone@example.com",
    "commit",
    "-qm",
    `Edit ${path}`,
  );
}

/** One page view of a tab: the page read, its drafts kept in `storage`. */
async function pageView(
  client: Pick<Client, "read">,
  storage: Storage,
  tab: string,
  path: string,
  fields: Array<[string, FieldKind]> = FIELDS[path]!,
): Promise<{ store: Store; drafts: Drafts }> {
  const read = await client.read(path);
  const state = EditState.create();
  const store = createStore(state.apply(
    state.tr.addPage(
      createPage(
        path,
        read.version,
        JSON.parse(read.content),
        fieldsFrom(fields),
      ),
    ).setActivity({ kind: "idle" }),
  ));
  const drafts = new Drafts(storage, tab);
  keepDrafts(store, drafts, () => 1000, ADDRESS[path]);
  showElsewhere(store, drafts);
  return { store, drafts };
}

function type(store: Store, path: string, pointer: string, value: string) {
  store.dispatch(typed(store.state, path, pointer, value, pointer));
}

/** A site with About beside Home, a client, and one tab's storage. */
async function aboutAndHome(key: string) {
  const router = createRouter({ locales: ["en", "fr"] });
  const signed = await signedInSite(router, key);
  await commitPage(signed, ABOUT, ABOUT_PAGE);
  const client = routerClient(router.handle, signed.env, signed.cookie);
  return { signed, client, storage: memoryStorage() };
}

/** What a review holds: its pages, and its branch's commits and files. */
async function reviewed(signed: SignedInSite, client: Client) {
  const { reviews } = await client.reviews();
  assert.equal(reviews.length, 1, "one review");
  const review = await client.review(reviews[0]!.id);
  const branch = `inpage/review/${reviews[0]!.id}`;
  const head = (await signed.site.git("rev-parse", "HEAD")).trim();
  const commits = (await signed.site.git("rev-list", `${head}..${branch}`))
    .trim().split("\n").filter(Boolean);
  const files = (await signed.site.git(
    "diff",
    "--name-only",
    head,
    branch,
  )).trim().split("\n").sort();
  const content = new Map(
    review.pages.map((page) => [page.path, JSON.parse(page.content)]),
  );
  return { review, commits, files, content };
}

Deno.test("send for review carries this tab's drafts of other pages: About edited, then Home, one review holds both in one commit; the drafts are cleared and the bar names no other page", async () => {
  const { signed, client, storage } = await aboutAndHome("carry key");
  await using _ = signed;
  const head = (await signed.site.git("rev-parse", "HEAD")).trim();
  const about = await pageView(client, storage, "t1", ABOUT);
  type(about.store, ABOUT, "/title", "About us");
  // Another tab's draft of About is its own: offered back on About.
  const other = await pageView(client, storage, "t2", ABOUT);
  type(other.store, ABOUT, "/note", "Theirs");

  const home = await pageView(client, storage, "t1", HOME);
  assert.deepEqual(home.store.state.elsewhere, [
    { path: ABOUT, address: "/en/about/" },
  ]);
  type(home.store, HOME, "/title", "Welcome");
  home.store.dispatch(home.store.state.tr.setMessage("Spring update"));
  const images = new ChosenImages(memoryImageStore());
  assert.equal(
    await sendForReview({ ...home, client, images }),
    "sent",
  );

  const { review, commits, files, content } = await reviewed(signed, client);
  assert.equal(review.message, "Spring update");
  assert.deepEqual(review.pages.map((page) => page.path), [HOME, ABOUT]);
  assert.equal(commits.length, 1, "one commit on the review branch");
  assert.deepEqual(files, [ABOUT, HOME]);
  assert.equal(content.get(HOME).title, "Welcome");
  assert.deepEqual(content.get(ABOUT), { ...ABOUT_PAGE, title: "About us" });
  assert.equal((await signed.site.git("rev-parse", "HEAD")).trim(), head);

  const status = home.store.state.notice;
  assert.deepEqual(status, { code: "sentForReview", count: 2 });
  assert.equal(home.store.state.alert, undefined);
  assert.equal(home.store.state.page(HOME)!.changes.size, 0);
  assert.deepEqual(home.store.state.elsewhere, []);
  assert.deepEqual(home.drafts.elsewhere([HOME]), [], "About's draft cleared");
  assert.equal(home.drafts.all(HOME).length, 0, "Home's draft cleared");
  assert.deepEqual(
    home.drafts.all(ABOUT).map((kept) => kept.tab),
    ["t2"],
    "the other tab's draft is left alone",
  );
});

Deno.test("a draft of an older version is rebased onto the page read again: what someone published meanwhile is kept beside it", async () => {
  const { signed, client, storage } = await aboutAndHome("stale key");
  await using _ = signed;
  const about = await pageView(client, storage, "t1", ABOUT);
  type(about.store, ABOUT, "/title", "About us");
  await commitPage(signed, ABOUT, { ...ABOUT_PAGE, note: "Published since" });

  const home = await pageView(client, storage, "t1", HOME);
  home.store.dispatch(home.store.state.tr.setMessage("Only About"));
  // Nothing changed on Home: the review carries About alone.
  const images = new ChosenImages(memoryImageStore());
  assert.equal(await sendForReview({ ...home, client, images }), "sent");
  const { review, content } = await reviewed(signed, client);
  assert.deepEqual(review.pages.map((page) => page.path), [ABOUT]);
  assert.deepEqual(content.get(ABOUT), {
    ...ABOUT_PAGE,
    title: "About us",
    note: "Published since",
  });
  assert.deepEqual(home.store.state.notice, {
    code: "sentForReview",
    count: 1,
  });
});

Deno.test("a clashing draft is held back: the other pages are sent, the alert names the page to open, and its draft is kept", async () => {
  const { signed, client, storage } = await aboutAndHome("clash key");
  await using _ = signed;
  const about = await pageView(client, storage, "t1", ABOUT);
  type(about.store, ABOUT, "/title", "About us");
  await commitPage(signed, ABOUT, { ...ABOUT_PAGE, title: "About them" });

  const home = await pageView(client, storage, "t1", HOME);
  type(home.store, HOME, "/title", "Welcome");
  home.store.dispatch(home.store.state.tr.setMessage("Spring update"));
  const images = new ChosenImages(memoryImageStore());
  assert.equal(await sendForReview({ ...home, client, images }), "sent");
  const { review } = await reviewed(signed, client);
  assert.deepEqual(review.pages.map((page) => page.path), [HOME]);
  assert.deepEqual(home.store.state.alert, {
    code: "heldElsewhere",
    pages: [{ path: ABOUT, address: "/en/about/", why: "clash" }],
  });
  assert.match(
    alertWords(home.store.state.alert!),
    /^Not sent: \/en\/about\/\. Someone changed the same field meanwhile: open that page to settle it/,
  );
  assert.deepEqual(home.store.state.elsewhere, [
    { path: ABOUT, address: "/en/about/" },
  ]);
  assert.equal(home.drafts.elsewhere([HOME]).length, 1, "the draft is kept");

  // With nothing else to send, nothing is sent, and the alert says why.
  home.store.dispatch(home.store.state.tr.setMessage("Again"));
  assert.equal(await sendForReview({ ...home, client, images }), "held-back");
  assert.deepEqual(home.store.state.notice, { code: "notSent" });
  assert.equal(home.store.state.alert?.code, "heldElsewhere");
  assert.equal((await client.reviews()).reviews.length, 1, "no new review");
});

Deno.test("a carried draft is checked as a publish is: a field the page rules refuse holds that page back; a draft the page already holds is cleared", async () => {
  const { signed, client, storage } = await aboutAndHome("rules key");
  await using _ = signed;
  const about = await pageView(client, storage, "t1", ABOUT);
  type(about.store, ABOUT, "/title", "About <b>us</b>");
  const home = await pageView(client, storage, "t1", HOME);
  type(home.store, HOME, "/title", "Welcome");
  home.store.dispatch(home.store.state.tr.setMessage("Checked"));
  const images = new ChosenImages(memoryImageStore());
  assert.equal(await sendForReview({ ...home, client, images }), "sent");
  assert.deepEqual(home.store.state.alert, {
    code: "heldElsewhere",
    pages: [{ path: ABOUT, address: "/en/about/", why: "problems" }],
  });
  assert.match(
    alertWords(home.store.state.alert!),
    /A field there needs fixing: open that page to fix it/,
  );
  // Someone published exactly what the draft holds: nothing to carry.
  const draft = home.drafts.elsewhere([HOME])[0]!.draft;
  await commitPage(signed, ABOUT, { ...ABOUT_PAGE, title: "Theirs" });
  const read = await client.read(ABOUT);
  const same = { ...draft, changes: new Map([["/title", "Theirs"]]) };
  assert.equal(
    carryDraft(ABOUT, {
      version: read.version,
      page: JSON.parse(read.content),
    }, same).kind,
    "done",
  );
  home.drafts.save(ABOUT, same);
  // (Saved under Home's view's tab: the same tab, t1.)
  home.store.dispatch(home.store.state.tr.setMessage("Nothing left"));
  assert.equal(await sendForReview({ ...home, client, images }), "nothing");
  assert.deepEqual(home.drafts.elsewhere([HOME]), [], "the draft is cleared");
});

Deno.test("a failed send keeps every change and every draft, and the bar says why", async () => {
  const { signed, client: real, storage } = await aboutAndHome("fail key");
  await using _ = signed;
  const about = await pageView(real, storage, "t1", ABOUT);
  type(about.store, ABOUT, "/title", "About us");
  const home = await pageView(real, storage, "t1", HOME);
  type(home.store, HOME, "/title", "Welcome");
  home.store.dispatch(home.store.state.tr.setMessage("Spring update"));
  const sent: string[][] = [];
  const client = Object.assign(Object.create(real), {
    sendForReview: (request: { pages: Array<{ path: string }> }) => {
      sent.push(request.pages.map((page) => page.path));
      return Promise.reject(
        new EditorError("unavailable", { status: 503 }),
      );
    },
  }) as Client;
  const images = new ChosenImages(memoryImageStore());
  assert.equal(await sendForReview({ ...home, client, images }), "failed");
  assert.deepEqual(sent, [[HOME, ABOUT]], "both were in the one request");
  assert.deepEqual(home.store.state.alert, {
    code: "failure",
    error: "unavailable",
  });
  assert.equal(home.store.state.activity.kind, "idle");
  assert.equal(home.store.state.page(HOME)!.changes.get("/title"), "Welcome");
  assert.equal(home.store.state.message, "Spring update");
  assert.equal(home.drafts.elsewhere([HOME]).length, 1, "About's draft kept");
  assert.deepEqual(home.store.state.elsewhere, [
    { path: ABOUT, address: "/en/about/" },
  ]);
  // Sent again, it goes.
  assert.equal(
    await sendForReview({ ...home, client: real, images }),
    "sent",
  );
  assert.deepEqual(home.drafts.elsewhere([HOME]), []);
});

const PNG = await Deno.readFile(
  new URL(
    "../../examples/site/public/images/hills-at-dawn-98c9ac741e4e.png",
    import.meta.url,
  ),
);

Deno.test("an image chosen on another page view goes up staged with the review, read back from the image store the draft names", async () => {
  const router = createRouter({ locales: ["en", "fr"] });
  await using signed = await signedInSite(router, "image key");
  await commitPage(signed, ABOUT, {
    ...ABOUT_PAGE,
    image: { src: "old-0123456789ab.png", width: 10, height: 10, alt: "" },
  });
  const client = routerClient(router.handle, signed.env, signed.cookie);
  const storage = memoryStorage();
  const kept: ImageStore = memoryImageStore();
  const about = await pageView(client, storage, "t1", ABOUT, [
    ...FIELDS[ABOUT]!,
    ["/image", "image"],
  ]);
  const src = new ChosenImages(kept).add(
    new Blob([PNG], { type: "image/png" }),
    "hills.png",
  );
  about.store.dispatch(
    about.store.state.tr.change(ABOUT, "/image", {
      src,
      width: 960,
      height: 540,
      alt: "Hills",
    }),
  );
  // The next page view has its own chosen images, over the same store.
  const home = await pageView(client, storage, "t1", HOME);
  home.store.dispatch(home.store.state.tr.setMessage("A new picture"));
  const images = new ChosenImages(kept);
  assert.equal(await sendForReview({ ...home, client, images }), "sent");
  const { content, files } = await reviewed(signed, client);
  const image = content.get(ABOUT).image;
  assert.match(image.src, /^hills-[0-9a-f]{12}\.png$/);
  assert.equal(image.alt, "Hills");
  assert.deepEqual(files, [`public/images/${image.src}`, ABOUT]);
  assert.equal(await kept.get(src), undefined, "the image store forgets it");
});

Deno.test("a draft keeps the address of its page view, the fields it showed and the keys it may create; an earlier overlay's draft reads without them", () => {
  const page = {
    ...createPage(
      ABOUT,
      "v1",
      ABOUT_PAGE,
      fieldsFrom([["/title", "text"], ["/sections/0/heading", "text"]], [
        "/sections",
      ]),
    ),
    changes: new Map([["/title", "B"]]),
    newKeys: new Set(["/sections"]),
  };
  const read = decodeDraft(encodeDraft(draftOf(page, 5, "/en/about/")))!;
  assert.equal(read.address, "/en/about/");
  assert.deepEqual([...read.fields!.fixed], [...page.fields.fixed]);
  assert.deepEqual(
    [...read.fields!.lists.get("/sections")!],
    [["/heading", "text"]],
  );
  assert.deepEqual([...read.newKeys!], ["/sections"]);
  const earlier: Draft = decodeDraft(JSON.stringify({
    savedAt: 1,
    version: "v1",
    base: [["/title", "A"]],
    changes: [["/title", "B"]],
  }))!;
  assert.equal(earlier.address, undefined);
  assert.equal(earlier.fields, undefined);
  // A kind no region has is not read back as fields.
  const damaged = JSON.parse(encodeDraft(draftOf(page, 5)));
  damaged.fields.fixed[0][1] = "script";
  assert.equal(decodeDraft(JSON.stringify(damaged))!.fields, undefined);
});
