/**
 * The publish workflow without a browser, through the real browser client
 * to the real router over a real KV and a real git checkout: the message
 * used once, a conflict's three sides and Keep mine, a flagged problem
 * holding the publish back with nothing sent, a change naming nothing in
 * the file refused before any request, a 422's every problem, chosen
 * images uploaded once just before their page, what is typed meanwhile
 * kept, and a publish interrupted after the server wrote it never shown
 * as someone else's.
 */
import assert from "node:assert/strict";
import type { Client } from "../../client/mod.ts";
import { createClient } from "../../client/mod.ts";
import { createRouter } from "../../mod.ts";
import { EditState } from "../../overlay/state/state.ts";
import { createPage } from "../../overlay/state/page.ts";
import { type FieldKind, fieldsFrom } from "../../overlay/state/fields.ts";
import { typed } from "../../overlay/state/commands.ts";
import { listCommand } from "../../overlay/state/lists.ts";
import { undo } from "../../overlay/state/history.ts";
import { problemsOf } from "../../overlay/state/problems.ts";
import { statusOf } from "../../overlay/state/status.ts";
import { createStore, type Store } from "../../overlay/store.ts";
import {
  type ConflictAnswer,
  publish,
  type PublishClient,
  type PublishQuestions,
} from "../../overlay/flows/publish.ts";
import { ChosenImages, memoryImageStore } from "../../overlay/io/images.ts";
import type { MergeField } from "../../overlay/state/merge.ts";
import type { Problem } from "../../overlay/state/problems.ts";
import type { PageObject } from "../../overlay/state/values.ts";
import { ORIGIN } from "../support/helpers.ts";
import { HOME, signedInSite } from "../support/site.ts";
import { routerClient } from "../support/router_client.ts";

/** Questions answered as a test says, each one noted. */
function questions(answers: {
  conflict?: (fields: readonly MergeField[]) => ConflictAnswer;
  emptied?: boolean;
} = {}): PublishQuestions & { asked: string[]; fields: MergeField[][] } {
  const asked: string[] = [];
  const fields: MergeField[][] = [];
  return {
    asked,
    fields,
    heldBack: (problems: readonly Problem[]) => {
      asked.push(`heldBack ${problems.map((p) => p.at).join(" ")}`);
      return Promise.resolve();
    },
    emptied: () => {
      asked.push("emptied");
      return Promise.resolve(answers.emptied ?? true);
    },
    conflict: (found) => {
      asked.push("conflict");
      fields.push([...found]);
      return Promise.resolve(
        answers.conflict?.(found) ?? { action: "cancel" },
      );
    },
    login: () => {
      asked.push("login");
      return Promise.resolve(false);
    },
  };
}

async function storeOf(
  client: Pick<Client, "read">,
  fields: Array<[string, FieldKind]> = [["/title", "text"]],
  lists: string[] = [],
): Promise<Store> {
  const read = await client.read(HOME);
  const state = EditState.create();
  return createStore(state.apply(
    state.tr.addPage(
      createPage(
        HOME,
        read.version,
        JSON.parse(read.content),
        fieldsFrom(fields, lists),
      ),
    ).setActivity({ kind: "idle" }),
  ));
}

function run(
  store: Store,
  client: PublishClient,
  ask: PublishQuestions = questions(),
  images = new ChosenImages(memoryImageStore()),
) {
  return publish({ store, client, images, ask });
}

const type = (store: Store, pointer: string, value: string) =>
  store.dispatch(typed(store.state, HOME, pointer, value, pointer));

Deno.test("publish: the message is used once and cleared; a conflict compares the three sides, Keep mine publishes on top of theirs with the message", async () => {
  const router = createRouter({ locales: ["en", "fr"] });
  await using signed = await signedInSite(router, "publish key");
  const client = routerClient(router.handle, signed.env, signed.cookie);
  const fields: Array<[string, FieldKind]> = [
    ["/title", "text"],
    ["/sections/0/body", "html"],
  ];
  const mine = await storeOf(client, fields);
  const other = await storeOf(client, fields);

  mine.dispatch(mine.state.tr.setMessage("First message"));
  type(mine, "/title", "Mine");
  assert.equal(await run(mine, client), "published");
  assert.equal(mine.state.message, "");
  assert.equal(statusOf(mine.state).tone, "published");
  assert.equal(mine.state.page(HOME)!.changes.size, 0);
  assert.equal(
    (await signed.site.git("log", "-1", "--format=%s")).trim(),
    "First message",
  );

  other.dispatch(other.state.tr.setMessage("Their message"));
  type(other, "/title", "Theirs");
  type(other, "/sections/0/body", "<p>Their body</p>");
  // Keep mine, "theirs" for the clashing title.
  const ask = questions({
    conflict: () => ({
      action: "keep",
      choices: new Map([["/title", "theirs" as const]]),
    }),
  });
  assert.equal(await run(other, client, ask), "published");
  assert.deepEqual(ask.asked, ["conflict"]);
  assert.deepEqual(
    ask.fields[0]!.map((f) => [f.pointer, f.mine, f.theirs, f.clash]),
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
  assert.equal(other.state.message, "");
  const page = JSON.parse((await client.read(HOME)).content);
  assert.equal(page.title, "Mine");
  assert.equal(page.sections[0].body, "<p>Their body</p>");
  assert.equal(
    (await signed.site.git("log", "-1", "--format=%s")).trim(),
    "Their message",
  );
  // The next publish, with no message typed, gets the default one.
  type(other, "/title", "Next");
  assert.equal(await run(other, client), "published");
  assert.equal(
    (await signed.site.git("log", "-1", "--format=%s")).trim(),
    `Update ${HOME}`,
  );
});

Deno.test("publish: a problem the overlay flagged holds the publish back, with the list, and sends nothing", async () => {
  const router = createRouter({ locales: ["en", "fr"] });
  await using signed = await signedInSite(router, "held key");
  const calls: string[] = [];
  const client = routerClient(router.handle, signed.env, signed.cookie, calls);
  const store = await storeOf(client, [
    ["/title", "text"],
    ["/sections/0/body", "text"],
  ], ["/sections"]);
  type(store, "/sections/0/body", "A <script> heading");
  type(store, "/title", "");
  calls.length = 0;
  const ask = questions();
  assert.equal(await run(store, client, ask), "held-back");
  // Held back before the emptied title is even asked about.
  assert.deepEqual(ask.asked, ["heldBack /sections/0/body"]);
  assert.deepEqual(calls, []);
  assert.deepEqual(statusOf(store.state), {
    tone: "error",
    code: "notice",
    notice: { code: "notPublished", why: "heldBack", count: 1 },
  });
  // Fixed, the emptied title is asked about; declined, nothing is sent.
  type(store, "/sections/0/body", "A heading");
  const declined = questions({ emptied: false });
  assert.equal(await run(store, client, declined), "cancelled");
  assert.deepEqual(declined.asked, ["emptied"]);
  assert.deepEqual(calls, []);
});

Deno.test("publish: a change that would add a key is refused before any request; undone, the rest publishes; a list operation creates keys on purpose", async () => {
  const router = createRouter({ locales: ["en", "fr"] });
  await using signed = await signedInSite(router, "stray key");
  const calls: string[] = [];
  const client = routerClient(router.handle, signed.env, signed.cookie, calls);
  const store = await storeOf(client, [["/title", "text"]], ["/sections"]);
  const head = (await signed.site.git("rev-parse", "HEAD")).trim();
  type(store, "/title", "New title");
  store.dispatch(store.state.tr.change(HOME, "/descripton", "Typo"));
  calls.length = 0;
  assert.equal(await run(store, client), "refused");
  assert.deepEqual(calls, []);
  assert.equal((await signed.site.git("rev-parse", "HEAD")).trim(), head);
  assert.deepEqual(store.state.alert, { code: "stray", at: "/descripton" });
  assert.ok(
    problemsOf(store.state).some((p) =>
      p.at === "/descripton" && p.reason === "missing"
    ),
  );
  store.dispatch(undo(store.state));
  assert.equal(await run(store, client), "published");
  const file = JSON.parse((await signed.site.read(HOME))!);
  assert.equal(file.title, "New title");
  assert.equal(Object.hasOwn(file, "descripton"), false);
  store.dispatch(
    listCommand(store.state, HOME, {
      op: "copy",
      list: "/sections",
      from: 0,
      to: 1,
    }),
  );
  store.dispatch(
    store.state.tr.change(HOME, "/subtitle", "From the Page panel", {
      newKey: true,
    }),
  );
  assert.equal(await run(store, client), "published");
  const grown = JSON.parse((await signed.site.read(HOME))!);
  assert.equal(grown.sections.length, 2);
  assert.equal(grown.subtitle, "From the Page panel");
});

Deno.test("publish: a 422 outlines every problem at once; changing a refused field takes its problem away", async () => {
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
  const state = EditState.create();
  const base: PageObject = {
    title: "T",
    sections: [{ heading: "H", body: "<p>B</p>" }],
  };
  const store = createStore(state.apply(
    state.tr.addPage(createPage(
      HOME,
      "v1",
      base,
      fieldsFrom([
        ["/sections/0/heading", "text"],
        ["/sections/0/body", "html"],
      ], ["/sections"]),
    )).setActivity({ kind: "idle" }),
  ));
  type(store, "/title", "Changed");
  assert.equal(await run(store, client), "refused");
  assert.deepEqual(
    problemsOf(store.state).filter((p) => !p.local).map((p) => [
      p.at,
      p.reason,
      p.kind,
    ]),
    [["/sections/0/heading", "markup", "text"], [
      "/sections/0/body",
      "link",
      "html",
    ]],
  );
  assert.equal(store.state.alert?.code, "refused");
  assert.equal(store.state.activity.kind, "idle");
  type(store, "/sections/0/heading", "Fixed");
  assert.deepEqual(
    problemsOf(store.state).filter((p) => !p.local).map((p) => p.at),
    ["/sections/0/body"],
  );
});

const PNG = await Deno.readFile(
  new URL(
    "../../examples/site/public/images/hills-at-dawn-98c9ac741e4e.png",
    import.meta.url,
  ),
);

Deno.test("publish: a chosen image goes up once, staged, just before its page, and the page names it by its stored name from then on; one discarded never goes up", async () => {
  const router = createRouter({ locales: ["en", "fr"] });
  await using signed = await signedInSite(router, "images key");
  const real = routerClient(router.handle, signed.env, signed.cookie);
  const home = await real.read(HOME);
  const image = { src: "old-0123456789ab.png", width: 10, height: 10, alt: "" };
  await real.publish({
    path: HOME,
    version: home.version,
    content: { ...JSON.parse(home.content), image },
  });
  const calls: string[] = [];
  const client: PublishClient = {
    read: real.read.bind(real),
    publish: (request) => {
      calls.push("publish");
      return real.publish(request);
    },
    upload: (file, name, options) => {
      calls.push(
        `upload ${
          (file as File).name
        } ${name} ${file.type} staged=${options?.staged}`,
      );
      return real.upload(file, name, options);
    },
  };
  const store = await storeOf(real, [["/image", "image"]]);
  const images = new ChosenImages(memoryImageStore());
  const blob = new Blob([PNG], { type: "image/png" });
  const src = images.add(blob, "hills.png");
  store.dispatch(
    store.state.tr.change(HOME, "/image", {
      src,
      width: 960,
      height: 540,
      alt: "Hills",
    }),
  );
  assert.equal(await run(store, client, questions(), images), "published");
  assert.deepEqual(calls, [
    "upload hills.png hills image/png staged=true",
    "publish",
  ]);
  const page = JSON.parse((await real.read(HOME)).content);
  assert.match(page.image.src, /^hills-[0-9a-f]{12}\.png$/);
  assert.deepEqual(store.state.page(HOME)!.base.image, page.image);
  assert.equal(images.has(src), false);
});

Deno.test("publish: what is typed while the page goes up stays a change on top of the new version", async () => {
  const router = createRouter({ locales: ["en", "fr"] });
  await using signed = await signedInSite(router, "typing key");
  const real = routerClient(router.handle, signed.env, signed.cookie);
  const store = await storeOf(real, [
    ["/title", "text"],
    ["/sections/0/body", "html"],
  ]);
  const client: PublishClient = {
    read: real.read.bind(real),
    publish: async (request) => {
      // Typed while the request is under way.
      type(store, "/sections/0/body", "<p>Typed meanwhile</p>");
      type(store, "/title", "Sent, then more");
      return await real.publish(request);
    },
  };
  type(store, "/title", "Sent");
  assert.equal(await run(store, client), "published");
  assert.equal(JSON.parse((await real.read(HOME)).content).title, "Sent");
  const page = store.state.page(HOME)!;
  assert.equal(page.base.title, "Sent");
  assert.deepEqual(
    new Map(page.changes),
    new Map([
      ["/sections/0/body", "<p>Typed meanwhile</p>"],
      ["/title", "Sent, then more"],
    ]),
  );
});

Deno.test("publish: when the server already holds every change (this person's own publish, its answer lost), it is published, with no conflict", async () => {
  const router = createRouter({ locales: ["en", "fr"] });
  await using signed = await signedInSite(router, "own key");
  const real = routerClient(router.handle, signed.env, signed.cookie);
  const store = await storeOf(real, [["/title", "text"]]);
  type(store, "/title", "Mine");
  // The page went up, but its answer never came back (a reload, a lost
  // connection): the next try is a 409 against the page this person wrote.
  const read = await real.read(HOME);
  await real.publish({
    path: HOME,
    version: read.version,
    content: { ...JSON.parse(read.content), title: "Mine" },
  });
  const ask = questions();
  assert.equal(await run(store, real, ask), "published");
  assert.deepEqual(ask.asked, []);
  assert.equal(statusOf(store.state).tone, "published");
  assert.equal(store.state.page(HOME)!.changes.size, 0);
});

Deno.test("publish: a list clashing with theirs; each choice publishes what it says", async () => {
  const router = createRouter({ locales: ["en", "fr"] });
  await using signed = await signedInSite(router, "lists key");
  const client = routerClient(router.handle, signed.env, signed.cookie);
  const read = await client.read(HOME);
  const start = JSON.parse(read.content) as PageObject;
  start.sections = [
    { id: "one", body: "<p>One</p>" },
    { id: "two", body: "<p>Two</p>" },
  ];
  await client.publish({ path: HOME, content: start, version: read.version });
  const fields: Array<[string, FieldKind]> = [["/sections/1/body", "html"]];
  const other = await storeOf(client, fields, ["/sections"]);
  const mine = await storeOf(client, fields, ["/sections"]);
  type(other, "/sections/1/body", "<p>Their two</p>");
  assert.equal(await run(other, client), "published");
  mine.dispatch(
    listCommand(mine.state, HOME, {
      op: "copy",
      list: "/sections",
      from: 0,
      to: 1,
    }),
  );
  const ask = questions({
    conflict: () => ({
      action: "keep",
      choices: new Map([["/sections", "mine" as const]]),
    }),
  });
  assert.equal(await run(mine, client, ask), "published");
  assert.deepEqual(
    ask.fields[0]!.map((field) => [field.pointer, field.clash]),
    [["/sections", true]],
  );
  const page = JSON.parse((await client.read(HOME)).content);
  assert.deepEqual(page.sections.map((s: PageObject) => [s.id, s.body]), [
    ["one", "<p>One</p>"],
    ["one-2", "<p>One</p>"],
    ["two", "<p>Two</p>"],
  ]);
});
