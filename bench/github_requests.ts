/**
 * GitHub requests per publish, counted by the GitHub double, for this
 * checkout and another one (the code before a change) in the same run: a
 * page alone, and a page with two new images as the overlay publishes it
 * (the code before: two uploads then the save; this code: two staged
 * uploads then the save). Each publish runs after the page was read, as
 * in the overlay, and twice in a row: the first publish of a process, then
 * the next one. For each: every request, those GitHub counts against the
 * hourly budget (a 304 is not counted), the content-creating ones (POST,
 * PATCH, PUT, DELETE: at most 80 a minute) and the commits made; and how
 * many requests of the page's read before it were counted.
 *
 * Run: deno run -A bench/github_requests.ts <other checkout>
 * (make the other checkout with `git archive main | tar -x -C <dir>`)
 *
 * @module
 */

import { startGitHubDouble } from "../tests/support/github_double.ts";
import { fastHash, from, login, postJson } from "../tests/support/helpers.ts";
import { uploadRequest } from "../tests/support/upload.ts";
import { pngOfSize } from "../tests/support/image_fixtures.ts";
import { gitBlobSha } from "../mod.ts";
import type { Env, Router } from "../mod.ts";

const HOME = "src/content/pages/en/home.json";
const HOME_TEXT = JSON.stringify({ title: "Home", gallery: [] }, null, 2) +
  "\n";
const KEY = "bench key";

/** What one publish cost GitHub. */
interface Cost {
  /** The read of the page before it, billed or not (a 304 is not). */
  readBilled: number;
  requests: number;
  billed: number;
  creating: number;
  commits: number;
}

let clients = 0;
const client = () => from(`10.55.${(clients >> 8) & 255}.${clients++ & 255}`);

/** Runs the two publishes of one kind with one router; answers their costs. */
async function measure(
  router: Router,
  images: number,
  staged: boolean,
): Promise<Cost[]> {
  await using github = startGitHubDouble({ files: { [HOME]: HOME_TEXT } });
  await using kv = await Deno.openKv(":memory:");
  const env: Env = {
    RATE_LIMIT: kv,
    EDITOR_KEY_HASH: await fastHash(KEY),
    EDITOR_LOG: () => {},
    GITHUB_TOKEN: github.token,
    GITHUB_REPOSITORY: github.repository,
    GITHUB_API_URL: github.url,
  };
  const cookie = await login(router.handle, env, KEY);
  let version = gitBlobSha(new TextEncoder().encode(HOME_TEXT));
  const costs: Cost[] = [];
  for (let round = 0; round < 2; round++) {
    const reading = github.requests.length;
    const read = await router.handle(
      new Request(`https://site.example/api/content?path=${HOME}`, {
        headers: { cookie },
      }),
      env,
      client(),
    );
    if (read.status !== 200) throw new Error(`read: ${read.status}`);
    await read.body?.cancel();
    const requests = github.requests.length;
    const commits = github.commits.length;
    const gallery = [];
    for (let n = 0; n < images; n++) {
      const bytes = pngOfSize(4096 + round * 10 + n, 640, 480);
      const request = await uploadRequest(bytes, {
        name: `Photo ${round} ${n}`,
        cookie,
        staged,
      });
      const answer = await router.handle(request, env, client());
      if (answer.status !== 200) throw new Error(`upload: ${answer.status}`);
      const { src, width, height } = await answer.json();
      gallery.push({ src, width, height, alt: "A photo" });
    }
    const saved = await router.handle(
      postJson("/api/save", {
        path: HOME,
        content: JSON.stringify({ title: `Home ${round}`, gallery }),
        version,
      }, { cookie }),
      env,
      client(),
    );
    if (saved.status !== 200) {
      throw new Error(`save: ${saved.status} ${await saved.text()}`);
    }
    version = (await saved.json()).version;
    const made = github.requests.slice(requests);
    costs.push({
      readBilled: github.requests.slice(reading, requests).filter((request) =>
        request.status !== 304
      ).length,
      requests: made.length,
      billed: made.filter((request) =>
        request.status !== 304
      ).length,
      creating: made.filter((request) =>
        !["GET", "HEAD"].includes(request.method)
      ).length,
      commits: github.commits.length - commits,
    });
  }
  return costs;
}

/** The requests GitHub counts for two reads of an unchanged page. */
async function twoReads(router: Router): Promise<number[]> {
  await using github = startGitHubDouble({ files: { [HOME]: HOME_TEXT } });
  await using kv = await Deno.openKv(":memory:");
  const env: Env = {
    RATE_LIMIT: kv,
    EDITOR_KEY_HASH: await fastHash(KEY),
    EDITOR_LOG: () => {},
    GITHUB_TOKEN: github.token,
    GITHUB_REPOSITORY: github.repository,
    GITHUB_API_URL: github.url,
  };
  const cookie = await login(router.handle, env, KEY);
  const billed: number[] = [];
  for (let n = 0; n < 2; n++) {
    const from = github.requests.length;
    const read = await router.handle(
      new Request(`https://site.example/api/content?path=${HOME}`, {
        headers: { cookie },
      }),
      env,
      client(),
    );
    await read.body?.cancel();
    billed.push(
      github.requests.slice(from).filter((request) => request.status !== 304)
        .length,
    );
  }
  return billed;
}

const other = Deno.args[0];
if (other === undefined) {
  console.error("usage: github_requests.ts <other checkout>");
  Deno.exit(2);
}
const before: { createRouter: (options: { locales: string[] }) => Router } =
  await import(new URL(`file://${await Deno.realPath(other)}/mod.ts`).href);
const after = await import("../mod.ts");
const routers = {
  before: before.createRouter({ locales: ["en"] }),
  after: after.createRouter({ locales: ["en"] }),
};

const show = (cost: Cost) =>
  `${cost.requests} requests, ${cost.billed} billed, ${cost.creating} creating, ${cost.commits} commit${
    cost.commits === 1 ? "" : "s"
  } (the read before it: ${cost.readBilled} billed)`;
for (
  const [kind, images] of [["page alone", 0], ["page + 2 images", 2]] as const
) {
  const costs = {
    before: await measure(routers.before, images, false),
    after: await measure(routers.after, images, true),
  };
  for (const round of [0, 1]) {
    console.log(
      `${kind}, publish ${round + 1}: before ${
        show(costs.before[round]!)
      }; after ${show(costs.after[round]!)}`,
    );
  }
}
console.log(
  `two reads of an unchanged page, requests billed: before ${
    (await twoReads(routers.before)).join(" + ")
  }; after ${(await twoReads(routers.after)).join(" + ")}`,
);
