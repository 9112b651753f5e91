/**
 * Review in the overlay without a browser: the send-for-review flow through
 * the real browser client to the real router (a real KV, a real git
 * checkout), and the preview's plan of what it puts into the live page.
 */
import assert from "node:assert/strict";
import type { Client } from "../../client/mod.ts";
import { createRouter } from "../../mod.ts";
import { EditState } from "../../overlay/state/state.ts";
import { createPage } from "../../overlay/state/page.ts";
import { type FieldKind, fieldsFrom } from "../../overlay/state/fields.ts";
import { typed } from "../../overlay/state/commands.ts";
import { statusOf } from "../../overlay/state/status.ts";
import { createStore, type Store } from "../../overlay/store.ts";
import { sendForReview } from "../../overlay/flows/review.ts";
import { ChosenImages, memoryImageStore } from "../../overlay/io/images.ts";
import { previewPlan, unseenChanges } from "../../overlay/preview/plan.ts";
import { HOME, HOME_TEXT, signedInSite } from "../support/site.ts";
import { routerClient } from "../support/router_client.ts";

async function storeOf(client: Pick<Client, "read">): Promise<Store> {
  const read = await client.read(HOME);
  const state = EditState.create();
  const fields: Array<[string, FieldKind]> = [["/title", "text"]];
  return createStore(state.apply(
    state.tr.addPage(
      createPage(
        HOME,
        read.version,
        JSON.parse(read.content),
        fieldsFrom(fields, []),
      ),
    ).setActivity({ kind: "idle" }),
  ));
}

Deno.test("send for review: a message is asked for first; then every changed page goes in one review, the site branch untouched, the changes leave the tab and the bar says so", async () => {
  const router = createRouter({ locales: ["en", "fr"] });
  await using signed = await signedInSite(router, "review flow key");
  const client = routerClient(router.handle, signed.env, signed.cookie);
  const store = await storeOf(client);
  const images = new ChosenImages(memoryImageStore());
  const head = (await signed.site.git("rev-parse", "HEAD")).trim();

  assert.equal(await sendForReview({ store, client, images }), "nothing");
  store.dispatch(
    typed(store.state, HOME, "/title", "Reviewed title", "/title"),
  );
  assert.equal(await sendForReview({ store, client, images }), "message");
  assert.deepEqual((await client.reviews()).reviews, [], "nothing sent");
  assert.equal(store.state.page(HOME)!.changes.size, 1, "the change stays");

  store.dispatch(store.state.tr.setMessage("A new title"));
  assert.equal(await sendForReview({ store, client, images }), "sent");
  assert.equal(store.state.page(HOME)!.changes.size, 0);
  assert.equal(store.state.message, "");
  const status = statusOf(store.state);
  assert.equal(status.code, "notice");
  assert.deepEqual(
    status.code === "notice" ? status.notice : undefined,
    { code: "sentForReview", count: 1 },
  );
  const { reviews } = await client.reviews();
  assert.equal(reviews.length, 1);
  assert.equal(reviews[0]!.message, "A new title");
  assert.deepEqual(reviews[0]!.pages, [HOME]);
  const review = await client.review(reviews[0]!.id);
  assert.equal(JSON.parse(review.pages[0]!.content).title, "Reviewed title");
  assert.deepEqual(review.pages[0]!.changed, ["/title"]);
  assert.equal((await signed.site.git("rev-parse", "HEAD")).trim(), head);
  assert.equal(await signed.site.read(HOME), HOME_TEXT);
});

Deno.test("the preview's plan: each region of a review's page gets the review's value, outlined when the review changed it or a field inside it; fields no region shows are named", () => {
  const page = {
    path: "a.json",
    content: JSON.stringify({
      title: "New",
      intro: "<p>Same</p>",
      sections: [{ heading: "Changed" }, { heading: "Kept" }],
      description: "New description",
    }),
    changed: ["/title", "/sections/0/heading", "/description"],
  };
  const regions = [
    { path: "a.json", kind: "text", pointer: "/title" },
    { path: "a.json", kind: "html", pointer: "/intro" },
    { path: "a.json", kind: "list", pointer: "/sections" },
    { path: "a.json", kind: "text", pointer: "/sections/0/heading" },
    { path: "a.json", kind: "text", pointer: "/sections/1/heading" },
    { path: "other.json", kind: "text", pointer: "/title" },
  ];
  const plan = previewPlan([page], regions);
  assert.deepEqual(
    plan.map((entry) => [entry.region.pointer, entry.value, entry.changed]),
    [
      ["/title", "New", true],
      ["/intro", "<p>Same</p>", false],
      ["/sections", [{ heading: "Changed" }, { heading: "Kept" }], false],
      ["/sections/0/heading", "Changed", true],
      ["/sections/1/heading", "Kept", false],
    ],
  );
  assert.deepEqual(unseenChanges([page], regions), [
    { path: "a.json", pointer: "/description" },
  ]);
  // A new page: everything in it is a change.
  const fresh = previewPlan([{ ...page, changed: [""] }], regions);
  assert.ok(fresh.every((entry) => entry.changed));
  // A region naming nothing: no value, and a page that is not JSON: nothing.
  assert.equal(
    previewPlan([page], [{
      path: "a.json",
      kind: "text",
      pointer: "/nope",
    }])[0]!
      .value,
    undefined,
  );
  assert.deepEqual(
    previewPlan([{ ...page, content: "{" }], regions),
    [],
  );
});
