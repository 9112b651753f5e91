/**
 * GitHub's failures through the repository and the router: 500, 502, 503, a
 * reset connection, a half-written or malformed answer, an answer that never
 * ends, 403 with an exhausted rate limit and 404 on the branch. Each gets its
 * documented code within a bounded time, writes nothing, and the next
 * request is served.
 */
import assert from "node:assert/strict";
import { createRouter, RepositoryError } from "../../mod.ts";
import { createGitHubRepository } from "../../lib/repository/github.ts";
import {
  type GitHubFault,
  githubSignedIn,
  startGitHubDouble,
} from "../support/github_double.ts";
import { answer, from, postJson, readRequest } from "../support/helpers.ts";
import { HOME as PAGE } from "../support/site.ts";

const TEXT = '{\n  "title": "Home"\n}\n';
const encoder = new TextEncoder();

const FAULTS: [string, GitHubFault, string][] = [
  ["500", { kind: "status", status: 500, times: 2 }, "unavailable"],
  ["502", { kind: "status", status: 502, times: 2 }, "unavailable"],
  ["503", { kind: "status", status: 503, times: 2 }, "unavailable"],
  ["reset", { kind: "reset", times: 2 }, "unavailable"],
  ["half-written", { kind: "partial", times: 2 }, "unavailable"],
  ["malformed", { kind: "malformed", times: 2 }, "unavailable"],
  ["never ends", { kind: "endless", times: 2 }, "unavailable"],
  [
    "403 rate limit",
    {
      kind: "status",
      status: 403,
      times: 2,
      headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "1" },
    },
    "unavailable",
  ],
];

Deno.test("every GitHub failure is its documented error within the timeout, writes nothing, and the next call works", async () => {
  const github = await startGitHubDouble({ files: { [PAGE]: TEXT } });
  try {
    const repository = createGitHubRepository({
      token: github.token,
      repository: github.repository,
      apiUrl: github.url,
      timeoutMs: 400,
    });
    const { version } = await repository.read(PAGE) ?? { version: "" };
    for (const [name, fault, code] of FAULTS) {
      for (const method of ["GET", "PUT"] as const) {
        github.setFault({ ...fault, method });
        const started = performance.now();
        const call = method === "GET"
          ? repository.read(PAGE)
          : repository.write(PAGE, encoder.encode("{}\n"), version, "Edit");
        await assert.rejects(call, (error: unknown) => {
          assert.ok(error instanceof RepositoryError, `${name}: ${error}`);
          assert.equal(error.code, code, name);
          return true;
        });
        const elapsed = performance.now() - started;
        assert.ok(elapsed < 1_500, `${name} ${method}: ${elapsed} ms`);
        github.setFault(null);
        assert.equal(
          new TextDecoder().decode(github.files.get(PAGE)),
          TEXT,
          `${name} ${method} wrote nothing`,
        );
        assert.equal((await repository.read(PAGE))?.version, version);
      }
    }
    // 404 on the branch: a read finds nothing, a write is not_found.
    const elsewhere = createGitHubRepository({
      token: github.token,
      repository: github.repository,
      apiUrl: github.url,
      branch: "gone",
      timeoutMs: 400,
    });
    assert.equal(await elsewhere.read(PAGE), null);
    await assert.rejects(
      elsewhere.write(PAGE, encoder.encode("{}\n"), version, "Edit"),
      (error: unknown) =>
        error instanceof RepositoryError && error.code === "not_found",
    );
  } finally {
    await github.close();
  }
});

Deno.test("through the router, GitHub failing twice in a row answers 502 and the next publish is served", async () => {
  const router = createRouter({ locales: ["en"] });
  await using signed = await githubSignedIn(router, "gh key", { [PAGE]: TEXT });
  const { github, env, cookie } = signed;
  let n = 0;
  const read = async () =>
    await answer(
      await router.handle(
        readRequest(PAGE, cookie),
        env,
        from(`10.31.0.${n++}`),
      ),
    );
  const save = async (version: string) =>
    await answer(
      await router.handle(
        postJson("/api/save", { path: PAGE, content: '{"a":1}', version }, {
          cookie,
        }),
        env,
        from(`10.31.0.${n++}`),
      ),
    );
  const version = ((await read()).body as { version: string }).version;
  for (
    const fault of [
      { kind: "reset", times: 2 },
      { kind: "partial", times: 2 },
      { kind: "status", status: 500, times: 2 },
      { kind: "status", status: 503, times: 2 },
    ] as GitHubFault[]
  ) {
    github.setFault(fault);
    const failedRead = await read();
    assert.deepEqual(failedRead.body, { error: "unavailable" });
    github.setFault({ ...fault, method: "PUT" });
    const failedSave = await save(version);
    assert.deepEqual(
      [failedSave.status, failedSave.body],
      [502, { error: "unavailable" }],
    );
    github.setFault(null);
    assert.equal(new TextDecoder().decode(github.files.get(PAGE)), TEXT);
  }
  const saved = await save(version);
  assert.equal(saved.status, 200);
});
