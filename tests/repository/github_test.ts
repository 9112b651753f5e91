import assert from "node:assert/strict";
import {
  createGitHubRepository,
  type GitHubOptions,
} from "../../lib/repository/github.ts";
import { repositoryFromEnv } from "../../lib/repository/from_env.ts";
import {
  ConflictError,
  gitBlobSha,
  type Repository,
  RepositoryError,
  type RepositoryErrorCode,
} from "../../lib/repository/repository.ts";
import type { Env } from "../../lib/http/env.ts";
import {
  type GitHubDouble,
  type GitHubDoubleOptions,
  type GitHubFault,
  startGitHubDouble,
} from "../support/github_double.ts";
import { decodeBase64, encodeBase64 } from "../../lib/encoding/bytes.ts";
import { gitHashObject } from "../support/site.ts";

const PAGE = "src/content/pages/en/home.json";
const encoder = new TextEncoder();
const page = (title: string) =>
  encoder.encode(
    JSON.stringify(
      {
        title,
        blocks: Array.from({ length: 12 }, (_, index) => ({
          id: `b${index}`,
          text: `Paragraphe ${index} — café, naïve, 東京 ✓`,
        })),
      },
      null,
      2,
    ) + "\n",
  );

/** Runs `test` against a fresh double and a repository pointed at it. */
async function withDouble(
  test: (double: GitHubDouble, repository: Repository) => Promise<void>,
  options: {
    double?: GitHubDoubleOptions;
    repository?: Partial<GitHubOptions>;
  } = {},
): Promise<void> {
  const double = startGitHubDouble(options.double);
  try {
    const repository = createGitHubRepository({
      token: double.token,
      repository: double.repository,
      apiUrl: double.url,
      ...options.repository,
    });
    await test(double, repository);
  } finally {
    await double.close();
  }
}

/** What a promise rejects with, after asserting that it rejects. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  let caught: unknown;
  await assert.rejects(promise, (error) => {
    caught = error;
    return true;
  });
  return caught;
}

async function rejectsWithCode(
  promise: Promise<unknown>,
  code: RepositoryErrorCode,
): Promise<RepositoryError> {
  const caught = await rejection(promise);
  assert.ok(caught instanceof RepositoryError, String(caught));
  assert.equal(caught.code, code, caught.message);
  return caught;
}

async function rejectsWithConflict(
  promise: Promise<unknown>,
): Promise<ConflictError> {
  const caught = await rejection(promise);
  assert.ok(caught instanceof ConflictError, String(caught));
  return caught;
}

const methods = (double: GitHubDouble, method: string) =>
  double.requests.filter((request) => request.method === method).length;

Deno.test("read answers the bytes and the blob sha of a file sent as line-broken base64", async () => {
  const content = page("Accueil");
  await withDouble(async (double, repository) => {
    const wire = await fetch(
      `${double.url}/repos/octo/site/contents/${PAGE}?ref=main`,
      {
        headers: {
          authorization: `Bearer ${double.token}`,
          "user-agent": "test",
        },
      },
    ).then((response) => response.json());
    const lines = (wire.content as string).split("\n");
    assert.ok(lines.length > 3);
    assert.equal(lines[0]!.length, 60);
    assert.equal(wire.encoding, "base64");

    const file = await repository.read(PAGE);
    assert.ok(file);
    assert.deepEqual(file.content, content);
    assert.equal(file.version, await gitBlobSha(content));
    assert.equal(file.version, wire.sha);
  }, { double: { files: { [PAGE]: content } } });
});

Deno.test("read sends GitHub's headers and the branch as ref", async () => {
  await withDouble(async (double, repository) => {
    await repository.read(PAGE);
    const [request] = double.requests;
    assert.ok(request);
    assert.equal(request.method, "GET");
    assert.equal(request.path, `/repos/octo/site/contents/${PAGE}`);
    assert.equal(request.search, "?ref=content");
    assert.equal(request.headers["accept"], "application/vnd.github+json");
    assert.equal(request.headers["x-github-api-version"], "2022-11-28");
    assert.equal(request.headers["user-agent"], "inpage-editor/2.1.0");
    assert.equal(request.headers["authorization"], "[redacted]");
    assert.equal(request.authorized, true);
  }, {
    double: { branch: "content", files: { [PAGE]: "{}" } },
    repository: { branch: "content" },
  });
});

Deno.test("read of an absent file answers null", async () => {
  await withDouble(async (_double, repository) => {
    assert.equal(await repository.read(PAGE), null);
  });
});

Deno.test("read of a directory is unavailable", async () => {
  await withDouble(async (_double, repository) => {
    await rejectsWithCode(
      repository.read("src/content/pages/en"),
      "unavailable",
    );
  }, { double: { files: { [PAGE]: "{}" } } });
});

Deno.test("read of a file over 1 MB asks again with the raw media type", async () => {
  const content = new Uint8Array(1_500_000).map((_, index) => index * 7);
  await withDouble(async (double, repository) => {
    const file = await repository.read("public/images/big.png");
    assert.ok(file);
    assert.deepEqual(file.content, content);
    assert.equal(file.version, await gitBlobSha(content));
    assert.deepEqual(
      double.requests.map((request) => request.headers["accept"]),
      ["application/vnd.github+json", "application/vnd.github.raw+json"],
    );
  }, { double: { files: { "public/images/big.png": content } } });
});

Deno.test("read refuses an answer that is not a file with matching base64", async () => {
  const sha = await gitBlobSha(encoder.encode("{}"));
  const other = await gitBlobSha(encoder.encode("[]"));
  const bodies = [
    "null",
    "[]",
    JSON.stringify({ type: "symlink", sha, target: "x" }),
    JSON.stringify({ type: "file", encoding: "utf-8", content: "{}", sha }),
    JSON.stringify({ type: "file", encoding: "base64", content: "e30=" }),
    JSON.stringify({ type: "file", encoding: "base64", content: "!!", sha }),
    JSON.stringify({
      type: "file",
      encoding: "base64",
      content: "e30=",
      sha: other,
    }),
  ];
  await withDouble(async (double, repository) => {
    for (const body of bodies) {
      double.setFault({ kind: "status", status: 200, body });
      await rejectsWithCode(repository.read(PAGE), "unavailable");
    }
    double.setFault({ kind: "malformed" });
    await rejectsWithCode(repository.read(PAGE), "unavailable");
    double.setFault({
      kind: "status",
      status: 200,
      body: JSON.stringify({
        type: "file",
        encoding: "base64",
        content: "e30=",
        sha,
      }),
    });
    assert.deepEqual(await repository.read(PAGE), {
      content: encoder.encode("{}"),
      version: sha,
    });
  });
});

Deno.test("update with the current sha writes and answers the new blob sha", async () => {
  const before = page("Avant");
  const after = page("Après");
  await withDouble(async (double, repository) => {
    const version = await repository.write(
      PAGE,
      after,
      await gitBlobSha(before),
      "Update home",
    );
    assert.equal(version, await gitBlobSha(after));
    assert.deepEqual(double.files.get(PAGE), after);
    const put = double.requests.find((request) => request.method === "PUT");
    assert.deepEqual(put?.body, {
      message: "Update home",
      content: `<${encodeBase64(after).length} characters>`,
      branch: "main",
      sha: await gitBlobSha(before),
    });
    assert.equal(put?.headers["content-type"], "application/json");
    assert.equal((await repository.read(PAGE))?.version, version);
  }, { double: { files: { [PAGE]: before } } });
});

Deno.test("create sends no sha and answers the new blob sha", async () => {
  const content = page("Nouveau");
  await withDouble(async (double, repository) => {
    const version = await repository.write(PAGE, content, "", "Add home");
    assert.equal(version, await gitBlobSha(content));
    assert.deepEqual(double.files.get(PAGE), content);
    const put = double.requests.find((request) => request.method === "PUT");
    assert.ok(put?.body);
    assert.equal("sha" in put.body, false);
  });
});

Deno.test("a stale sha is a ConflictError and the file stays", async () => {
  const current = page("Actuel");
  await withDouble(async (double, repository) => {
    const stale = await gitBlobSha(page("Ancien"));
    const error = await rejectsWithConflict(
      repository.write(PAGE, page("Mien"), stale, "Update home"),
    );
    assert.match(error.message, /409/);
    assert.deepEqual(double.files.get(PAGE), current);
  }, { double: { files: { [PAGE]: current } } });
});

Deno.test("creating over an existing file is a ConflictError (422, sha not supplied)", async () => {
  const current = page("Actuel");
  await withDouble(async (double, repository) => {
    const error = await rejectsWithConflict(
      repository.write(PAGE, page("Mien"), "", "Add home"),
    );
    assert.match(error.message, /422/);
    assert.deepEqual(double.files.get(PAGE), current);
  }, { double: { files: { [PAGE]: current } } });
});

Deno.test("a version that is not a blob sha is a ConflictError without a request", async () => {
  await withDouble(async (double, repository) => {
    for (const version of ["abc", "g".repeat(40), "1".repeat(64), " "]) {
      await rejectsWithConflict(
        repository.write(PAGE, page("x"), version, "m"),
      );
    }
    assert.equal(double.requests.length, 0);
  }, { double: { files: { [PAGE]: "{}" } } });
});

Deno.test("GitHub's failures map to repository error codes", async () => {
  /** A fault that read and write both answer with the same code. */
  const both = (fault: GitHubFault, code: RepositoryErrorCode) => ({
    fault,
    read: code,
    write: code,
  });
  const cases: {
    fault: GitHubFault;
    read: RepositoryErrorCode | null;
    write: RepositoryErrorCode | "conflict";
  }[] = [
    both({ kind: "status", status: 401 }, "unauthorized"),
    both({
      kind: "status",
      status: 403,
      body: JSON.stringify({
        message: "Resource not accessible by personal access token",
      }),
    }, "unauthorized"),
    both({
      kind: "status",
      status: 403,
      headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "1" },
    }, "unavailable"),
    both({
      kind: "status",
      status: 403,
      headers: { "retry-after": "60" },
      body: JSON.stringify({ message: "Forbidden" }),
    }, "unavailable"),
    both({
      kind: "status",
      status: 403,
      body: JSON.stringify({
        message: "You have exceeded a secondary rate limit.",
      }),
    }, "unavailable"),
    both(
      { kind: "status", status: 429, headers: { "retry-after": "30" } },
      "unavailable",
    ),
    ...[500, 502, 503].map((status) =>
      both({ kind: "status", status, times: 2 }, "unavailable")
    ),
    both({ kind: "malformed" }, "unavailable"),
    both({ kind: "status", status: 200, body: "" }, "unavailable"),
    {
      fault: { kind: "status", status: 404 },
      read: null,
      write: "not_found",
    },
    {
      fault: { kind: "status", status: 409 },
      read: "unavailable",
      write: "conflict",
    },
    both({
      kind: "status",
      status: 422,
      body: JSON.stringify({ message: "content is not valid Base64" }),
    }, "unavailable"),
    both(
      { kind: "status", status: 400, body: "<html>Bad</html>" },
      "unavailable",
    ),
    both({ kind: "status", status: 302 }, "unavailable"),
  ];
  await withDouble(async (double, repository) => {
    const sha = await gitBlobSha(encoder.encode("{}"));
    for (const { fault, read, write } of cases) {
      const label = JSON.stringify(fault);
      double.setFault(fault);
      if (read === null) {
        assert.equal(await repository.read(PAGE), null, label);
      } else {
        await rejectsWithCode(repository.read(PAGE), read);
      }
      double.setFault(fault);
      const writing = repository.write(PAGE, page("x"), sha, "Update home");
      if (write === "conflict") await rejectsWithConflict(writing);
      else await rejectsWithCode(writing, write);
      assert.deepEqual(double.files.get(PAGE), encoder.encode("{}"), label);
    }
  }, { double: { files: { [PAGE]: "{}" } } });
});

Deno.test("a wrong token is unauthorized on read and write", async () => {
  await withDouble(async (double, repository) => {
    await rejectsWithCode(repository.read(PAGE), "unauthorized");
    await rejectsWithCode(
      repository.write(PAGE, page("x"), "", "Add home"),
      "unauthorized",
    );
    assert.equal(double.requests.every((request) => !request.authorized), true);
    assert.equal(double.files.size, 0);
  }, { repository: { token: "ghp_wrongToken0000000000000000" } });
});

Deno.test("an unknown branch reads null and writes not_found", async () => {
  await withDouble(async (double, repository) => {
    assert.equal(await repository.read(PAGE), null);
    await rejectsWithCode(
      repository.write(PAGE, page("x"), "", "Add home"),
      "not_found",
    );
    assert.equal(double.requests[0]?.search, "?ref=draft");
    assert.equal(double.files.has(PAGE), true);
    assert.deepEqual(double.files.get(PAGE), encoder.encode("{}"));
  }, {
    double: { files: { [PAGE]: "{}" } },
    repository: { branch: "draft" },
  });
});

Deno.test("read retries once after a 5xx answer, never more", async () => {
  await withDouble(async (double, repository) => {
    double.setFault({ kind: "status", status: 502, times: 1 });
    assert.deepEqual(
      (await repository.read(PAGE))?.content,
      encoder.encode("{}"),
    );
    assert.equal(methods(double, "GET"), 2);

    double.setFault({ kind: "status", status: 503, times: 5 });
    await rejectsWithCode(repository.read(PAGE), "unavailable");
    assert.equal(methods(double, "GET"), 4);
  }, { double: { files: { [PAGE]: "{}" } } });
});

Deno.test("write is never retried", async () => {
  await withDouble(async (double, repository) => {
    const sha = await gitBlobSha(encoder.encode("{}"));
    double.setFault({ kind: "status", status: 502, times: 1 });
    await rejectsWithCode(
      repository.write(PAGE, page("x"), sha, "Update home"),
      "unavailable",
    );
    assert.equal(methods(double, "PUT"), 1);
    assert.deepEqual(double.files.get(PAGE), encoder.encode("{}"));

    await repository.write(PAGE, page("x"), sha, "Update home");
    assert.equal(methods(double, "PUT"), 2);
  }, { double: { files: { [PAGE]: "{}" } } });
});

Deno.test("a GitHub that never answers is unavailable within timeoutMs", async () => {
  await withDouble(async (double, repository) => {
    double.setFault({ kind: "hang", times: Infinity });
    for (
      const call of [
        () => repository.read(PAGE),
        () => repository.write(PAGE, page("x"), "", "Add home"),
      ]
    ) {
      const started = performance.now();
      const error = await rejectsWithCode(call(), "unavailable");
      const elapsed = performance.now() - started;
      assert.ok(elapsed >= 290, `answered after ${elapsed} ms`);
      assert.ok(elapsed < 1_500, `answered after ${elapsed} ms`);
      assert.match(error.message, /within 300 ms/);
    }
  }, { repository: { timeoutMs: 300 } });
});

Deno.test("two racing writes with the same sha: one wins, one conflicts", async () => {
  const before = page("Avant");
  const mine = page("Mien");
  const theirs = page("Le leur");
  await withDouble(async (double, repository) => {
    const sha = await gitBlobSha(before);
    const results = await Promise.allSettled([
      repository.write(PAGE, mine, sha, "Mine"),
      repository.write(PAGE, theirs, sha, "Theirs"),
    ]);
    const won = results.findIndex((result) => result.status === "fulfilled");
    const lost = results.findIndex((result) => result.status === "rejected");
    assert.notEqual(won, -1);
    assert.notEqual(lost, -1);
    const loss = results[lost];
    assert.ok(loss?.status === "rejected");
    assert.ok(loss.reason instanceof ConflictError);
    const winner = won === 0 ? mine : theirs;
    assert.deepEqual(double.files.get(PAGE), winner);
    const win = results[won];
    assert.ok(win?.status === "fulfilled");
    assert.equal(win.value, await gitBlobSha(winner));
  }, { double: { files: { [PAGE]: before } } });
});

Deno.test("path segments are percent-encoded one by one", async () => {
  const name = "été #1?%&+ ;=.json";
  const path = `src/content/pages/fr/${name}`;
  await withDouble(async (double, repository) => {
    const version = await repository.write(path, page("Été"), "", "Add été");
    assert.equal(
      double.requests[0]?.path,
      `/repos/octo/site/contents/src/content/pages/fr/${
        encodeURIComponent(name)
      }`,
    );
    assert.deepEqual(double.files.get(path), page("Été"));
    assert.equal((await repository.read(path))?.version, version);
  });
});

Deno.test("paths with empty, dot or dot-dot segments are refused without a request", async () => {
  await withDouble(async (double, repository) => {
    for (
      const path of [
        "",
        "/src/a.json",
        "src//a.json",
        "src/../a.json",
        "src/./a.json",
        "src/a.json/",
        "src/\ud800.json",
      ]
    ) {
      await assert.rejects(repository.read(path), TypeError, path);
      await assert.rejects(
        repository.write(path, page("x"), "", "m"),
        TypeError,
      );
    }
    assert.equal(double.requests.length, 0);
  });
});

Deno.test("a GitHub Enterprise Server apiUrl with /api/v3 works", async () => {
  const double = startGitHubDouble();
  try {
    const repository = createGitHubRepository({
      token: double.token,
      repository: double.repository,
      apiUrl: `${double.url}/api/v3/`,
    });
    const version = await repository.write(PAGE, page("GHES"), "", "Add home");
    assert.equal((await repository.read(PAGE))?.version, version);
    assert.equal(double.requests.length, 2);
    for (const request of double.requests) {
      assert.ok(
        request.path.startsWith("/api/v3/repos/octo/site/contents/"),
        request.path,
      );
    }
  } finally {
    await double.close();
  }
});

Deno.test("the token appears in no error", async () => {
  const token = "ghp_SECRETsecret0123456789SECRET";
  const errors: unknown[] = [];
  const double = startGitHubDouble({ token, files: { [PAGE]: "{}" } });
  const echo = (status: number, headers: Record<string, string> = {}) => ({
    kind: "status" as const,
    status,
    headers,
    times: 2,
    body: JSON.stringify({ message: `bad ${token} Bearer ${token}` }),
  });
  try {
    const repository = createGitHubRepository({
      token,
      repository: double.repository,
      apiUrl: double.url,
      timeoutMs: 300,
    });
    const sha = await gitBlobSha(encoder.encode("{}"));
    const faults: GitHubFault[] = [
      echo(401),
      echo(403),
      echo(403, { "x-ratelimit-remaining": "0" }),
      echo(429),
      echo(404),
      echo(409),
      echo(422),
      echo(500),
      { kind: "malformed" },
      { kind: "hang" },
    ];
    for (const fault of faults) {
      for (
        const call of [
          () => repository.read(PAGE),
          () => repository.write(PAGE, page("x"), sha, `m ${token}`),
          () => repository.write(PAGE, page("x"), "", "m"),
        ]
      ) {
        double.setFault(fault);
        try {
          await call();
        } catch (error) {
          errors.push(error);
        }
      }
    }
    for (
      const options of [
        { token: `${token} `, repository: "octo/site" },
        { token, repository: `octo/${token}/x` },
        {
          token,
          repository: "octo/site",
          apiUrl: `https://${token}@x.example`,
        },
        { token, repository: "octo/site", branch: `${token}..` },
      ]
    ) {
      try {
        createGitHubRepository(options);
      } catch (error) {
        errors.push(error);
      }
    }
    errors.push(repositoryFromEnv({
      GITHUB_TOKEN: `${token}\n`,
      GITHUB_REPOSITORY: token,
    }));
    assert.ok(errors.length >= 30, `${errors.length} errors`);
    assert.ok(!Deno.inspect(repository).includes(token));
    assert.ok(!JSON.stringify(repository).includes(token));
  } finally {
    await double.close();
  }
  // A network error: nothing listens any more.
  const closed = createGitHubRepository({
    token,
    repository: "octo/site",
    apiUrl: double.url,
  });
  await closed.read(PAGE).catch((error) => errors.push(error));
  assert.equal(
    (errors.at(-1) as RepositoryError).code,
    "unavailable",
  );
  for (const error of errors) {
    const text = [
      String(error),
      error instanceof Error ? error.stack ?? "" : "",
      Deno.inspect(error),
      JSON.stringify(error),
    ].join("\n");
    assert.ok(!text.includes(token), text);
    assert.ok(!text.includes("SECRETsecret"), text);
  }
});

Deno.test("versions equal git hash-object", async () => {
  const samples = [
    new Uint8Array(),
    encoder.encode("hello\n"),
    Uint8Array.from({ length: 256 }, (_, index) => index),
    page("Échantillon"),
  ];
  await withDouble(async (_double, repository) => {
    for (const [index, sample] of samples.entries()) {
      const expected = await gitHashObject(sample);
      const path = `src/content/pages/en/sample-${index}.json`;
      assert.equal(await repository.write(path, sample, "", "Add"), expected);
      assert.equal((await repository.read(path))?.version, expected);
      assert.equal(await gitBlobSha(sample), expected);
    }
  });
});

Deno.test("a 20 MB write round-trips", async () => {
  const content = new Uint8Array(20 * 1024 * 1024);
  let state = 0x9e3779b9;
  for (let index = 0; index < content.length; index++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    content[index] = state & 0xff;
  }
  const path = "public/images/large.webp";
  await withDouble(async (double, repository) => {
    const version = await repository.write(path, content, "", "Add image");
    assert.equal(version, await gitBlobSha(content));
    assert.deepEqual(double.files.get(path), content);
    const file = await repository.read(path);
    assert.ok(file);
    assert.equal(file.version, version);
    assert.deepEqual(file.content, content);
  }, { repository: { timeoutMs: 60_000 } });
});

Deno.test("base64 helpers round-trip every length and refuse bad input", () => {
  for (let length = 0; length < 70; length++) {
    const bytes = Uint8Array.from(
      { length },
      (_, index) => (index * 37) & 0xff,
    );
    const text = encodeBase64(bytes);
    assert.equal(text, btoa(String.fromCharCode(...bytes)));
    const broken = text.replace(/(.{60})/g, "$1\n") + "\n";
    assert.deepEqual(decodeBase64(broken), bytes);
  }
  for (const bad of ["a", "ab=c", "a b=", "!!!!", "YQ===", "YQ"]) {
    assert.equal(decodeBase64(bad), undefined, bad);
  }
});

Deno.test("options are checked once, with errors that hold no value", () => {
  const good = { token: "ghp_good", repository: "octo/site" };
  const refused: [Record<string, unknown>, typeof TypeError][] = [
    [{ ...good, token: "" }, TypeError],
    [{ ...good, token: "with space" }, TypeError],
    [{ ...good, token: "line\nbreak" }, TypeError],
    [{ ...good, token: 42 }, TypeError],
    [{ ...good, repository: "octo" }, TypeError],
    [{ ...good, repository: "octo/site/extra" }, TypeError],
    [{ ...good, repository: "/site" }, TypeError],
    [{ ...good, repository: "octo/.." }, TypeError],
    [{ ...good, repository: "oc to/site" }, TypeError],
    [{ ...good, branch: "" }, TypeError],
    [{ ...good, branch: "a..b" }, TypeError],
    [{ ...good, branch: "a b" }, TypeError],
    [{ ...good, branch: "x.lock" }, TypeError],
    [{ ...good, apiUrl: "not a url" }, TypeError],
    [{ ...good, apiUrl: "ftp://ghe.example" }, TypeError],
    [{ ...good, apiUrl: "http://ghe.example/api/v3" }, TypeError],
    [{ ...good, apiUrl: "https://user:pass@ghe.example" }, TypeError],
    [{ ...good, apiUrl: "https://ghe.example/api/v3?x=1" }, TypeError],
    [{ ...good, timeoutMs: 0 }, RangeError],
    [{ ...good, timeoutMs: -1 }, RangeError],
    [{ ...good, timeoutMs: 1.5 }, RangeError],
    [{ ...good, timeoutMs: Number.NaN }, RangeError],
    [{ ...good, timeoutMs: 2 ** 31 }, RangeError],
    [{ ...good, fetch: "not-a-function" }, TypeError],
  ];
  for (const [options, kind] of refused) {
    assert.throws(
      () => createGitHubRepository(options as unknown as GitHubOptions),
      (error: unknown) => {
        assert.ok(error instanceof kind, `${JSON.stringify(options)}`);
        for (const value of Object.values(options)) {
          if (
            typeof value === "string" && value !== "" &&
            value !== "octo/site" && value !== "ghp_good"
          ) {
            assert.ok(!error.message.includes(value), error.message);
          }
        }
        assert.doesNotMatch(error.message, /\.$/);
        return true;
      },
    );
  }
  for (
    const options of [
      good,
      { ...good, branch: "feature/new-page" },
      { ...good, apiUrl: "https://ghe.example/api/v3/" },
      { ...good, apiUrl: "http://localhost:8080" },
      { ...good, apiUrl: "http://127.0.0.1:8080/api/v3" },
      { ...good, timeoutMs: 1 },
      { ...good, repository: "my-org/site.github.io" },
    ]
  ) {
    createGitHubRepository(options);
  }
  assert.throws(
    () => createGitHubRepository(null as unknown as GitHubOptions),
    TypeError,
  );
});

Deno.test("a custom fetch is used, with a signal", async () => {
  const seen: Request[] = [];
  const repository = createGitHubRepository({
    token: "ghp_custom",
    repository: "octo/site",
    fetch: (input, init) => {
      const request = new Request(input, init);
      seen.push(request);
      return Promise.resolve(new Response("nope", { status: 404 }));
    },
  });
  assert.equal(await repository.read(PAGE), null);
  assert.equal(
    seen[0]?.url,
    `https://api.github.com/repos/octo/site/contents/${PAGE}?ref=main`,
  );
  assert.equal(seen[0]?.signal.aborted, false);
});

Deno.test("a fetch that ignores the signal is still bounded by timeoutMs", async () => {
  let settle!: () => void;
  const repository = createGitHubRepository({
    token: "ghp_custom",
    repository: "octo/site",
    timeoutMs: 100,
    fetch: () =>
      new Promise<Response>((resolve) =>
        settle = () => resolve(new Response("{}"))
      ),
  });
  const started = performance.now();
  await rejectsWithCode(repository.read(PAGE), "unavailable");
  assert.ok(performance.now() - started < 1_000);
  settle();
});

Deno.test("repositoryFromEnv answers the REPOSITORY binding first", () => {
  const binding: Repository = {
    read: () => Promise.resolve(null),
    write: () => Promise.resolve("0".repeat(40)),
  };
  assert.equal(
    repositoryFromEnv({ REPOSITORY: binding, GITHUB_TOKEN: "x" }),
    binding,
  );
  assert.deepEqual(
    repositoryFromEnv({ REPOSITORY: {} as unknown as Repository }),
    { missing: ["REPOSITORY"] },
  );
});

Deno.test("repositoryFromEnv names missing and malformed variables, never their values", () => {
  assert.deepEqual(repositoryFromEnv({}), {
    missing: ["GITHUB_TOKEN", "GITHUB_REPOSITORY"],
  });
  assert.deepEqual(
    repositoryFromEnv({ GITHUB_TOKEN: "", GITHUB_REPOSITORY: "octo/site" }),
    { missing: ["GITHUB_TOKEN"] },
  );
  const env: Env = {
    GITHUB_TOKEN: "ghp_valueToken",
    GITHUB_REPOSITORY: "secret-value-1",
    GITHUB_BRANCH: "secret..value2",
    GITHUB_API_URL: "ftp://secret-value-3",
  };
  const result = repositoryFromEnv(env);
  assert.deepEqual(result, {
    missing: ["GITHUB_REPOSITORY", "GITHUB_BRANCH", "GITHUB_API_URL"],
  });
  assert.doesNotMatch(JSON.stringify(result), /secret|ghp_/);
});

Deno.test("repositoryFromEnv builds GitHub once per env and rebuilds when a variable changes", async () => {
  const double = startGitHubDouble({
    branch: "content",
    files: { [PAGE]: "{}" },
  });
  try {
    const env: Env = {
      GITHUB_TOKEN: double.token,
      GITHUB_REPOSITORY: double.repository,
      GITHUB_BRANCH: "content",
      GITHUB_API_URL: double.url,
    };
    const repository = repositoryFromEnv(env);
    assert.ok("read" in repository);
    assert.equal(repositoryFromEnv(env), repository);
    assert.deepEqual(
      (await repository.read(PAGE))?.content,
      encoder.encode("{}"),
    );
    assert.equal(double.requests[0]?.search, "?ref=content");

    const copy = repositoryFromEnv({ ...env });
    assert.notEqual(copy, repository);

    env.GITHUB_BRANCH = "";
    const main = repositoryFromEnv(env);
    assert.notEqual(main, repository);
    assert.ok("read" in main);
    assert.equal(await main.read(PAGE), null);
    assert.equal(double.requests.at(-1)?.search, "?ref=main");
  } finally {
    await double.close();
  }
});
