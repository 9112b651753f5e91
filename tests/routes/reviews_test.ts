/**
 * Review before publishing, through the router with real requests, a real
 * KV and real git, on a local checkout and on the GitHub double alike: a
 * review leaves the site branch (and the work tree) untouched and its
 * branch holds one commit with every page and its staged image; a publish
 * merges per field in one commit on the site branch and deletes the branch
 * (closing the pull request with a comment naming the commit); a clash is
 * a 409 listing the fields and publishes nothing; closing deletes the
 * branch; a branch name that exists is never reused.
 */
import assert from "node:assert/strict";
import { gitBlobSha } from "../../lib/repository/repository.ts";
import { HOME, HOME_TEXT } from "../support/site.ts";
import {
  ABOUT,
  BACKENDS,
  call,
  post,
  type ReviewBackend,
  stage,
} from "../support/review_backend.ts";

const IMAGES = new URL("../../../shared/corpora/images/", import.meta.url);
const PNG = await Deno.readFile(new URL("pngsuite/basn6a08.png", IMAGES));
const HOME_VERSION = gitBlobSha(new TextEncoder().encode(HOME_TEXT));
const home = JSON.parse(HOME_TEXT);

/** Home with fields replaced, as the overlay sends it. */
function homeWith(fields: Record<string, unknown>): string {
  return JSON.stringify({ ...home, ...fields });
}

/** Bob sends the home page (a new title) and a new about page naming an image. */
async function sendTwoPages(b: ReviewBackend) {
  const image = await stage(b, PNG, "Team", b.cookies.bob);
  const about = {
    title: "About us",
    hero: { ...image, alt: "The team" },
  };
  const sent = await post(b, "/api/reviews", {
    message: "New title and an about page",
    pages: [
      {
        path: HOME,
        content: homeWith({ title: "Welcome" }),
        version: HOME_VERSION,
      },
      { path: ABOUT, content: JSON.stringify(about), version: "" },
    ],
  }, b.cookies.bob);
  assert.equal(sent.status, 201, JSON.stringify(sent.body));
  return {
    created: sent.body as { id: string; branch: string; pull?: number },
    image,
  };
}

for (const [where, open] of BACKENDS) {
  Deno.test(`on ${where}: a review leaves the site branch untouched; its branch holds one commit with every page and the staged image`, async () => {
    await using b = await open();
    const before = await b.site();
    const { created, image } = await sendTwoPages(b);
    assert.match(created.id, /^[0-9a-f]{32}$/);
    assert.equal(created.branch, `inpage/review/${created.id}`);
    assert.deepEqual(await b.site(), before, "the site branch did not move");
    assert.equal(await b.siteFile(HOME), HOME_TEXT);
    assert.equal(await b.siteFile(ABOUT), undefined);
    await b.workTreeUntouched();
    const branch = await b.branch(created.branch);
    assert.ok(branch, "the branch exists");
    assert.equal(branch.parent, before.head, "one commit on the site head");
    assert.equal(branch.author, "Bob Stone <bob@example.com>");
    assert.deepEqual(branch.paths, [
      `public/images/${image.src}`,
      ABOUT,
      HOME,
    ]);
    assert.deepEqual(
      await b.branchFile(created.branch, `public/images/${image.src}`),
      PNG,
    );
    if (b.github) {
      assert.equal(created.pull, 1);
      const pull = b.github.pulls.get(1)!;
      assert.equal(pull.title, "New title and an about page");
      assert.equal(pull.head, created.branch);
      assert.equal(pull.base, "main");
      assert.match(
        pull.body!,
        /`src\/content\/pages\/en\/home\.json`: `\/title`/,
      );
      assert.match(
        pull.body!,
        /`src\/content\/pages\/en\/about\.json`: a new page/,
      );
      assert.match(pull.body!, /`Bob Stone`/);
    } else assert.equal(created.pull, undefined);

    // Listed for every editor; one review read whole.
    const list = await call(b, "", b.cookies.alice);
    assert.equal(list.status, 200);
    assert.deepEqual(list.body, {
      reviews: [{
        id: created.id,
        branch: created.branch,
        message: "New title and an about page",
        author: { id: "bob", name: "Bob Stone" },
        created: new Date(b.clock.now()).toISOString(),
        pages: [HOME, ABOUT],
        scheduled: null,
        failed: null,
        ...(b.github ? { pull: 1 } : {}),
      }],
    });
    const one = await call(b, `id=${created.id}`, b.cookies.carol);
    assert.equal(one.status, 200);
    const pages = (one.body as { pages: Record<string, string>[] }).pages;
    assert.deepEqual(pages.map(({ path, base }) => [path, base]), [
      [HOME, HOME_VERSION],
      [ABOUT, ""],
    ]);
    assert.equal(JSON.parse(pages[0]!.content!).title, "Welcome");
    assert.equal(
      pages[0]!.version,
      gitBlobSha(new TextEncoder().encode(pages[0]!.content!)),
    );
    // The image is committed on the branch: staged no more.
    const again = await post(b, "/api/reviews", {
      message: "Again",
      pages: [{
        path: "src/content/pages/en/team.json",
        content: JSON.stringify({ hero: { ...image, alt: "x" } }),
        version: "",
      }],
    }, b.cookies.bob);
    assert.equal(again.status, 201);
    const second = (again.body as { branch: string }).branch;
    assert.deepEqual((await b.branch(second))!.paths, [
      "src/content/pages/en/team.json",
    ]);
  });

  Deno.test(`on ${where}: publishing merges per field in one commit on the site branch and deletes the review's branch`, async () => {
    await using b = await open();
    const { created, image } = await sendTwoPages(b);
    // Meanwhile another field of the home page is published.
    const theirs = homeWith({
      sections: [{ id: "intro", body: "Hello <em>there</em>" }],
    });
    await b.publishElsewhere(HOME, theirs);
    const before = await b.site();
    const refused = await post(
      b,
      "/api/reviews/publish",
      { id: created.id },
      b.cookies.carol,
    );
    assert.deepEqual([refused.status, refused.body], [403, {
      error: "forbidden",
    }]);
    const published = await post(
      b,
      "/api/reviews/publish",
      { id: created.id },
      b.cookies.alice,
    );
    assert.equal(published.status, 200, JSON.stringify(published.body));
    const { commit, versions } = published.body as {
      commit: string;
      versions: Record<string, string>;
    };
    const after = await b.site();
    assert.equal(after.count, before.count + 1, "exactly one commit");
    assert.equal(after.head, commit);
    const merged = JSON.parse((await b.siteFile(HOME))!);
    assert.equal(merged.title, "Welcome", "the review's field");
    assert.equal(
      merged.sections[0].body,
      "Hello <em>there</em>",
      "the field published meanwhile",
    );
    assert.deepEqual(Object.keys(versions).sort(), [ABOUT, HOME]);
    assert.equal(
      versions[HOME],
      gitBlobSha(new TextEncoder().encode((await b.siteFile(HOME))!)),
    );
    assert.equal(JSON.parse((await b.siteFile(ABOUT))!).hero.src, image.src);
    await b.workTreeUntouched();
    assert.equal(await b.branch(created.branch), undefined, "branch deleted");
    if (b.github) {
      const pull = b.github.pulls.get(created.pull!)!;
      assert.equal(pull.state, "closed");
      assert.equal(pull.comments.length, 1);
      assert.match(pull.comments[0]!, new RegExp(`Published in ${commit} by`));
      assert.ok(b.github.files.has(`public/images/${image.src}`));
    }
    const list = await call(b, "", b.cookies.alice);
    assert.deepEqual(list.body, { reviews: [] });
    const gone = await call(b, `id=${created.id}`, b.cookies.alice);
    assert.deepEqual([gone.status, gone.body], [404, { error: "not_found" }]);
    const twice = await post(
      b,
      "/api/reviews/publish",
      { id: created.id },
      b.cookies.alice,
    );
    assert.equal(twice.status, 404);
  });

  Deno.test(`on ${where}: a field changed on both sides is a 409 listing the fields, and nothing is published`, async () => {
    await using b = await open();
    const { created } = await sendTwoPages(b);
    await b.publishElsewhere(HOME, homeWith({ title: "Their title" }));
    const before = await b.site();
    const before409 = b.github?.requests.length ?? 0;
    for (let attempt = 0; attempt < 2; attempt++) {
      const clash = await post(
        b,
        "/api/reviews/publish",
        { id: created.id },
        b.cookies.plain,
      );
      assert.deepEqual([clash.status, clash.body], [409, {
        error: "conflict",
        fields: [{ path: HOME, pointer: "/title" }],
      }]);
    }
    assert.deepEqual(await b.site(), before, "nothing published");
    assert.equal(JSON.parse((await b.siteFile(HOME))!).title, "Their title");
    assert.equal(await b.siteFile(ABOUT), undefined, "not even the other page");
    assert.ok(await b.branch(created.branch), "the review stays");
    if (b.github) {
      const writes = b.github.requests.slice(before409).filter((request) =>
        request.method !== "GET"
      );
      assert.deepEqual(writes, [], "nothing sent to GitHub but reads");
      assert.equal(b.github.pulls.get(created.pull!)!.state, "open");
    }
    const list = await call(b, "", b.cookies.plain);
    assert.equal((list.body as { reviews: unknown[] }).reviews.length, 1);
  });

  Deno.test(`on ${where}: closing deletes the branch; an author closes only their own reviews`, async () => {
    await using b = await open();
    const { created } = await sendTwoPages(b);
    const before = await b.site();
    const notHers = await call(
      b,
      `id=${created.id}`,
      b.cookies.carol,
      "DELETE",
    );
    assert.deepEqual([notHers.status, notHers.body], [403, {
      error: "forbidden",
    }]);
    assert.ok(await b.branch(created.branch));
    const closed = await call(b, `id=${created.id}`, b.cookies.bob, "DELETE");
    assert.deepEqual([closed.status, closed.body], [200, { ok: true }]);
    assert.equal(await b.branch(created.branch), undefined);
    assert.deepEqual(await b.site(), before, "nothing published");
    if (b.github) {
      const pull = b.github.pulls.get(created.pull!)!;
      assert.equal(pull.state, "closed");
      assert.match(
        pull.comments[0]!,
        /Closed without publishing by `Bob Stone`/,
      );
    }
    const again = await call(b, `id=${created.id}`, b.cookies.bob, "DELETE");
    assert.equal(again.status, 404);
    // A publisher closes anyone's.
    const other = await sendTwoPages(b);
    const byAlice = await call(
      b,
      `id=${other.created.id}`,
      b.cookies.alice,
      "DELETE",
    );
    assert.equal(byAlice.status, 200);
    assert.equal(await b.branch(other.created.branch), undefined);
  });

  Deno.test(`on ${where}: a page whose version is not the site branch's is a 409 naming it; a review that changes nothing is a 400; neither leaves a branch`, async () => {
    await using b = await open();
    const stale = await post(b, "/api/reviews", {
      message: "Stale",
      pages: [
        { path: ABOUT, content: "{}", version: "" },
        {
          path: HOME,
          content: homeWith({ title: "x" }),
          version: "0".repeat(40),
        },
      ],
    }, b.cookies.bob);
    assert.deepEqual([stale.status, stale.body], [409, {
      error: "conflict",
      path: HOME,
    }]);
    const created = await post(b, "/api/reviews", {
      message: "A page that exists already",
      pages: [{ path: HOME, content: "{}", version: "" }],
    }, b.cookies.bob);
    assert.equal(created.status, 409);
    const same = await post(b, "/api/reviews", {
      message: "Nothing",
      pages: [{ path: HOME, content: HOME_TEXT, version: HOME_VERSION }],
    }, b.cookies.bob);
    assert.deepEqual([same.status, same.body], [400, { error: "bad_request" }]);
    const list = await call(b, "", b.cookies.bob);
    assert.deepEqual(list.body, { reviews: [] });
    assert.deepEqual(await b.reviewBranches(), []);
  });

  Deno.test(`on ${where}: a review branch whose name exists already is never reused: another id is drawn`, async () => {
    await using b = await open();
    const taken = "0123456789abcdef0123456789abcdef";
    const kept = await b.makeBranch(`inpage/review/${taken}`);
    const original = crypto.getRandomValues;
    let first = true;
    crypto.getRandomValues = (<T extends ArrayBufferView | null>(array: T) => {
      if (first && array instanceof Uint8Array && array.byteLength === 16) {
        first = false;
        array.set(taken.match(/../g)!.map((pair) => parseInt(pair, 16)));
        return array;
      }
      return original.call(crypto, array as Uint8Array) as T;
    }) as typeof crypto.getRandomValues;
    let sent;
    try {
      sent = await post(b, "/api/reviews", {
        message: "Collides once",
        pages: [{ path: ABOUT, content: "{}", version: "" }],
      }, b.cookies.bob);
    } finally {
      crypto.getRandomValues = original;
    }
    assert.equal(first, false, "the taken id was drawn first");
    assert.equal(sent.status, 201, JSON.stringify(sent.body));
    const { id } = sent.body as { id: string };
    assert.notEqual(id, taken);
    assert.equal((await b.branch(`inpage/review/${taken}`))!.commit, kept);
    assert.ok(await b.branch(`inpage/review/${id}`));
  });
}
