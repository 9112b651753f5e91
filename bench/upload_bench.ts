/**
 * Server time for a 20 MB upload through `router.handle()`: the streamed
 * multipart read, the format and header checks (every PNG chunk's CRC), the
 * content hash, the name, and the write to a local checkout, as a ratio to a
 * SHA-256 of the same bytes in the same run. Three figures: the route's own
 * work with storage excluded, then with the write to a local checkout, with
 * and without the git commit (git runs in its own process; its time counts).
 *
 * Run: deno bench -A bench/upload_bench.ts
 */

import { createRouter } from "../mod.ts";
import { sha256Hex, useNativeDigest } from "../lib/digest.ts";
import { openLocalCheckout } from "../lib/repository/local/mod.ts";
import { pngOfSize } from "../tests/support/image_fixtures.ts";
import { login } from "../tests/support/helpers.ts";

// The baseline hashes as the route does: node:crypto, loaded by an upload.
await useNativeDigest();
const SIZE = 20_000_000;
const file = pngOfSize(SIZE);
const form = new FormData();
form.append("file", new Blob([file], { type: "image/png" }), "photo.png");
form.append("name", "Big photo");
const encoded = new Response(form);
const type = encoded.headers.get("content-type") ?? "";
const body = new Uint8Array(await encoded.arrayBuffer());

const kv = await Deno.openKv(":memory:");
const router = createRouter({ locales: ["en"] });
const key = "bench key";
const { hashKey } = await import("../lib/access/site_key.ts");
const keyHash = await hashKey(key, {
  memory: 64,
  iterations: 1,
  parallelism: 1,
});
const baseEnv = {
  RATE_LIMIT: kv,
  EDITOR_KEY_HASH: keyHash,
  EDITOR_LOG: () => {},
};
const cookie = await login(router.handle, baseEnv, key);
let client = 0;

async function folder(git: boolean): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "editor-upload-bench-" });
  if (git) {
    for (
      const args of [["init", "-q"], ["config", "user.email", "b@localhost"], [
        "config",
        "user.name",
        "Bench",
      ]]
    ) {
      await new Deno.Command("git", { args: ["-C", root, ...args] }).output();
    }
  }
  return root;
}

function request(): Request {
  return new Request("http://127.0.0.1/api/upload", {
    method: "POST",
    headers: {
      "content-type": type,
      "content-length": String(body.byteLength),
      cookie,
    },
    body: new Blob([body]).stream(),
  });
}

Deno.bench({
  name: "SHA-256 of the 20 MB file (node:crypto, as uploads hash)",
  group: "upload-20mb",
  baseline: true,
  n: 20,
  fn() {
    sha256Hex(file);
  },
});

Deno.bench({
  name:
    "router.handle upload, storage excluded (a repository that keeps nothing)",
  group: "upload-20mb",
  n: 20,
  async fn(b) {
    const env = {
      ...baseEnv,
      REPOSITORY: {
        read: () => Promise.resolve(null),
        write: () => Promise.resolve("0".repeat(40)),
      },
    };
    const incoming = request();
    b.start();
    const response = await router.handle(incoming, env, {
      remoteAddr: { hostname: `10.8.${client >> 8}.${client++ & 255}` },
    });
    b.end();
    if (response.status !== 200) throw new Error(`status ${response.status}`);
    await response.body?.cancel();
  },
});

for (const git of [false, true]) {
  Deno.bench({
    name: git
      ? "router.handle upload, write + git commit"
      : "router.handle upload, write without commit",
    group: "upload-20mb",
    n: 20,
    async fn(b) {
      const root = await folder(git);
      const env = {
        ...baseEnv,
        REPOSITORY: await openLocalCheckout({ root, commit: git }),
      };
      const incoming = request();
      b.start();
      const response = await router.handle(incoming, env, {
        remoteAddr: { hostname: `10.9.${client >> 8}.${client++ & 255}` },
      });
      b.end();
      if (response.status !== 200) {
        throw new Error(`status ${response.status}: ${await response.text()}`);
      }
      await response.body?.cancel();
      await Deno.remove(root, { recursive: true });
    },
  });
}
