/**
 * Peak memory growth of a real `editor serve` process during one 20 MB
 * upload sent by curl over loopback, as a multiple of the file size. The
 * server's peak resident size (VmHWM in /proc) is read after a warm-up
 * upload and again after the 20 MB one. Linux only.
 *
 * Run: deno run -A bench/upload_memory.ts
 */

import { join } from "node:path";
import { hashKey } from "../lib/access/site_key.ts";
import { pngOfSize } from "../tests/support/image_fixtures.ts";

const SIZE = 20_000_000;
const work = await Deno.makeTempDir({ prefix: "editor-upload-memory-" });
const site = join(work, "site");
await Deno.mkdir(join(site, "src/content/pages/en"), { recursive: true });
await Deno.writeTextFile(join(site, "src/content/pages/en/home.json"), "{}\n");
for (
  const args of [
    ["init", "-q"],
    ["config", "user.email", "b@localhost"],
    ["config", "user.name", "Bench"],
    ["add", "-A"],
    ["commit", "-qm", "Site"],
  ]
) {
  await new Deno.Command("git", { args: ["-C", site, ...args] }).output();
}
await Deno.writeFile(join(work, "big.png"), pngOfSize(SIZE));
await Deno.writeFile(join(work, "small.png"), pngOfSize(64_000));
const key = "memory key";
const server = new Deno.Command(Deno.execPath(), {
  args: [
    "run",
    "-A",
    "--quiet",
    new URL("../cli.ts", import.meta.url).pathname,
    "serve",
    "--repo",
    site,
    "--port",
    "0",
    "--kv",
    join(work, "kv.sqlite3"),
  ],
  env: {
    EDITOR_KEY_HASH: await hashKey(key, {
      memory: 64,
      iterations: 1,
      parallelism: 1,
    }),
  },
  stdout: "piped",
  stderr: "inherit",
}).spawn();
const reader = server.stdout.pipeThrough(new TextDecoderStream()).getReader();
let output = "";
while (!/listening on (\S+)/.test(output)) {
  const { value, done } = await reader.read();
  if (done) throw new Error("editor serve did not start");
  output += value;
}
const url = /listening on (\S+)/.exec(output)?.[1] ?? "";
void (async () => {
  while (!(await reader.read()).done) { /* drain the log lines */ }
})();

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
server.kill("SIGTERM");
await server.status;
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
