/**
 * The key check at the default parameters (m = 65536 KiB, t = 3, p = 1):
 * the package's verifier against Debian's reference `argon2` command at the
 * same parameters, on the same machine, in the same run.
 *
 * Run: deno bench -A bench/key_check_bench.ts
 */

import { hashKey, verifyKey } from "../lib/access/site_key.ts";
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
