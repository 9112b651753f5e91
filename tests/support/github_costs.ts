/**
 * What publishes and reads cost GitHub, counted by the GitHub double, for
 * any router (this code's, or another checkout's): the benchmark
 * `bench/github_requests.ts` compares two, and `docs/deploy.md`'s table is
 * checked against this code's.
 *
 * @module
 */

import { startGitHubDouble } from "./github_double.ts";
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
  requests: number;
  billed: number;
  creating: number;
  commits: number;
}

let clients = 0;
const client = () => from(`10.55.${(clients >> 8) & 255}.${clients++ & 255}`);

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

/**
 * The requests GitHub counts for two reads of an unchanged page.
 *
 * @param router the router
 * @returns the count of each read
 */
export async function twoReads(router: Router): Promise<number[]> {
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
