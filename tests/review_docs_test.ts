/**
 * The schedule recipes of `docs/review.md`, run as the page writes them:
 * the Cloudflare Worker's `scheduled` handler, the Netlify scheduled
 * function and the Vercel cron job, each given a review that is due on the
 * GitHub double, each publishing it. Their imports are mapped to this
 * checkout (`@inpage/editor`), to the test's KV (`@deno/kv`'s `openKv`),
 * and to a stand-in for the Durable Object adapter, which the handler
 * leaves alone when `RATE_LIMIT` is bound.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gitBlobSha } from "../lib/repository/repository.ts";
import { HOME, HOME_TEXT } from "./support/site.ts";
import {
  BACKENDS,
  call,
  post,
  type ReviewBackend,
} from "./support/review_backend.ts";

const page = await Deno.readTextFile(
  new URL("../docs/review.md", import.meta.url),
);
const MOD = new URL("../mod.ts", import.meta.url).href;

/** The `js ignore` block under a heading of the page. */
function recipe(heading: string): string {
  const start = page.indexOf(`\n### ${heading}`);
  assert.ok(start >= 0, heading);
  const block = /```js ignore\n([\s\S]*?)```/.exec(page.slice(start))?.[1];
  assert.ok(block, `${heading} has its recipe`);
  return block;
}

/** Writes a recipe as a module, its imports mapped, and imports it. */
async function load(
  folder: string,
  name: string,
  source: string,
): Promise<Record<string, unknown>> {
  const mapped = source
    .replace('"@inpage/editor"', JSON.stringify(MOD))
    .replace('"@deno/kv"', JSON.stringify("./deno_kv.mjs"))
    .replace('"./rate_limit_object.js"', JSON.stringify("./rate_limit.mjs"));
  const file = join(folder, name);
  await Deno.writeTextFile(file, mapped);
  return await import(pathToFileURL(file).href);
}

/**
 * Bob sends a new title; Alice schedules it a second before the routes'
 * clock (held still by the backend, so a real time could be ahead of it).
 */
async function dueReview(b: ReviewBackend, title: string): Promise<string> {
  const current = await b.siteFile(HOME);
  const sent = await post(b, "/api/reviews", {
    message: title,
    pages: [{
      path: HOME,
      content: JSON.stringify({ ...JSON.parse(current!), title }),
      version: gitBlobSha(new TextEncoder().encode(current!)),
    }],
  }, b.cookies.bob);
  assert.equal(sent.status, 201, JSON.stringify(sent.body));
  const { id } = sent.body as { id: string };
  const scheduled = await post(b, "/api/reviews/schedule", {
    id,
    at: new Date(b.clock.now() - 1_000).toISOString(),
  }, b.cookies.alice);
  assert.equal(scheduled.status, 200);
  return id;
}

async function assertPublished(b: ReviewBackend, id: string, title: string) {
  assert.equal(JSON.parse((await b.siteFile(HOME))!).title, title);
  assert.equal((await call(b, `id=${id}`, b.cookies.bob)).status, 404);
  assert.equal(await b.branch(`inpage/review/${id}`), undefined);
}

Deno.test("docs/review.md: the Cloudflare, Netlify and Vercel schedule recipes publish a review that is due", async () => {
  const [, openGitHub] = BACKENDS[1]!;
  await using b = await openGitHub();
  assert.equal(JSON.parse(HOME_TEXT).title, "Home");
  const folder = await Deno.makeTempDir({ prefix: "editor-review-docs-" });
  const variables: Record<string, string> = {
    EDITOR_KV_URL: "the routes' KV",
    EDITOR_KEY_HASH: b.env.EDITOR_KEY_HASH!,
    EDITOR_KEYS: b.env.EDITOR_KEYS!,
    GITHUB_TOKEN: b.env.GITHUB_TOKEN!,
    GITHUB_REPOSITORY: b.env.GITHUB_REPOSITORY!,
    GITHUB_API_URL: b.env.GITHUB_API_URL!,
    CRON_SECRET: "the project's cron secret",
  };
  const before = Object.fromEntries(
    Object.keys(variables).map((name) => [name, Deno.env.get(name)]),
  );
  try {
    (globalThis as { reviewDocsKv?: unknown }).reviewDocsKv = b.env.RATE_LIMIT;
    await Deno.writeTextFile(
      join(folder, "deno_kv.mjs"),
      'export const openKv = (url) => url === "the routes\' KV" ? globalThis.reviewDocsKv : undefined;\n',
    );
    await Deno.writeTextFile(
      join(folder, "rate_limit.mjs"),
      'export const durableObjectKv = () => { throw new Error("RATE_LIMIT is bound"); };\n',
    );
    for (const [name, value] of Object.entries(variables)) {
      Deno.env.set(name, value);
    }

    // Cloudflare: the Worker's scheduled handler, its work kept by waitUntil.
    const worker = await load(folder, "worker.mjs", recipe("Cloudflare"));
    let id = await dueReview(b, "By Cloudflare");
    const waited: Promise<unknown>[] = [];
    (worker.default as {
      scheduled: (c: unknown, e: unknown, x: unknown) => void;
    }).scheduled(
      { cron: "* * * * *", scheduledTime: Date.now() },
      { ...b.env },
      { waitUntil: (work: Promise<unknown>) => void waited.push(work) },
    );
    assert.equal(waited.length, 1);
    await Promise.all(waited);
    await assertPublished(b, id, "By Cloudflare");

    // Netlify: the default export, run on schedule; its config says when.
    const netlify = await load(folder, "netlify.mjs", recipe("Netlify"));
    assert.deepEqual(netlify.config, { schedule: "* * * * *" });
    id = await dueReview(b, "By Netlify");
    await (netlify.default as () => Promise<void>)();
    await assertPublished(b, id, "By Netlify");

    // Vercel: GET with the cron secret publishes; without it, 401.
    const vercel = await load(folder, "vercel.mjs", recipe("Vercel"));
    const GET = vercel.GET as (request: Request) => Promise<Response>;
    id = await dueReview(b, "By Vercel");
    const url = "https://site.example/api/publish-reviews";
    const refused = await GET(new Request(url));
    assert.equal(refused.status, 401);
    assert.equal(JSON.parse((await b.siteFile(HOME))!).title, "By Netlify");
    const done = await GET(
      new Request(url, {
        headers: { authorization: `Bearer ${variables.CRON_SECRET}` },
      }),
    );
    assert.equal(done.status, 200);
    const run = await done.json();
    assert.equal(run.published[0].id, id);
    await assertPublished(b, id, "By Vercel");
  } finally {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) Deno.env.delete(name);
      else Deno.env.set(name, value);
    }
    delete (globalThis as { reviewDocsKv?: unknown }).reviewDocsKv;
    await Deno.remove(folder, { recursive: true });
  }
});
