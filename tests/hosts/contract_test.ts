/**
 * The host contract of docs/deploy.md: a `REPOSITORY` that
 * throws an error of its own answers 502 `unavailable`; a request without
 * a client address and a key check on the main thread are each said once
 * in the log, on a host that really lacks them (the neutral bundle in
 * Node); `EDITOR_ARGON2` receives the job and its hash decides.
 */
import assert from "node:assert/strict";
import {
  ConflictError,
  createRouter,
  type Repository,
  RepositoryError,
} from "../../mod.ts";
import { from, postJson, signedInEnv } from "../support/helpers.ts";
import { HOME } from "../support/site.ts";
import { pngOfSize } from "../support/image_fixtures.ts";
import { neutralBundle, ROOT } from "../support/hosts.ts";

const router = createRouter({ locales: ["en", "fr"] });

function throwing(error: unknown): Repository {
  return {
    read: () => Promise.reject(error),
    write: () => {
      throw error; // synchronously, as a careless binding might
    },
  };
}

Deno.test("a REPOSITORY that throws an error of its own answers 502 unavailable on every route, the detail in the log only", async () => {
  using kv = await Deno.openKv(":memory:");
  const { env, cookie } = await signedInEnv(router, kv, "key", {
    REPOSITORY: throwing(new TypeError("socket hang up at 10.0.0.7")),
  });
  const requests = [
    new Request(`https://site.example/api/content?path=${HOME}`, {
      headers: { cookie },
    }),
    postJson("/api/save", { path: HOME, content: "{}", version: "" }, {
      cookie,
    }),
  ];
  const form = new FormData();
  form.append("file", new Blob([pngOfSize(4_000, 40, 30)]), "a.png");
  requests.push(
    new Request("https://site.example/api/upload", {
      method: "POST",
      headers: { cookie },
      body: form,
    }),
  );
  for (const request of requests) {
    const response = await router.handle(request, env, from("192.0.2.9"));
    const body = await response.json();
    assert.deepEqual([response.status, body], [502, { error: "unavailable" }]);
    const line = JSON.parse(env.logs.at(-1) ?? "{}");
    assert.equal(line.code, "unavailable");
    assert.match(line.detail, /TypeError: socket hang up at 10\.0\.0\.7/);
    assert.ok(!JSON.stringify(body).includes("socket"));
  }
});

Deno.test("a REPOSITORY's own ConflictError and RepositoryError keep their answers", async () => {
  using kv = await Deno.openKv(":memory:");
  const cases: [unknown, number, unknown][] = [
    [new ConflictError("moved"), 409, { error: "conflict" }],
    [new RepositoryError("unauthorized", "no"), 502, { error: "unauthorized" }],
    [new RepositoryError("not_found", "gone"), 502, { error: "not_found" }],
    ["a string", 502, { error: "unavailable" }],
  ];
  for (const [error, status, body] of cases) {
    const { env, cookie } = await signedInEnv(
      router,
      kv,
      "key",
      { REPOSITORY: throwing(error) },
      "192.0.2.10",
    );
    const response = await router.handle(
      postJson("/api/save", { path: HOME, content: "{}", version: "" }, {
        cookie,
      }),
      env,
      from("192.0.2.10"),
    );
    assert.deepEqual([response.status, await response.json()], [status, body]);
  }
});

/** Runs a script in Node against the neutral bundle; answers its output. */
async function inNode(script: string): Promise<string> {
  const bundle = await neutralBundle();
  const { success, stdout, stderr } = await new Deno.Command("node", {
    args: ["--input-type=module", "-e", script],
    cwd: ROOT,
    env: { EDITOR_BUNDLE: new URL(`file://${bundle}/mod.js`).href },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  assert.ok(success, text.decode(stderr));
  return text.decode(stdout);
}

const NODE_SETUP = `
const { createRouter, hashKey } = await import(process.env.EDITOR_BUNDLE);
const lines = [];
const store = new Map();
let stamp = 0;
const kv = {
  async get(key) { return store.get(JSON.stringify(key)) ?? { value: null, versionstamp: null }; },
  async set(key, value) { store.set(JSON.stringify(key), { value, versionstamp: String(++stamp).padStart(20, "0") }); },
  async delete(key) { store.delete(JSON.stringify(key)); },
  atomic() {
    const checks = [], sets = [];
    return {
      check(...c) { checks.push(...c); return this; },
      set(key, value) { sets.push([key, value]); return this; },
      async commit() {
        for (const c of checks) if ((await kv.get(c.key)).versionstamp !== c.versionstamp) return { ok: false };
        for (const [key, value] of sets) await kv.set(key, value);
        return { ok: true, versionstamp: String(stamp).padStart(20, "0") };
      },
    };
  },
};
const router = createRouter({ locales: ["en"] });
const hash = await hashKey("key", { memory: 64, iterations: 1, parallelism: 1 });
const post = (key) => new Request("https://site.example/api/auth", {
  method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ key }),
});
`;

Deno.test("in Node: no client address and no proxy header is said once; an address or the header says nothing", async () => {
  const out = await inNode(
    NODE_SETUP + `
const env = { RATE_LIMIT: kv, EDITOR_LOG: (l) => lines.push(JSON.parse(l)) };
const read = () => new Request("https://site.example/api/content?path=x", {
  headers: { "x-client": "192.0.2.7" },
});
await router.handle(read(), { ...env, EDITOR_CLIENT_IP_HEADER: "x-client" });
await router.handle(read(), env, { remoteAddr: { hostname: "192.0.2.8" } });
await router.handle(read(), env);
await router.handle(read(), env, {});
console.log(JSON.stringify(lines.map((l) => l.message ?? l.status)));
`,
  );
  const [first, second, third, ...rest] = JSON.parse(out);
  assert.deepEqual([first, second], [401, 401]);
  assert.match(
    third,
    /^warning: a request arrived without a client address \(info\.remoteAddr\) and without the proxy header \(EDITOR_CLIENT_IP_HEADER is not set\): every such client shares one rate bucket/,
  );
  assert.deepEqual(rest, [401, 401]);
});

Deno.test("in Node: key checks on the main thread are said once; EDITOR_ARGON2 runs them and its hash decides", async () => {
  const out = await inNode(
    NODE_SETUP + `
const { argon2Hash } = await import(process.env.EDITOR_BUNDLE);
const info = { remoteAddr: { hostname: "192.0.2.1" } };
const env = { RATE_LIMIT: kv, EDITOR_KEY_HASH: hash, EDITOR_LOG: (l) => lines.push(JSON.parse(l)) };
const jobs = [];
const runner = { ...env, EDITOR_ARGON2: async (job) => { jobs.push(job); return await argon2Hash(job); } };
const statuses = [];
statuses.push((await router.handle(post("key"), runner, info)).status);
statuses.push((await router.handle(post("nope"), runner, info)).status);
const before = lines.length;
statuses.push((await router.handle(post("key"), env, info)).status);
statuses.push((await router.handle(post("nope"), env, info)).status);
console.log(JSON.stringify({
  statuses,
  jobs: jobs.map((j) => [j.password, j.memorySize, j.iterations, j.parallelism, j.salt.length, j.hashLength]),
  before: lines.slice(0, before).map((l) => l.message ?? l.status),
  after: lines.slice(before).map((l) => l.message ?? l.status),
}));
`,
  );
  const result = JSON.parse(out);
  assert.deepEqual(result.statuses, [200, 401, 200, 401]);
  assert.deepEqual(result.jobs, [
    ["key", 64, 1, 1, 16, 32],
    ["nope", 64, 1, 1, 16, 32],
  ]);
  assert.deepEqual(result.before, [200, 401]);
  assert.equal(result.after.length, 3);
  assert.match(
    result.after[0],
    /^warning: key checks run on the main thread, which stalls other requests for the length of each check \(this host has no global Worker and EDITOR_ARGON2 is not set\)$/,
  );
  assert.deepEqual(result.after.slice(1), [200, 401]);
});
