/**
 * A page read from GitHub (the double, over loopback) answered 304 from
 * what was kept, against the same read answered 200 in full, in the same
 * run: the realistic 100 KB page, read by the GitHub repository with its
 * `ETag` kept (`If-None-Match`, a 304, the kept answer parsed) or with
 * nothing kept (a 200: base64 of the whole file, decoded and checked).
 * On GitHub a 304 is also not counted against the hourly budget; the
 * double's network is loopback, so the ratio is the work saved on this
 * side, not the bandwidth.
 *
 * Run: deno bench -A bench/github_read_bench.ts
 */

import { createGitHubRepository } from "../lib/repository/github.ts";
import { forgetKeptAnswers } from "../lib/repository/github_etags.ts";
import { startGitHubDouble } from "../tests/support/github_double.ts";
import { realisticPage } from "./realistic_page.ts";

const HOME = "src/content/pages/en/home.json";
const github = startGitHubDouble({ files: { [HOME]: realisticPage() } });
const repository = createGitHubRepository({
  token: github.token,
  repository: github.repository,
  apiUrl: github.url,
});
await repository.read(HOME);

Deno.bench({
  name: "a read answered 200 in full (nothing kept)",
  group: "github-read",
  baseline: true,
  async fn() {
    forgetKeptAnswers();
    await repository.read(HOME);
  },
});

Deno.bench({
  name: "a read answered 304 (the ETag kept, the answer served from it)",
  group: "github-read",
  async fn() {
    await repository.read(HOME);
  },
});

globalThis.addEventListener("unload", () => {
  void github.close();
});
