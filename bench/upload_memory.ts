/**
 * Peak memory growth of a real `editor serve` process during one 20 MB
 * upload sent by curl over loopback, as a multiple of the file size. The
 * server's peak resident size (VmHWM in /proc) is read after a warm-up
 * upload and again after the 20 MB one. Linux only.
 *
 * Run: deno run -A bench/upload_memory.ts
 */

import { join } from "node:path";
import { serveCheckout } from "../tests/support/cli.ts";
import { commitInitial, gitIn } from "../tests/support/git.ts";
import { fastHash } from "../tests/support/helpers.ts";
import { pngOfSize } from "../tests/support/image_fixtures.ts";

const SIZE = 20_000_000;
const work = await Deno.makeTempDir({ prefix: "editor-upload-memory-" });
const site = join(work, "site");
await Deno.mkdir(join(site, "src/content/pages/en"), { recursive: true });
await Deno.writeTextFile(join(site, "src/content/pages/en/home.json"), "{}\n");
await commitInitial(gitIn(site), "Bench", "b@localhost");
await Deno.writeFile(join(work, "big.png"), pngOfSize(SIZE));
await Deno.writeFile(join(work, "small.png"), pngOfSize(64_000));
const key = "memory key";
// The log lines are drained; only the first kilobytes are kept.
const server = await serveCheckout(site, {
  kv: join(work, "kv.sqlite3"),
  env: { EDITOR_KEY_HASH: await fastHash(key) },
}, 10_000);
const { url } = server;

const peakKiB = async () => {
  const status = await Deno.readTextFile(`/proc/${server.pid}/status`);
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]);
};
const curl = async (file: string, name: string, cookieJar: string) => {
  const { stdout, success } = await new Deno.Command("curl", {
    args: [
      "-s",
      "-b",
      cookieJar,
      "-F",
      `file=@${file};type=image/png`,
      "-F",
      `name=${name}`,
      `${url}api/upload`,
    ],
    stdout: "piped",
  }).output();
  if (!success) throw new Error("curl failed");
  return new TextDecoder().decode(stdout);
};

const jar = join(work, "cookies");
await new Deno.Command("curl", {
  args: [
    "-s",
    "-c",
    jar,
    "-H",
    "content-type: application/json",
    "-d",
    JSON.stringify({ key }),
    `${url}api/auth`,
  ],
  stdout: "null",
}).output();
for (let i = 0; i < 3; i++) {
  console.log(
    "warm-up:",
    await curl(join(work, "small.png"), `warm ${i}`, jar),
  );
}
const before = await peakKiB();
const started = performance.now();
console.log("upload:", await curl(join(work, "big.png"), "big", jar));
const elapsed = performance.now() - started;
const after = await peakKiB();
await server.stop();
await Deno.remove(work, { recursive: true });
const growth = (after - before) * 1024;
console.log(
  `editor serve peak RSS: ${before} KiB before, ${after} KiB after a ${
    SIZE.toLocaleString("en")
  }-byte upload (${Math.round(elapsed)} ms over loopback, with git commit)`,
);
console.log(
  `peak growth: ${(growth / SIZE).toFixed(2)}x the file size (aim: at most 2x)`,
);
