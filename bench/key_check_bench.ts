/**
 * The key check at the default parameters (m = 65536 KiB, t = 3, p = 1):
 * the package's verifier against Debian's reference `argon2` command at the
 * same parameters, on the same machine, in the same run. Then a login with
 * an unknown id against one with a known id and a wrong secret, when the
 * hashes have different costs: the ratio says whether ids can be told by
 * timing.
 *
 * Run: deno bench -A bench/key_check_bench.ts
 */

import {
  hashKey,
  verificationCount,
  verifyKey,
} from "../lib/access/site_key.ts";
import { createRouter } from "../mod.ts";
import { spawnWithInput } from "../tests/support/process.ts";

const KEY = "correct horse battery staple";
const phc = await hashKey(KEY);
const argon2 = "/usr/bin/argon2";
const hasCli = await Deno.stat(argon2).then(() => true, () => false);

Deno.bench({
  name: "argon2 command (Debian, reference C), m=65536 t=3 p=1",
  group: "key-check",
  baseline: true,
  ignore: !hasCli,
  n: 12,
  warmup: 2,
  async fn() {
    const child = await spawnWithInput(
      new Deno.Command(argon2, {
        args: [
          "somesaltsomesalt",
          "-id",
          "-t",
          "3",
          "-k",
          "65536",
          "-p",
          "1",
          "-l",
          "32",
          "-r",
        ],
        stdin: "piped",
        stdout: "piped",
      }),
      KEY,
    );
    const { code } = await child.output();
    if (code !== 0) throw new Error("argon2 failed");
  },
});

Deno.bench({
  name: "verifyKey (hash-wasm in a worker), m=65536 t=3 p=1",
  group: "key-check",
  n: 12,
  warmup: 2,
  async fn() {
    if (!await verifyKey(KEY, phc)) throw new Error("the key should match");
  },
});

// An unknown id against a known id with a wrong secret, through the auth
// route, when EDITOR_KEY_HASH costs more than the editors' hashes (the
// site key at the defaults, the editor at OWASP's m = 19 MiB, t = 2): the
// ratio is the timing a guess of ids could read. Every login computes one
// hash of each cost, so it stays about 1.00x.
const kv = await Deno.openKv(":memory:");
const env = {
  RATE_LIMIT: kv,
  EDITOR_LOG: () => {},
  EDITOR_KEY_HASH: await hashKey("the plain site key"),
  EDITOR_KEYS: JSON.stringify({
    alice: {
      hash: await hashKey("alice.secret", {
        memory: 19_456,
        iterations: 2,
        parallelism: 1,
      }),
      name: "Alice",
      email: "alice@example.com",
    },
  }),
};
const router = createRouter({ locales: ["en"] });
let client = 0;
let verified = verificationCount();
async function refused(key: string): Promise<void> {
  client++;
  const body = JSON.stringify({ key });
  const response = await router.handle(
    new Request("http://localhost/api/auth", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-length": String(new TextEncoder().encode(body).byteLength),
      },
      body,
    }),
    env,
    { remoteAddr: { hostname: `10.9.${client >> 8}.${client & 255}` } },
  );
  await response.body?.cancel();
  if (response.status !== 401) throw new Error(`${response.status}`);
  if (verificationCount() !== ++verified) throw new Error("no key check");
}

Deno.bench({
  name: "login, a known id with a wrong secret (its hash m=19456 t=2)",
  group: "unknown-id",
  baseline: true,
  n: 8,
  warmup: 1,
  async fn() {
    await refused("alice.wrong-secret-xx");
  },
});

Deno.bench({
  name: "login, an unknown id (EDITOR_KEY_HASH m=65536 t=3)",
  group: "unknown-id",
  n: 8,
  warmup: 1,
  async fn() {
    await refused("mallory.guessed-xxxxx");
  },
});
