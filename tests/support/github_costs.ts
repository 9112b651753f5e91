/**
 * What publishes and reads cost GitHub, counted by the GitHub double, for
 * any router (this code's, or another checkout's): the benchmark
 * `bench/github_requests.ts` compares two, and `docs/deploy.md`'s table is
 * checked against this code's.
 *
 * @module
 */

import { type GitHubDouble, startGitHubDouble } from "./github_double.ts";
import { fastHash, from, login, postJson } from "./helpers.ts";
import { uploadRequest } from "./upload.ts";
import { pngOfSize } from "./image_fixtures.ts";
import { gitBlobSha } from "../../mod.ts";
import type { Env, Router } from "../../mod.ts";

const HOME = "src/content/pages/en/home.json";
const HOME_TEXT = JSON.stringify({ title: "Home", gallery: [] }, null, 2) +
  "\n";
const KEY = "bench key";

/** What one publish cost GitHub. */
export interface Cost {
  /** The read of the page before it, billed or not (a 304 is not). */
  readBilled: number;
  /** Every request of the publish. */
  requests: number;
  /** Those GitHub counts against the hour (a 304 is not). */
  billed: number;
  /** The content-creating ones (`POST`, `PATCH`, `PUT`, `DELETE`). */
  creating: number;
  /** The commits made. */
  commits: number;
}

let clients = 0;
const client = () => from(`10.55.${(clients >> 8) & 255}.${clients++ & 255}`);

/** A session on a router against a fresh double holding the home page. */
async function session(router: Router) {
  const github = startGitHubDouble({ files: { [HOME]: HOME_TEXT } });
  const kv = await Deno.openKv(":memory:");
  const env: Env = {
    RATE_LIMIT: kv,
    EDITOR_KEY_HASH: await fastHash(KEY),
    EDITOR_LOG: () => {},
    GITHUB_TOKEN: github.token,
    GITHUB_REPOSITORY: github.repository,
    GITHUB_API_URL: github.url,
  };
  const cookie = await login(router.handle, env, KEY);
  const send = async (request: Request) => {
    const response = await router.handle(request, env, client());
    if (response.status !== 200) {
      throw new Error(`${request.url}: ${response.status}`);
    }
    return response;
  };
  return {
    github,
    cookie,
    send,
    /** Reads the page; answers how many requests GitHub counted. */
    read: async () => {
      const from = github.requests.length;
      await (await send(
        new Request(`https://site.example/api/content?path=${HOME}`, {
          headers: { cookie },
        }),
      )).body?.cancel();
      return billed(github, from);
    },
    async [Symbol.asyncDispose]() {
      kv.close();
      await github.close();
    },
  };
}

/** The requests made since `from` that GitHub counts (not the 304s). */
function billed(github: GitHubDouble, from: number): number {
  return github.requests.slice(from).filter((request) => request.status !== 304)
    .length;
}

/**
 * Runs two publishes of one kind in a row with one router, each after a
 * read of the page, and answers their costs.
 *
 * @param router the router
 * @param images how many new images the page names
 * @param staged whether the uploads are staged (the overlay of this code)
 * @returns the cost of the first publish and of the next
 */
export async function measure(
  router: Router,
  images: number,
  staged: boolean,
): Promise<Cost[]> {
  await using s = await session(router);
  const { github, cookie } = s;
  let version = gitBlobSha(new TextEncoder().encode(HOME_TEXT));
  const costs: Cost[] = [];
  for (let round = 0; round < 2; round++) {
    const readBilled = await s.read();
    const requests = github.requests.length;
    const commits = github.commits.length;
    const gallery = [];
    for (let n = 0; n < images; n++) {
      const bytes = pngOfSize(4096 + round * 10 + n, 640, 480);
      const uploaded = await s.send(
        await uploadRequest(bytes, { name: `Photo ${n}`, cookie, staged }),
      );
      const { src, width, height } = await uploaded.json();
      gallery.push({ src, width, height, alt: "A photo" });
    }
    const saved = await s.send(
      postJson("/api/save", {
        path: HOME,
        content: JSON.stringify({ title: `Home ${round}`, gallery }),
        version,
      }, { cookie }),
    );
    version = (await saved.json()).version;
    const made = github.requests.slice(requests);
    costs.push({
      readBilled,
      requests: made.length,
      billed: billed(github, requests),
      creating: made.filter((request) =>
        !["GET", "HEAD"].includes(request.method)
      ).length,
      commits: github.commits.length - commits,
    });
  }
  return costs;
}

/**
 * The requests GitHub counts for two reads of an unchanged page.
 *
 * @param router the router
 * @returns the count of each read
 */
export async function twoReads(router: Router): Promise<number[]> {
  await using s = await session(router);
  return [await s.read(), await s.read()];
}
