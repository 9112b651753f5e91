/**
 * A GitHub App instead of a token: the app's JWT (RS256 by WebCrypto,
 * checked by the double against the app's public key), the installation
 * token it is exchanged for, used for every call and renewed five minutes
 * before it expires; PKCS#1 keys as GitHub issues them and PKCS#8 keys;
 * the `GITHUB_APP_*` variables through the router.
 */
import assert from "node:assert/strict";
import { createGitHubRepository } from "../../lib/repository/github.ts";
import { repositoryFromEnv } from "../../lib/repository/from_env.ts";
import { pkcs8FromPem } from "../../lib/repository/private_key.ts";
import { RepositoryError } from "../../lib/repository/repository.ts";
import { createRouter } from "../../mod.ts";
import { appKeys } from "../support/github_app_double.ts";
import {
  type GitHubDouble,
  startGitHubDouble,
} from "../support/github_double.ts";
import {
  answer,
  assertNoSecrets,
  fastHash,
  from,
  login,
  manualClock,
  postJson,
  readRequest,
  testEnv,
} from "../support/helpers.ts";

const HOME = "src/content/pages/en/home.json";
const APP_ID = "912345";
const INSTALLATION = "45678901";
const keys = await appKeys();

/** The GitHub repository of the app's installation on a double. */
function appRepository(
  double: GitHubDouble,
  now: () => number,
  privateKey: string = keys.pkcs1,
  log?: (line: string) => void,
) {
  return createGitHubRepository({
    app: { appId: APP_ID, privateKey, installationId: INSTALLATION },
    repository: double.repository,
    apiUrl: double.url,
    now,
    ...(log ? { log } : {}),
  });
}

function appDouble(clock: () => number) {
  return startGitHubDouble({
    files: { [HOME]: '{"title":"Home"}\n' },
    app: {
      id: APP_ID,
      publicKey: keys.publicKey,
      installationId: INSTALLATION,
    },
    clock,
  });
}

Deno.test("the app-token flow: a JWT the double verifies, exchanged for an installation token used by every call", async () => {
  const clock = manualClock(Date.now());
  await using double = appDouble(clock.now);
  const logs: string[] = [];
  const repository = appRepository(
    double,
    clock.now,
    keys.pkcs1,
    (line) => void logs.push(line),
  );
  const file = await repository.read(HOME);
  assert.equal(new TextDecoder().decode(file!.content), '{"title":"Home"}\n');
  const version = await repository.write(
    HOME,
    new TextEncoder().encode('{"title":"By the app"}\n'),
    file!.version,
    "From the app",
  );
  assert.equal(typeof version, "string");
  const [exchange, ...calls] = double.requests;
  assert.equal(exchange!.method, "POST");
  assert.equal(
    exchange!.path,
    `/app/installations/${INSTALLATION}/access_tokens`,
  );
  assert.equal(exchange!.status, 201);
  assert.deepEqual(calls.map((r) => [r.method, r.authorized, r.status]), [
    ["GET", true, 200],
    ["PUT", true, 200],
  ]);
  assert.equal(double.appTokens.length, 1);
  assert.equal(double.commits.length, 2);
  // The log names the exchange, never the JWT nor the token.
  assert.ok(logs.some((line) => line.includes("access_tokens")));
  assertNoSecrets(logs, [keys.pkcs1.slice(40, 80)]);
  assert.ok(logs.every((line) => !/ghs_|eyJ/.test(line)));
});

Deno.test("the installation token is kept until five minutes before it expires, then renewed before it is used", async () => {
  const clock = manualClock(Date.now());
  await using double = appDouble(clock.now);
  const repository = appRepository(double, clock.now, keys.pkcs8);
  await repository.read(HOME);
  clock.advance(54 * 60_000);
  await repository.read(HOME);
  assert.equal(double.appTokens.length, 1, "kept at 54 minutes");
  clock.advance(2 * 60_000);
  await repository.read(HOME);
  assert.equal(double.appTokens.length, 2, "renewed at 56 minutes");
  assert.equal(double.appTokens[1]!.issuedAt, clock.now());
  // Past the first token's hour, every call still goes through.
  clock.advance(10 * 60_000);
  await repository.read(HOME);
  assert.equal(double.appTokens.length, 2);
  assert.ok(
    double.requests.filter((r) => !r.path.startsWith("/app/")).every((r) =>
      r.authorized
    ),
  );
});

Deno.test("a token GitHub refuses (revoked) is renewed once; a key GitHub does not know is 502 unauthorized", async () => {
  const clock = manualClock(Date.now());
  await using double = appDouble(clock.now);
  const repository = appRepository(double, clock.now, keys.pkcs1);
  await repository.read(HOME);
  double.revokeAppTokens();
  const file = await repository.read(HOME);
  assert.ok(file);
  assert.equal(double.appTokens.length, 2);
  assert.deepEqual(
    double.requests.map((r) => r.status),
    [201, 200, 401, 201, 304],
  );
  const other = await appKeys();
  const stranger = appRepository(double, clock.now, other.pkcs1);
  await assert.rejects(
    stranger.read(HOME),
    (error) =>
      error instanceof RepositoryError && error.code === "unauthorized",
  );
});

Deno.test("GITHUB_APP_* through the router: reads and publishes with the app; a missing variable is named in the log, never a value", async () => {
  const router = createRouter({ locales: ["en"] });
  const clock = manualClock(Date.now());
  await using double = appDouble(clock.now);
  await using kv = await Deno.openKv(":memory:");
  const env = testEnv(kv, {
    EDITOR_KEY_HASH: await fastHash("app key"),
    EDITOR_CLOCK: clock.now,
    GITHUB_APP_ID: APP_ID,
    // As many hosts keep a multi-line variable: `\n` written out.
    GITHUB_APP_PRIVATE_KEY: keys.pkcs1.replaceAll("\n", "\\n"),
    GITHUB_APP_INSTALLATION_ID: INSTALLATION,
    GITHUB_REPOSITORY: double.repository,
    GITHUB_API_URL: double.url,
  });
  const cookie = await login(router.handle, env, "app key");
  const read = await answer(
    await router.handle(readRequest(HOME, cookie), env, from("10.8.0.1")),
  );
  assert.equal(read.status, 200);
  const saved = await answer(
    await router.handle(
      postJson("/api/save", {
        path: HOME,
        content: '{"title":"Via the app"}',
        version: (read.body as { version: string }).version,
      }, { cookie }),
      env,
      from("10.8.0.2"),
    ),
  );
  assert.equal(saved.status, 200);
  assert.equal(double.appTokens.length, 1);
  assertNoSecrets(env.logs, [keys.pkcs1.slice(40, 80)]);
  assert.deepEqual(
    repositoryFromEnv({
      GITHUB_APP_ID: APP_ID,
      GITHUB_APP_PRIVATE_KEY: "-----BEGIN RSA PRIVATE KEY-----\nnot base64!\n",
      GITHUB_REPOSITORY: double.repository,
    }),
    { missing: ["GITHUB_APP_PRIVATE_KEY", "GITHUB_APP_INSTALLATION_ID"] },
  );
});

Deno.test("a PKCS#1 key is wrapped as the PKCS#8 key Node's crypto makes of it; anything else is refused without a word of it", () => {
  const fromPkcs1 = pkcs8FromPem(keys.pkcs1);
  const fromPkcs8 = pkcs8FromPem(keys.pkcs8);
  assert.deepEqual(fromPkcs1, fromPkcs8);
  for (
    const refused of [
      "",
      "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----",
      "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----",
      keys.pkcs1.replace(/[A-Za-z0-9]{20}\n/, "\n"),
    ]
  ) {
    assert.throws(
      () => pkcs8FromPem(refused),
      (error) => error instanceof TypeError && !error.message.includes("AAAA"),
    );
  }
});
