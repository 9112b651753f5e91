import assert from "node:assert/strict";
import { warnMissingVariables } from "../../mod.ts";
import { fastHash } from "../support/helpers.ts";

const EFFECT_KEY = "every login is refused as a wrong key";
const EFFECT_REPO = "reads, publishes and uploads answer 502 unavailable";
const EFFECT_PREVIEW = "preview links of reviews cannot be made or opened";
const SECRET = {
  EDITOR_PREVIEW_SECRET: "a preview secret of 32 characters at least",
};

Deno.test("warnMissingVariables names what is missing or unusable in one line, never a value", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const cases: [Record<string, unknown>, string[], string][] = [
      [
        { RATE_LIMIT: kv, EDITOR_KEY_HASH: "s3cret-plaintext", ...SECRET },
        ["EDITOR_KEY_HASH", "GITHUB_TOKEN", "GITHUB_REPOSITORY"],
        `${EFFECT_KEY}; ${EFFECT_REPO}`,
      ],
      [
        {
          RATE_LIMIT: kv,
          EDITOR_KEY_HASH: await fastHash("k"),
          GITHUB_TOKEN: "ghp_value",
          GITHUB_REPOSITORY: "octo/site",
          EDITOR_PREVIEW_SECRET: "s3cret-plaintext",
        },
        ["EDITOR_PREVIEW_SECRET"],
        EFFECT_PREVIEW,
      ],
      [
        {
          EDITOR_KEY_HASH: await fastHash("k"),
          GITHUB_TOKEN: "ghp_value",
          GITHUB_REPOSITORY: "octo/site",
          GITHUB_BRANCH: "bad..branch",
          GITHUB_API_URL: "ftp://api.example",
          ...SECRET,
        },
        ["RATE_LIMIT", "GITHUB_BRANCH", "GITHUB_API_URL"],
        `every route but logout answers 503 unavailable; ${EFFECT_REPO}`,
      ],
    ];
    for (const [env, names, effects] of cases) {
      const lines: string[] = [];
      assert.deepEqual(
        warnMissingVariables(env, (line) => lines.push(line)),
        names,
      );
      assert.deepEqual(lines, [
        `@inpage/editor: missing or invalid variables: ${
          names.join(", ")
        } (until they are set, ${effects})`,
      ]);
      for (const value of ["s3cret-plaintext", "ghp_value", "bad..branch"]) {
        assert.ok(!lines[0]!.includes(value), value);
      }
    }
    const quiet: string[] = [];
    assert.deepEqual(
      warnMissingVariables({
        RATE_LIMIT: kv,
        EDITOR_KEY_HASH: await fastHash("k"),
        GITHUB_TOKEN: "ghp_value",
        GITHUB_REPOSITORY: "octo/site",
        GITHUB_BRANCH: "",
        ...SECRET,
      }, (line) => quiet.push(line)),
      [],
    );
    assert.deepEqual(quiet, []);
  } finally {
    kv.close();
  }
});

Deno.test("warnMissingVariables accepts named editors instead of EDITOR_KEY_HASH and names a malformed EDITOR_KEYS", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const base = {
      RATE_LIMIT: kv,
      GITHUB_TOKEN: "t",
      GITHUB_REPOSITORY: "octo/site",
      ...SECRET,
    };
    const lines: string[] = [];
    const keys = JSON.stringify({
      alice: {
        hash: await fastHash("alice.k"),
        name: "Alice",
        email: "a@example.com",
      },
    });
    assert.deepEqual(
      warnMissingVariables(
        { ...base, EDITOR_KEYS: keys },
        (l) => lines.push(l),
      ),
      [],
    );
    assert.deepEqual(
      warnMissingVariables(
        { ...base, EDITOR_KEYS: "{broken", EDITOR_KEY_HASH: undefined },
        (l) => lines.push(l),
      ),
      ["EDITOR_KEYS"],
    );
    assert.ok(!lines.join("\n").includes("broken"));
    assert.deepEqual(
      warnMissingVariables({ ...base, EDITOR_KEYS: "{}" }, () => {}),
      ["EDITOR_KEY_HASH"],
    );
  } finally {
    kv.close();
  }
});
