import assert from "node:assert/strict";
import { createRouter, type Env } from "../../mod.ts";
import { readEditorKeys } from "../../lib/access/editors.ts";
import {
  DEFAULT_KEY_PARAMS,
  hashKey,
  lastVerificationCost,
  lastVerificationWork,
  verificationCount,
} from "../../lib/access/site_key.ts";
import {
  answer,
  assertNoSecrets,
  cookieFrom,
  fastHash,
  from,
  LOCALES,
  ORIGIN,
  postJson,
  testEnv,
} from "../support/helpers.ts";

const router = createRouter({ locales: [...LOCALES] });
const WRONG = { error: "clé incorrecte" };
const ALICE = "alice.correct-horse-battery";
const BOB = "bob.staple-river-lantern";
const SITE_KEY = "the plain site key";

async function editorKeys(
  entries: Record<string, readonly [key: string, name: string, email: string]>,
): Promise<string> {
  const object: Record<string, unknown> = {};
  for (const [id, [key, name, email]] of Object.entries(entries)) {
    object[id] = { hash: await fastHash(key), name, email };
  }
  return JSON.stringify(object);
}

const TEAM = {
  alice: [ALICE, "Alice Martin", "alice@example.com"],
  bob: [BOB, "Bob Stone", "bob@example.com"],
} as const;

let address = 0;
function sendKey(key: string, env: Env): Promise<Response> {
  address = (address + 1) % 250;
  return router.handle(
    postJson("/api/auth", { key }),
    env,
    from(`198.51.100.${address + 1}`),
  );
}

async function logIn(key: string, env: Env): Promise<string> {
  const response = await sendKey(key, env);
  assert.equal(response.status, 200, await response.clone().text());
  await response.body?.cancel();
  return cookieFrom(response);
}

function whoAmI(cookie: string, env: Env): Promise<Response> {
  return router.handle(
    new Request(`${ORIGIN}/api/session`, { headers: { cookie } }),
    env,
    from("192.0.2.200"),
  );
}

async function setup(extra: Env = {}) {
  const kv = await Deno.openKv(":memory:");
  const env = testEnv(kv, {
    EDITOR_KEYS: await editorKeys({ ...TEAM }),
    ...extra,
  });
  return { kv, env, [Symbol.dispose]: () => kv.close() };
}

Deno.test("a named key logs in, and the session names its editor", async () => {
  using s = await setup();
  const cookie = await logIn(ALICE, s.env);
  const { status, body } = await answer(await whoAmI(cookie, s.env));
  assert.equal(status, 200);
  assert.deepEqual(body, {
    editor: { id: "alice", name: "Alice Martin", role: "publisher" },
  });
  const line = JSON.parse(s.env.logs.at(-1) ?? "{}");
  assert.equal(line.route, "/api/session");
  assert.equal(line.editor, "alice");
  const login = JSON.parse(s.env.logs[0] ?? "{}");
  assert.equal(login.editor, "alice");
  assertNoSecrets(s.env.logs, [ALICE, "correct-horse-battery"]);
});

Deno.test("the session route answers 401 without a session and 405 to other methods", async () => {
  using s = await setup();
  const { status, body } = await answer(await whoAmI("", s.env));
  assert.equal(status, 401);
  assert.deepEqual(body, { error: "unauthorized" });
  const post = await router.handle(
    new Request(`${ORIGIN}/api/session`, { method: "POST" }),
    s.env,
  );
  assert.equal(post.status, 405);
  assert.equal(post.headers.get("allow"), "GET");
  await post.body?.cancel();
});

Deno.test("a named key with a wrong secret, and a key whose prefix names no editor, get the same 401 after the same work", async (t) => {
  // Default-cost hashes, as editor hash-key makes them.
  const kv = await Deno.openKv(":memory:");
  try {
    const keys = JSON.stringify({
      alice: {
        hash: await hashKey(ALICE),
        name: "Alice Martin",
        email: "alice@example.com",
      },
    });
    const refused = async (key: string, extra: Env = {}) => {
      const env = testEnv(kv, { EDITOR_KEYS: keys, ...extra });
      const before = verificationCount();
      const { status, body } = await answer(await sendKey(key, env));
      assert.equal(status, 401);
      assert.deepEqual(body, WRONG);
      assert.equal(verificationCount(), before + 1, "one verification");
      return lastVerificationCost();
    };
    await t.step("a wrong secret for alice", async () => {
      assert.deepEqual(await refused("alice.wrong"), { ...DEFAULT_KEY_PARAMS });
    });
    await t.step("an unknown id, no EDITOR_KEY_HASH: the decoy", async () => {
      assert.deepEqual(await refused("mallory.guess"), {
        ...DEFAULT_KEY_PARAMS,
      });
    });
    await t.step("no dot at all, no EDITOR_KEY_HASH: the decoy", async () => {
      assert.deepEqual(await refused("guess"), { ...DEFAULT_KEY_PARAMS });
    });
    await t.step("an unknown id goes to EDITOR_KEY_HASH", async () => {
      assert.deepEqual(
        await refused("mallory.guess", {
          EDITOR_KEY_HASH: await hashKey(SITE_KEY),
        }),
        { ...DEFAULT_KEY_PARAMS },
      );
    });
  } finally {
    kv.close();
  }
});

Deno.test("an unknown id costs what the named editors' hashes cost when there is no plain key", async () => {
  using s = await setup();
  const before = verificationCount();
  const response = await sendKey("mallory.guess", s.env);
  assert.equal(response.status, 401);
  await response.body?.cancel();
  assert.equal(verificationCount(), before + 1);
  assert.deepEqual(lastVerificationCost(), {
    memory: 64,
    iterations: 1,
    parallelism: 1,
  });
});

Deno.test("an unknown id computes the same hashes as a known id with a wrong secret, whatever the costs of EDITOR_KEY_HASH and the editors' hashes", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const cost = (memory: number, iterations: number) => ({
      memory,
      iterations,
      parallelism: 1,
    });
    const costs = [cost(64, 1), cost(128, 2), cost(96, 3)];
    const env = testEnv(kv, {
      EDITOR_KEY_HASH: await hashKey(SITE_KEY, costs[1]),
      EDITOR_KEYS: JSON.stringify({
        alice: {
          hash: await hashKey(ALICE, costs[0]),
          name: "Alice Martin",
          email: "alice@example.com",
        },
        bob: {
          hash: await hashKey(BOB, costs[2]),
          name: "Bob Stone",
          email: "bob@example.com",
        },
        carol: {
          hash: await hashKey("carol.secret", costs[0]),
          name: "Carol",
          email: "carol@example.com",
        },
      }),
    });
    const order = (work: { memory: number; iterations: number }[]) =>
      work.map(({ memory, iterations }) => `${memory}/${iterations}`).sort();
    const every = order(costs);
    for (
      const [key, status] of [
        ["alice.wrong", 401],
        ["bob.wrong", 401],
        ["mallory.guess", 401],
        ["no-dot-at-all", 401],
        [ALICE, 200],
        [BOB, 200],
        [SITE_KEY, 200],
      ] as const
    ) {
      const before = verificationCount();
      const response = await sendKey(key, env);
      assert.equal(response.status, status, key);
      await response.body?.cancel();
      assert.equal(verificationCount(), before + 1, key);
      // One hash of each cost, the verified one first.
      assert.deepEqual(order(lastVerificationWork()), every, key);
    }
    assert.deepEqual(lastVerificationCost(), costs[1], "the plain key first");
  } finally {
    kv.close();
  }
});

Deno.test("removing one editor, or changing their hash, ends their sessions and nobody else's", async () => {
  using s = await setup({ EDITOR_KEY_HASH: await fastHash(SITE_KEY) });
  const alice = await logIn(ALICE, s.env);
  const bob = await logIn(BOB, s.env);
  const plain = await logIn(SITE_KEY, s.env);
  const status = async (cookie: string, env: Env) => {
    const response = await whoAmI(cookie, env);
    await response.body?.cancel();
    return response.status;
  };
  const withoutBob: Env = {
    ...s.env,
    EDITOR_KEYS: await editorKeys({ alice: TEAM.alice }),
  };
  assert.equal(await status(alice, withoutBob), 200);
  assert.equal(await status(bob, withoutBob), 401);
  assert.equal(await status(plain, withoutBob), 200);
  const bobRehashed: Env = {
    ...s.env,
    EDITOR_KEYS: JSON.stringify({
      ...JSON.parse(s.env.EDITOR_KEYS ?? "{}"),
      bob: {
        hash: await fastHash("bob.a-new-secret"),
        name: "Bob Stone",
        email: "bob@example.com",
      },
    }),
  };
  assert.equal(await status(alice, bobRehashed), 200);
  assert.equal(await status(bob, bobRehashed), 401);
  assert.equal(await status(plain, bobRehashed), 200);
  // Rotating the plain key ends the plain sessions only.
  const rotated: Env = { ...s.env, EDITOR_KEY_HASH: await fastHash("new") };
  assert.equal(await status(alice, rotated), 200);
  assert.equal(await status(plain, rotated), 401);
});

Deno.test("a session ended because its editor was removed or rehashed stays ended when the same entry comes back (an undo, a rollback, an older environment)", async () => {
  // One KV file, opened anew for each environment, as a restart does.
  const folder = await Deno.makeTempDir();
  const path = `${folder}/kv.sqlite3`;
  const keys = await editorKeys({ ...TEAM });
  const plainHash = await fastHash(SITE_KEY);
  const restart = async (extra: Env) => {
    const kv = await Deno.openKv(path);
    return {
      env: testEnv(kv, { EDITOR_KEY_HASH: plainHash, ...extra }),
      [Symbol.dispose]: () => kv.close(),
    };
  };
  const status = async (cookie: string, env: Env) => {
    const response = await whoAmI(cookie, env);
    await response.body?.cancel();
    return response.status;
  };
  try {
    let alice: string, bob: string, plain: string;
    {
      using first = await restart({ EDITOR_KEYS: keys });
      alice = await logIn(ALICE, first.env);
      bob = await logIn(BOB, first.env);
      plain = await logIn(SITE_KEY, first.env);
    }
    {
      // Alice removed, Bob rehashed, the plain key rotated.
      using changed = await restart({
        EDITOR_KEY_HASH: await fastHash("another plain key"),
        EDITOR_KEYS: JSON.stringify({
          bob: {
            hash: await fastHash("bob.a-new-secret"),
            name: "Bob Stone",
            email: "bob@example.com",
          },
        }),
      });
      assert.equal(await status(alice, changed.env), 401);
      assert.equal(await status(bob, changed.env), 401);
      assert.equal(await status(plain, changed.env), 401);
    }
    {
      // Everything as it was: the sessions stay ended.
      using back = await restart({ EDITOR_KEYS: keys });
      assert.equal(await status(alice, back.env), 401);
      assert.equal(await status(bob, back.env), 401);
      assert.equal(await status(plain, back.env), 401);
      // Logging in again opens a new session.
      assert.equal(await status(await logIn(ALICE, back.env), back.env), 200);
    }
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("a malformed EDITOR_KEYS refuses every session but ends none: fixed, the sessions are valid again", async () => {
  using s = await setup({ EDITOR_KEY_HASH: await fastHash(SITE_KEY) });
  const alice = await logIn(ALICE, s.env);
  const plain = await logIn(SITE_KEY, s.env);
  const broken: Env = { ...s.env, EDITOR_KEYS: "{alice:" };
  for (const cookie of [alice, plain]) {
    const response = await whoAmI(cookie, broken);
    assert.equal(response.status, 401);
    await response.body?.cancel();
  }
  for (const cookie of [alice, plain]) {
    const response = await whoAmI(cookie, s.env);
    assert.equal(response.status, 200);
    await response.body?.cancel();
  }
});

Deno.test("the plain site key keeps working beside named keys, as the editor named editor", async () => {
  using s = await setup({ EDITOR_KEY_HASH: await fastHash(SITE_KEY) });
  const cookie = await logIn(SITE_KEY, s.env);
  const { body } = await answer(await whoAmI(cookie, s.env));
  assert.deepEqual(body, {
    editor: { id: "editor", name: "editor", role: "publisher" },
  });
  // A plain key that is not an editor's id before its dot works too.
  const dotted = "Not.an-id";
  const env = { ...s.env, EDITOR_KEY_HASH: await fastHash(dotted) };
  await logIn(dotted, env);
});

Deno.test("a site with only EDITOR_KEY_HASH sees no change", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const env = testEnv(kv, { EDITOR_KEY_HASH: await fastHash(SITE_KEY) });
    const cookie = await logIn(SITE_KEY, env);
    const read = await router.handle(
      new Request(`${ORIGIN}/api/content?path=src/content/pages/en/a.json`, {
        headers: { cookie },
      }),
      env,
      from("192.0.2.7"),
    );
    // Past the session: no repository configured.
    assert.equal(read.status, 502);
    await read.body?.cancel();
    const wrong = await sendKey("alice.x", env);
    assert.equal(wrong.status, 401);
    await wrong.body?.cancel();
  } finally {
    kv.close();
  }
});

Deno.test("a malformed EDITOR_KEYS fails closed: every login refused after the same work, no session valid, the log says why", async (t) => {
  const kv = await Deno.openKv(":memory:");
  try {
    const good = testEnv(kv, {
      EDITOR_KEY_HASH: await fastHash(SITE_KEY),
      EDITOR_KEYS: await editorKeys({ ...TEAM }),
    });
    const cookie = await logIn(SITE_KEY, good);
    const hash = await fastHash(ALICE);
    const cases: [string, string, RegExp][] = [
      ["not JSON", "{alice:", /not JSON/],
      ["an array", "[]", /not a JSON object/],
      ["a bad id", JSON.stringify({ Alice: {} }), /id "Alice"/],
      [
        "the reserved id",
        JSON.stringify({ editor: { hash, name: "E", email: "e@x.org" } }),
        /plain site key/,
      ],
      [
        "a bad hash",
        JSON.stringify({ alice: { hash: "x", name: "A", email: "a@x.org" } }),
        /hash of "alice"/,
      ],
      [
        "a name with <",
        JSON.stringify({ alice: { hash, name: "A <b>", email: "a@x.org" } }),
        /name of "alice"/,
      ],
      [
        "no email",
        JSON.stringify({ alice: { hash, name: "Alice" } }),
        /email of "alice"/,
      ],
    ];
    for (const [name, keys, reason] of cases) {
      await t.step(name, async () => {
        const env = testEnv(kv, {
          EDITOR_KEY_HASH: good.EDITOR_KEY_HASH,
          EDITOR_KEYS: keys,
        });
        for (const key of name === "not JSON" ? [SITE_KEY, ALICE] : [ALICE]) {
          const before = verificationCount();
          const { status, body } = await answer(await sendKey(key, env));
          assert.equal(status, 401);
          assert.deepEqual(body, WRONG);
          assert.equal(verificationCount(), before + 1);
        }
        const line = JSON.parse(env.logs.at(-1) ?? "{}");
        assert.match(line.detail, reason);
        assert.match(line.detail, /every login is refused/);
        const me = await whoAmI(cookie, env);
        assert.equal(me.status, 401);
        await me.body?.cancel();
      });
    }
  } finally {
    kv.close();
  }
});

/** Every control and line-breaking character a name or email may not hold. */
const CONTROLS: readonly [string, string][] = [
  ["NUL", "\u0000"],
  ["ESC", "\u001b"],
  ["a line feed", "\n"],
  ["DEL", "\u007f"],
  ["U+0080", "\u0080"],
  ["U+0085 (next line)", "\u0085"],
  ["U+009B (CSI)", "\u009b"],
  ["U+2028", "\u2028"],
  ["U+2029", "\u2029"],
];

Deno.test("the one reader of EDITOR_KEYS refuses a name or email holding any control or line-breaking character, saying which entry on one line", async () => {
  const hash = await fastHash(ALICE);
  for (const [label, character] of CONTROLS) {
    for (
      const [field, entry] of [
        ["name", { hash, name: `Alice${character}Martin`, email: "a@x.org" }],
        ["email", { hash, name: "Alice", email: `alice${character}@x.org` }],
        ["email", { hash, name: "Alice", email: `alice@x.org${character}` }],
      ] as const
    ) {
      const read = readEditorKeys(JSON.stringify({ alice: entry }));
      assert.ok(!read.ok, `${label} in the ${field}`);
      assert.match(read.problem, new RegExp(`the ${field} of "alice"`));
    }
  }
  // The id is shown on one line, whatever it holds.
  const odd = readEditorKeys(JSON.stringify({ "a\u2028\u0085b": {} }));
  assert.ok(!odd.ok);
  assert.equal(odd.problem.split(/[\n\r\u0085\u2028\u2029]/).length, 1);
  assert.match(odd.problem, /"a\\u2028\\u0085b"/);
});

Deno.test("a name or email holding a control or line-breaking character fails closed: every login refused, the log line says which entry", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const hash = await fastHash(ALICE);
    for (
      const [field, entry] of [
        ["name", { hash, name: "Alice\u001b[2J", email: "a@x.org" }],
        ["email", { hash, name: "Alice", email: "alice@x.org\u2028" }],
      ] as const
    ) {
      const env = testEnv(kv, {
        EDITOR_KEYS: JSON.stringify({ alice: entry }),
      });
      const { status, body } = await answer(await sendKey(ALICE, env));
      assert.equal(status, 401);
      assert.deepEqual(body, WRONG);
      const line = env.logs.at(-1) ?? "";
      assert.match(
        JSON.parse(line).detail,
        new RegExp(`the ${field} of "alice"`),
      );
      assert.match(line, /every login is refused/);
    }
  } finally {
    kv.close();
  }
});

Deno.test("with 20 named editors a login costs one argon2 verification", async () => {
  const team: Record<string, [string, string, string]> = {};
  for (let index = 0; index < 20; index++) {
    team[`editor-${index}`] = [
      `editor-${index}.secret-${index}`,
      `Editor ${index}`,
      `e${index}@example.com`,
    ];
  }
  using s = await setup({ EDITOR_KEYS: await editorKeys(team) });
  for (const key of ["editor-0.secret-0", "editor-19.secret-19"]) {
    const before = verificationCount();
    await logIn(key, s.env);
    assert.equal(verificationCount() - before, 1);
  }
  for (const key of ["editor-7.wrong", "nobody.x", "plain"]) {
    const before = verificationCount();
    const response = await sendKey(key, s.env);
    assert.equal(response.status, 401);
    await response.body?.cancel();
    assert.equal(verificationCount() - before, 1);
  }
});
