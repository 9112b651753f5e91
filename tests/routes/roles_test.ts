/**
 * Roles on `EDITOR_KEYS` entries: `publisher` (the default, and the plain
 * site key's editor) publishes; an `author`'s `POST /api/save` answers 403
 * `forbidden` and writes nothing, on a local checkout and on the GitHub
 * double; an unknown role refuses the whole variable.
 */
import assert from "node:assert/strict";
import { createRouter } from "../../mod.ts";
import { readEditorKeys } from "../../lib/access/editors.ts";
import { githubSignedIn } from "../support/github_double.ts";
import {
  answer,
  fastHash,
  from,
  login,
  ORIGIN,
  postJson,
} from "../support/helpers.ts";
import { HOME, HOME_TEXT, siteEnv } from "../support/site.ts";

const router = createRouter({ locales: ["en", "fr"] });
const KEY = "roles plain key";
const AUTHOR = "bob.author-river-lantern";
const PUBLISHER = "alice.publisher-horse";

async function editorKeys(): Promise<string> {
  return JSON.stringify({
    alice: {
      hash: await fastHash(PUBLISHER),
      name: "Alice Martin",
      email: "alice@example.com",
    },
    bob: {
      hash: await fastHash(AUTHOR),
      name: "Bob Stone",
      email: "bob@example.com",
      role: "author",
    },
  });
}

Deno.test("an entry's role is publisher unless it says author; any other role refuses EDITOR_KEYS", async () => {
  const read = readEditorKeys(await editorKeys());
  assert.ok(read.ok);
  assert.equal(read.editors.get("alice")?.role, "publisher");
  assert.equal(read.editors.get("bob")?.role, "author");
  for (const role of ["admin", "", "Author", 1, null]) {
    const entry = JSON.stringify({
      bob: {
        hash: await fastHash(AUTHOR),
        name: "Bob",
        email: "bob@example.com",
        role,
      },
    });
    assert.deepEqual(readEditorKeys(entry), {
      ok: false,
      problem: 'EDITOR_KEYS: the role of "bob" must be "publisher" or "author"',
    }, String(role));
  }
});

const save = (cookie: string, version: string) =>
  postJson("/api/save", {
    path: HOME,
    content: JSON.stringify({ title: "By an author" }),
    version,
  }, { cookie });

Deno.test("on a local checkout an author's publish is 403 forbidden and writes nothing; a publisher's is written", async () => {
  await using s = await siteEnv(KEY, {
    extra: { EDITOR_KEYS: await editorKeys() },
  });
  const version = (await s.env.REPOSITORY!.read(HOME))!.version;
  const author = await login(router.handle, s.env, AUTHOR, "192.0.2.11");
  const before = await s.site.commitCount();
  const refused = await answer(
    await router.handle(save(author, version), s.env, from("192.0.2.11")),
  );
  assert.deepEqual([refused.status, refused.body], [403, {
    error: "forbidden",
  }]);
  assert.equal(await s.site.read(HOME), HOME_TEXT);
  assert.equal(await s.site.commitCount(), before);
  // The role comes before the body: a malformed body is 403 too.
  const malformed = await answer(
    await router.handle(
      postJson("/api/save", "{nope", { cookie: author }),
      s.env,
      from("192.0.2.11"),
    ),
  );
  assert.equal(malformed.status, 403);
  // Without a session it is still 401, and an author's session still reads.
  const anonymous = await router.handle(save("", version), s.env);
  assert.equal(anonymous.status, 401);
  await anonymous.body?.cancel();
  const read = await router.handle(
    new Request(`${ORIGIN}/api/content?path=${HOME}`, {
      headers: { cookie: author },
    }),
    s.env,
    from("192.0.2.11"),
  );
  assert.equal(read.status, 200);
  await read.body?.cancel();
  for (
    const [key, client] of [[PUBLISHER, "192.0.2.12"], [
      KEY,
      "192.0.2.13",
    ]] as const
  ) {
    const cookie = await login(router.handle, s.env, key, client);
    const current = (await s.env.REPOSITORY!.read(HOME))!.version;
    const done = await answer(
      await router.handle(save(cookie, current), s.env, from(client)),
    );
    assert.equal(done.status, 200, key);
  }
  assert.equal(await s.site.commitCount(), before + 1);
});

Deno.test("on the GitHub double an author's publish is 403 forbidden and sends GitHub nothing", async () => {
  await using s = await githubSignedIn(router, KEY, { [HOME]: HOME_TEXT }, {
    EDITOR_KEYS: await editorKeys(),
  });
  const author = await login(router.handle, s.env, AUTHOR, "192.0.2.21");
  const calls = s.github.requests.length;
  const refused = await answer(
    await router.handle(
      save(author, "0".repeat(40)),
      s.env,
      from("192.0.2.21"),
    ),
  );
  assert.deepEqual([refused.status, refused.body], [403, {
    error: "forbidden",
  }]);
  assert.equal(s.github.requests.length, calls, "no call to GitHub");
  assert.equal(s.github.commits.length, 1);
});
