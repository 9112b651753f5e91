/**
 * The recipes of `docs/deploy.md` and `docs/routes.md`, run: the GitHub App
 * variables as the deploy page sets them, its table of what a publish costs
 * (counted again by the GitHub double), the shape of its log line, and the
 * browser client snippet of the routes page.
 */
import assert from "node:assert/strict";
import { createClient } from "../client/mod.ts";
import { createRouter } from "../mod.ts";
import { appKeys } from "./support/github_app_double.ts";
import { measure, twoReads } from "./support/github_costs.ts";
import { startGitHubDouble } from "./support/github_double.ts";
import {
  answer,
  fastHash,
  from,
  login,
  readRequest,
  testEnv,
} from "./support/helpers.ts";
import { pngOfSize } from "./support/image_fixtures.ts";
import { HOME, siteEnv } from "./support/site.ts";

const deploy = await Deno.readTextFile(
  new URL("../docs/deploy.md", import.meta.url),
);
const routes = await Deno.readTextFile(
  new URL("../docs/routes.md", import.meta.url),
);
const router = createRouter({ locales: ["en", "fr"] });

/** The blocks of a page fenced with a language. */
const blocks = (page: string, language: string) =>
  [...page.matchAll(new RegExp("```" + language + "\\n([\\s\\S]*?)```", "g"))]
    .map((match) => match[1]!);

Deno.test("docs/deploy.md: the GitHub App variables as the page sets them read through the router, and the log line is as shown", async () => {
  const variables = blocks(deploy, "sh").find((block) =>
    block.includes("GITHUB_APP_ID=")
  );
  const names = [...variables!.matchAll(/^([A-Z_]+)=/gm)].map((m) => m[1]);
  assert.deepEqual(names, [
    "GITHUB_APP_ID",
    "GITHUB_APP_INSTALLATION_ID",
    "GITHUB_APP_PRIVATE_KEY",
    "GITHUB_REPOSITORY",
  ]);
  const keys = await appKeys();
  await using github = startGitHubDouble({
    files: { [HOME]: '{"title":"Home"}\n' },
    app: {
      id: "912345",
      publicKey: keys.publicKey,
      installationId: "45678901",
    },
  });
  await using kv = await Deno.openKv(":memory:");
  const given: Record<string, string> = {
    GITHUB_APP_ID: "912345",
    GITHUB_APP_INSTALLATION_ID: "45678901",
    // "on one line with each break written \n"
    GITHUB_APP_PRIVATE_KEY: keys.pkcs1.replaceAll("\n", "\\n"),
    GITHUB_REPOSITORY: github.repository,
  };
  const env = testEnv(kv, {
    ...Object.fromEntries(names.map((name) => [name!, given[name!]])),
    GITHUB_API_URL: github.url,
    EDITOR_KEY_HASH: await fastHash("docs key"),
  });
  const cookie = await login(router.handle, env, "docs key");
  const read = await answer(
    await router.handle(readRequest(HOME, cookie), env, from("10.66.0.1")),
  );
  assert.equal(read.status, 200);
  assert.equal(github.appTokens.length, 1);
  // The log line of a GitHub call has the fields the page shows.
  const shown = JSON.parse(
    /`(\{"time":"…","github":[^`]*\})`/.exec(deploy)![1]!,
  );
  const line = env.logs.map((text) => JSON.parse(text)).find((entry) =>
    "github" in entry
  );
  assert.deepEqual(Object.keys(line).sort(), Object.keys(shown).sort());
});

Deno.test("docs/deploy.md: the table of what a publish costs is what the GitHub double counts", async () => {
  const table = deploy.slice(deploy.indexOf("| What "));
  const lines = table.split("\n");
  const end = lines.findIndex((row) => !row.startsWith("|"));
  const rows = lines.slice(2, end)
    .map((row) =>
      row.split("|").slice(2, 6).map((cell) => Number(cell.trim()))
    );
  const alone = await measure(router, 0, true);
  const images = await measure(router, 2, true);
  const reads = await twoReads(router);
  const counted = (cost: (typeof alone)[number]) => [
    cost.requests,
    cost.billed,
    cost.creating,
    cost.commits,
  ];
  assert.deepEqual(rows, [
    counted(alone[0]!),
    counted(images[0]!),
    counted(images[1]!),
    [1, reads[1], 0, 0],
  ]);
  assert.deepEqual(counted(alone[1]!), counted(alone[0]!));
});

Deno.test("docs/routes.md: the client snippet makes one commit holding the page and its staged image", async () => {
  await using s = await siteEnv("routes key");
  const jar: string[] = [];
  const client = createClient({
    origin: "https://site.example",
    fetch: async (request) => {
      const headers = new Headers(request.headers);
      const body = request.body ? await request.arrayBuffer() : null;
      if (body) headers.set("content-length", String(body.byteLength));
      if (jar.length > 0) headers.set("cookie", jar.join("; "));
      const response = await router.handle(
        new Request(request.url, { method: request.method, headers, body }),
        s.env,
        from("10.66.0.2"),
      );
      for (const cookie of response.headers.getSetCookie()) {
        jar.push(cookie.split(";")[0]!);
      }
      return response;
    },
  });
  await client.login("routes key");
  const count = await s.site.commitCount();
  const snippet = blocks(routes, "ts ignore").find((block) =>
    block.includes("{ staged: true }")
  );
  const run = new (Object.getPrototypeOf(async () => {}).constructor)(
    "client",
    "photo",
    "path",
    snippet,
  ) as (client: unknown, photo: Blob, path: string) => Promise<void>;
  await run(
    client,
    new Blob([pngOfSize(500, 40, 30)], { type: "image/png" }),
    HOME,
  );
  assert.equal(await s.site.commitCount(), count + 1);
  const paths = (await s.site.git("show", "--name-only", "--format=", "HEAD"))
    .trim().split("\n");
  assert.equal(paths.length, 2);
  assert.match(paths[0]!, /^public\/images\/team-photo-[0-9a-f]{12}\.png$/);
  assert.equal(paths[1], HOME);
  assert.equal(
    (await s.site.git("log", "-1", "--format=%s")).trim(),
    "New team photo",
  );
  const body = blocks(routes, "json").find((block) =>
    block.includes('"staged"')
  );
  assert.deepEqual(Object.keys(JSON.parse(body!)), [
    "src",
    "width",
    "height",
    "staged",
  ]);
});
