/**
 * The load run: real `editor serve` processes on loopback under load from
 * many loopback client addresses (127.0.x.y, one rate window each), bounded
 * in count and in time (under 90 seconds in all). It prints a report and
 * keeps it in `bench/results/load.md`, and exits with 1 when a check fails.
 *
 * 1. Mixed load on two `editor serve` processes sharing one KV file and one
 *    checkout: editors read, publish with the right and a stale version and
 *    upload, while other clients send wrong keys, no or forged sessions and
 *    oversized bodies. Checks: no 5xx, no hung request, every 409 a real
 *    conflict, every accepted publish in git and each page's file equal to
 *    its last accepted version, a clean work tree; rate budgets and sessions
 *    hold across both processes.
 * 2. Flood fairness: one editor's reads and publishes on a quiet server, then
 *    while 50 addresses flood `/api/auth` and `/api/content` over budget.
 * 3. Memory: 8 concurrent 20 MB uploads and 2 key checks (argon2id with its
 *    default 64 MiB), peak resident growth of the server process.
 *
 * The load and flood phases use a key hash with a 64 KiB cost, so that the
 * floods' first attempts (5 per address) do not spend the run in argon2; the
 * memory phase uses the default cost. Linux only (`/proc`).
 *
 * Run: deno task load
 *
 * @module
 */

import { join } from "node:path";
import { hashKey } from "../mod.ts";
import { REFUSED_AGAIN_DELAY_MS } from "../lib/limits.ts";
import type { FloodOrder, FloodReport } from "./load_flood.ts";
import {
  blobSha,
  closeConnections,
  cookieOf,
  makeSite,
  percentile,
  pngOfSize,
  processCpuMs,
  type Reply,
  type Send,
  send,
  type Server,
  startServer,
  uploadBody,
} from "./load_support.ts";

const started = performance.now();
const KEY = "load key";
const MIXED_MS = 14_000;
const PAGES = ["p0", "p1", "p2", "p3", "p4"];
const MIB = 1024 * 1024;

interface Sample {
  phase: string;
  route: string;
  status: number;
  ms: number;
  hung: boolean;
}

interface Publish {
  page: string;
  sent: string;
  status: number;
  version: string | undefined;
  content: string;
  start: number;
  end: number;
}

const samples: Sample[] = [];
const publishes: Publish[] = [];
const failures: string[] = [];
const lines: string[] = [];

function check(ok: boolean, what: string): void {
  if (!ok) failures.push(what);
}

async function request(
  phase: string,
  route: string,
  options: Send,
): Promise<Reply> {
  const reply = await send(options);
  samples.push({
    phase,
    route,
    status: reply.status,
    ms: reply.ms,
    hung: reply.hung,
  });
  return reply;
}

function pagePath(page: string): string {
  return `src/content/pages/en/${page}.json`;
}

function written(page: unknown): string {
  return JSON.stringify(page, null, 2) + "\n";
}

async function login(
  phase: string,
  server: Server,
  from: string,
  key = KEY,
): Promise<Reply> {
  return await sendJson(phase, server, "api/auth", from, { key });
}

/** Sends a JSON body to a route, with more headers if given. */
function sendJson(
  phase: string,
  server: Server,
  path: string,
  from: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return request(phase, `POST /${path}`, {
    url: server.url,
    method: "POST",
    path,
    from,
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

function read(
  phase: string,
  server: Server,
  from: string,
  cookie: string,
  page: string,
) {
  return request(phase, "GET /api/content", {
    url: server.url,
    method: "GET",
    path: `api/content?path=${pagePath(page)}`,
    from,
    headers: { cookie },
  });
}

async function publish(
  phase: string,
  server: Server,
  from: string,
  cookie: string,
  page: string,
  content: unknown,
  version: string,
): Promise<Reply> {
  const text = JSON.stringify(content);
  const start = performance.now();
  const reply = await sendJson(phase, server, "api/save", from, {
    path: pagePath(page),
    content: text,
    version,
  }, { cookie });
  publishes.push({
    page,
    sent: version,
    status: reply.status,
    version: reply.status === 200
      ? (JSON.parse(reply.text) as { version: string }).version
      : undefined,
    content: written(content),
    start,
    end: performance.now(),
  });
  return reply;
}

function upload(
  phase: string,
  server: Server,
  from: string,
  cookie: string,
  file: Uint8Array,
  name: string,
) {
  const { body, type } = uploadBody(file, name);
  return request(phase, "POST /api/upload", {
    url: server.url,
    method: "POST",
    path: "api/upload",
    from,
    headers: { "content-type": type, cookie },
    body,
    timeoutMs: 30_000,
  });
}

const mb = (bytes: number) => (bytes / MIB).toFixed(1);

// ---------------------------------------------------------------- setup
const work = await Deno.makeTempDir({ prefix: "editor-load-run-" });
const initialPages = Object.fromEntries(
  PAGES.map((name) => [name, { title: `Page ${name}`, sections: [] }]),
);
const site = await makeSite(initialPages);
const initialVersions = new Map<string, string>();
for (const [name, page] of Object.entries(initialPages)) {
  initialVersions.set(
    name,
    await blobSha(new TextEncoder().encode(written(page))),
  );
}
const fastHash = await hashKey(KEY, {
  memory: 64,
  iterations: 1,
  parallelism: 1,
});
const kvFile = join(work, "kv.sqlite3");
const serveArgs = ["--repo", site.root, "--port", "0", "--kv", kvFile];
const a = await startServer(serveArgs, { EDITOR_KEY_HASH: fastHash });
const b = await startServer(serveArgs, { EDITOR_KEY_HASH: fastHash });
const memoryAtStart = [await a.memory(), await b.memory()];

// ------------------------------------------- phase 1: mixed, two processes
const mixedStarted = performance.now();
const mixedDeadline = mixedStarted + MIXED_MS;
const servers = [a, b];
const pick = () => servers[Math.floor(Math.random() * 2)] as Server;

async function editor(id: number, cookie: string): Promise<void> {
  const from = `127.0.1.${id}`;
  for (let n = 0; n < 28 && performance.now() < mixedDeadline; n++) {
    const page = PAGES[Math.floor(Math.random() * PAGES.length)] as string;
    const got = await read("mixed", pick(), from, cookie, page);
    if (got.status === 200) {
      const { version } = JSON.parse(got.text) as { version: string };
      await publish("mixed", pick(), from, cookie, page, {
        title: `Edited by ${id}, round ${n}`,
        sections: [{ id: `s${n}`, body: `Round <strong>${n}</strong>` }],
      }, version);
    }
    if (n % 3 === 2) {
      await publish("mixed", pick(), from, cookie, page, {
        title: "Late",
      }, initialVersions.get(page) as string);
    }
    if (n % 4 === 3) {
      await upload(
        "mixed",
        pick(),
        from,
        cookie,
        pngOfSize(64_000 + id * 100 + n),
        `photo ${id} ${n}`,
      );
    }
  }
}

async function stranger(id: number): Promise<void> {
  const from = `127.0.2.${id}`;
  for (let n = 0; performance.now() < mixedDeadline; n++) {
    const server = pick();
    switch (n % 5) {
      case 0:
        await login("mixed", server, from, `wrong ${n}`);
        break;
      case 1:
        await request("mixed", "GET /api/content", {
          url: server.url,
          method: "GET",
          path: `api/content?path=${pagePath("p0")}`,
          from,
          headers: { cookie: `editor_session=${"F".repeat(43)}` },
        });
        break;
      case 2:
        await sendJson("mixed", server, "api/save", from, {
          path: pagePath("p0"),
          content: "x".repeat(130_000),
          version: "",
        });
        break;
      case 3:
        await login("mixed", server, from, "k".repeat(2_100));
        break;
      default:
        await request("mixed", "GET /api/content", {
          url: server.url,
          method: "GET",
          path: `api/content?path=${pagePath("p1")}`,
          from,
        });
    }
  }
}

/** The cookie of a login that must have succeeded, checked. */
function sessionOf(login: Reply, who: string): string {
  check(
    login.status === 200,
    `${who}'s login answered ${login.status} ${login.text}`,
  );
  return cookieOf(login);
}

async function oversizedUpload(): Promise<void> {
  const from = "127.0.2.200";
  const cookie = sessionOf(uploaderLogin, "the uploader");
  const big = await upload(
    "mixed",
    b,
    from,
    cookie,
    pngOfSize(20_000_001),
    "too big",
  );
  check(big.status === 413, `a 20,000,001-byte upload got ${big.status}`);
}

/** One address, both processes: the content budget (60) holds across them. */
async function budgetProbe(): Promise<string> {
  const from = "127.0.3.1";
  const cookie = sessionOf(probeLogin, "the probe");
  const counts = new Map<number, number>();
  for (let n = 0; n < 70; n++) {
    const reply = await read("mixed", n % 2 ? b : a, from, cookie, "p4");
    counts.set(reply.status, (counts.get(reply.status) ?? 0) + 1);
  }
  check(
    counts.get(200) === 60 && counts.get(429) === 10,
    `the content budget across two processes gave ${
      JSON.stringify(Object.fromEntries(counts))
    }, expected 60 × 200 and 10 × 429`,
  );
  // A session opened on A works on B; ended on B, it is refused on A.
  const other = "127.0.3.2";
  const session = cookieOf(sessionLogin);
  const onB = await read("mixed", b, other, session, "p4");
  check(onB.status === 200, `a session from A answered ${onB.status} on B`);
  await request("mixed", "DELETE /api/auth", {
    url: b.url,
    method: "DELETE",
    path: "api/auth",
    from: other,
    headers: { cookie: session },
  });
  const afterLogout = await read("mixed", a, other, session, "p4");
  check(
    afterLogout.status === 401,
    `a session ended on B answered ${afterLogout.status} on A`,
  );
  return `content budget of one address across both processes: ${
    JSON.stringify(Object.fromEntries(counts))
  }; a session opened on A read on B: ${onB.status}; ended on B, read on A: ${afterLogout.status}`;
}

// Editors are signed in before the load starts, as they would be (a session
// lasts 8 hours): a burst of logins beyond the 2 running and 8 waiting key
// checks of a process is answered 429 by design.
const editorCookies = await Promise.all(
  Array.from({ length: 6 }, async (_, i) => {
    const reply = await login(
      "mixed",
      servers[i % 2] as Server,
      `127.0.1.${i + 1}`,
    );
    check(
      reply.status === 200,
      `editor ${i + 1} could not log in: ${reply.status}`,
    );
    return cookieOf(reply);
  }),
);
const probeLogin = await login("mixed", a, "127.0.3.1");
const uploaderLogin = await login("mixed", a, "127.0.2.200");
const sessionLogin = await login("mixed", a, "127.0.3.2");
const [, , probe] = await Promise.all([
  Promise.all(editorCookies.map((cookie, i) => editor(i + 1, cookie))),
  Promise.all(Array.from({ length: 20 }, (_, i) => stranger(i + 1))),
  budgetProbe(),
  oversizedUpload(),
]);
const mixedMs = performance.now() - mixedStarted;
const memoryAfterMixed = [await a.memory(), await b.memory()];
await b.stop();

// Every 409 is a real conflict: the version sent was taken by an accepted
// publish that started before this one ended.
const accepted = publishes.filter((p) => p.status === 200);
let conflicts = 0;
for (const p of publishes.filter((p) => p.status === 409)) {
  conflicts++;
  const taker = accepted.find((other) =>
    other.page === p.page && other.sent === p.sent && other.start < p.end
  );
  check(taker !== undefined, `a 409 on ${p.page} for a current version`);
}
// Every accepted publish is in git; each page's file is its last version.
const gitLines: string[] = [];
for (const page of PAGES) {
  const mine = accepted.filter((p) => p.page === page);
  const next = new Map(mine.map((p) => [p.sent, p]));
  check(
    next.size === mine.length,
    `two publishes of ${page} accepted on one version`,
  );
  let head = initialVersions.get(page) as string;
  let last: Publish | undefined;
  let chain = 0;
  for (let step = next.get(head); step; step = next.get(head)) {
    last = step;
    head = step.version as string;
    chain++;
  }
  check(
    chain === mine.length,
    `${page}: ${mine.length - chain} accepted publishes off the chain`,
  );
  const history = await site.git(
    "log",
    "--format=",
    "--raw",
    "--no-abbrev",
    "--",
    pagePath(page),
  );
  const blobs = new Set(
    history.split("\n").map((line) => line.split(/\s+/)[3]).filter(Boolean),
  );
  const missing = mine.filter((p) => !blobs.has(p.version as string)).length;
  check(missing === 0, `${page}: ${missing} accepted publishes not in git`);
  const file = await Deno.readFile(join(site.root, pagePath(page)));
  check(
    await blobSha(file) === head,
    `${page}: the file is not its last accepted version`,
  );
  if (last) {
    check(
      new TextDecoder().decode(file) === last.content,
      `${page}: the file differs from the last accepted content`,
    );
  }
  gitLines.push(`${page}: ${mine.length} accepted, ${blobs.size - 1} commits`);
}
const dirty = (await site.git("status", "--porcelain")).trim();
check(dirty === "", `work tree not clean: ${dirty.slice(0, 200)}`);

// ------------------------------------------------ phase 2: flood fairness
async function editorRound(
  phase: string,
  from: string,
  cookie: string,
  times = { read: [] as number[], save: [] as number[] },
) {
  for (let n = 0; n < ROUND; n++) {
    const other = await read(phase, a, from, cookie, "p3");
    check(other.status === 200, `${phase}: editor read ${other.status}`);
    times.read.push(other.ms);
    const got = await read(phase, a, from, cookie, "p2");
    check(got.status === 200, `${phase}: editor read ${got.status}`);
    times.read.push(got.ms);
    const { version } = JSON.parse(got.text || "{}") as { version?: string };
    const saved = await publish(phase, a, from, cookie, "p2", {
      title: `${phase} ${n}`,
    }, version ?? "");
    check(saved.status === 200, `${phase}: editor publish ${saved.status}`);
    times.save.push(saved.ms);
  }
  return times;
}

// Quiet rounds alternate with flooded ones, a closed flood and an open one
// BLOCKS times each, so that all see the same shared machine; each round
// reads twice and publishes once, ROUND times.
const ROUND = 25;
const BLOCKS = 3;
/** Each flooding address sends this often in the open flood (2,500/s). */
const OPEN_EVERY_MS = 20;
// One address per round, each signed in beforehand: a round's 50 reads
// and 25 publishes stay within one address's budgets (60 and 30).
const editors: { from: string; cookie: string }[] = [];
for (let i = 0; i < 4 * BLOCKS; i++) {
  const from = `127.0.4.${i + 1}`;
  editors.push({ from, cookie: cookieOf(await login("quiet", a, from)) });
}
const editorRoundOf = (
  index: number,
  phase: string,
  times: { read: number[]; save: number[] },
) => editorRound(phase, editors[index]!.from, editors[index]!.cookie, times);
const quiet = await editorRoundOf(0, "quiet", {
  read: [] as number[],
  save: [] as number[],
});
// The flood's own sessions, opened one by one (a burst of 50 logins would
// find the key checks busy).
const floodCookies: string[] = [];
for (let i = 0; i < 50; i++) {
  const reply = await login("flood", a, `127.0.5.${i + 1}`);
  check(reply.status === 200, `flood login ${i + 1} answered ${reply.status}`);
  floodCookies.push(cookieOf(reply));
}
const worker = new Worker(new URL("./load_flood.ts", import.meta.url), {
  type: "module",
});
const workerSays = () =>
  new Promise<unknown>((resolve) => {
    worker.onmessage = (event) => resolve(event.data);
  });
const floodBegun = workerSays();
worker.postMessage(
  {
    url: a.url,
    clients: floodCookies.map((cookie, i) => ({
      from: `127.0.5.${i + 1}`,
      cookie,
    })),
    page: pagePath("p1"),
    openEveryMs: OPEN_EVERY_MS,
  } satisfies FloodOrder,
);
await floodBegun;
const loadBefore = (await Deno.readTextFile("/proc/loadavg")).split(" ")[0];
const ways = ["closed", "open"] as const;
const floods = {
  closed: { read: [] as number[], save: [] as number[] },
  open: { read: [] as number[], save: [] as number[] },
};
const floodCpu = {
  closed: { server: 0, bench: 0, wall: 0 },
  open: { server: 0, bench: 0, wall: 0 },
};
let round = 1;
for (let block = 0; block < BLOCKS; block++) {
  for (const way of ways) {
    // The flood begins closed; every other flooded round follows a quiet one.
    if (block > 0 || way === "open") {
      await editorRoundOf(round++, "quiet", quiet);
      worker.postMessage({ resume: way });
    }
    const serverCpuBefore = await processCpuMs(a.pid);
    const benchCpuBefore = await processCpuMs(Deno.pid);
    const blockStarted = performance.now();
    await editorRoundOf(round++, `during ${way} flood`, floods[way]);
    floodCpu[way].wall += performance.now() - blockStarted;
    floodCpu[way].server += (await processCpuMs(a.pid)) - serverCpuBefore;
    floodCpu[way].bench += (await processCpuMs(Deno.pid)) - benchCpuBefore;
    if (block < BLOCKS - 1 || way === "closed") {
      const paused = workerSays();
      worker.postMessage("pause");
      check(await paused === "paused", "the flood did not pause");
    }
  }
}
const floodEnded = workerSays();
worker.postMessage("stop");
const floodReport = await floodEnded as FloodReport;
const loadAfter = (await Deno.readTextFile("/proc/loadavg")).split(" ")[0];
worker.terminate();
for (const [status, count] of Object.entries(floodReport.statuses)) {
  check(
    Number(status) !== 0 && Number(status) < 500,
    `${count} flood requests answered ${status}`,
  );
}

// ---------------------------------------------------------- phase 3: memory
await a.stop();
const memoryServer = await startServer(
  ["--repo", site.root, "--port", "0", "--kv", join(work, "memory.sqlite3")],
  { EDITOR_KEY_HASH: await hashKey(KEY) },
);
const memoryCookie = cookieOf(await login("memory", memoryServer, "127.0.6.1"));
await upload(
  "memory",
  memoryServer,
  "127.0.6.1",
  memoryCookie,
  pngOfSize(64_000),
  "warm",
);
const files = Array.from({ length: 8 }, () => pngOfSize(20_000_000));
const baseline = await memoryServer.memory();
let peakSeen = baseline.rss;
let polling = true;
const poller = (async () => {
  while (polling) {
    peakSeen = Math.max(peakSeen, (await memoryServer.memory()).rss);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
})();
const memoryReplies = await Promise.all([
  ...files.map((file, i) =>
    upload(
      "memory",
      memoryServer,
      `127.0.6.${10 + i}`,
      memoryCookie,
      file,
      `big ${i}`,
    )
  ),
  login("memory", memoryServer, "127.0.6.30"),
  login("memory", memoryServer, "127.0.6.31", "a wrong key"),
]);
polling = false;
await poller;
const afterMemory = await memoryServer.memory();
check(
  memoryReplies.slice(0, 8).every((r) => r.status === 200),
  `big uploads answered ${memoryReplies.slice(0, 8).map((r) => r.status)}`,
);
check(
  memoryReplies[8]?.status === 200 && memoryReplies[9]?.status === 401,
  `key checks answered ${memoryReplies[8]?.status} and ${
    memoryReplies[9]?.status
  }`,
);
const growth = Math.max(peakSeen, afterMemory.peak) - baseline.rss;
const budget = 8 * 20_000_000 + 2 * 64 * MIB;
await memoryServer.stop();
closeConnections();
await site.remove();
await Deno.remove(work, { recursive: true });

// ---------------------------------------------------------------- report
const total = performance.now() - started;
check(total < 90_000, `the run took ${(total / 1000).toFixed(1)} s, over 90 s`);
const fiveHundreds = samples.filter((s) => s.status >= 500).length;
const hung = samples.filter((s) => s.hung || s.status === 0).length;
check(fiveHundreds === 0, `${fiveHundreds} answers were 5xx`);
check(hung === 0, `${hung} requests hung or failed`);

const mixed = samples.filter((s) => s.phase === "mixed");
lines.push(
  "# Load run",
  "",
  `\`deno task load\` on ${new Date().toISOString().slice(0, 10)}, ${
    (total / 1000).toFixed(1)
  } s in all, ${samples.length} requests. Loopback only; each client sends from its own 127.0.x.y address.`,
  "",
  `## Mixed load, two \`editor serve\` processes on one KV file and one checkout`,
  "",
  `${mixed.length} requests in ${(mixedMs / 1000).toFixed(1)} s: ${
    (mixed.length / (mixedMs / 1000)).toFixed(0)
  } requests per second, from 6 editors, 20 strangers (wrong keys, forged or no session, bodies over their caps), one oversized upload and one budget probe.`,
  "",
  "| Route | Requests | p50 ms | p99 ms | Statuses |",
  "| --- | --- | --- | --- | --- |",
);
for (const route of [...new Set(mixed.map((s) => s.route))].sort()) {
  const of = mixed.filter((s) => s.route === route);
  const statuses = new Map<number, number>();
  for (const s of of) statuses.set(s.status, (statuses.get(s.status) ?? 0) + 1);
  lines.push(
    `| ${route} | ${of.length} | ${
      percentile(of.map((s) => s.ms), 50).toFixed(1)
    } | ${percentile(of.map((s) => s.ms), 99).toFixed(1)} | ${
      [...statuses].sort((x, y) => x[0] - y[0]).map(([k, v]) => `${k}: ${v}`)
        .join(", ")
    } |`,
  );
}
lines.push(
  "",
  `- 5xx: ${fiveHundreds}; hung or failed: ${hung} (a request counts as hung after 20 s)`,
  `- 409 answers: ${conflicts}, each a real conflict (its version had been taken by an accepted publish begun before it ended)`,
  `- accepted publishes: ${accepted.length}; ${
    gitLines.join("; ")
  }; every one in git, each file equal to its last accepted version, work tree clean`,
  `- ${probe}`,
  `- server memory (resident), start → end of the mixed load: A ${
    mb(memoryAtStart[0]?.rss ?? 0)
  } → ${mb(memoryAfterMixed[0]?.rss ?? 0)} MiB, B ${
    mb(memoryAtStart[1]?.rss ?? 0)
  } → ${mb(memoryAfterMixed[1]?.rss ?? 0)} MiB`,
  "",
  "## Flood fairness",
  "",
  `One editor reads twice and publishes once, ${ROUND} times a round (each round from an address of its own), in quiet rounds alternating with rounds during which 50 other addresses flood \`/api/auth\` (wrong keys) and \`/api/content\` (their own sessions) over budget, ${BLOCKS} times each way: a closed flood (each address sends its next request when its answer comes) and an open one (each address sends every ${OPEN_EVERY_MS} ms, whether or not its answers came). The flood is sent from a worker thread and paused, with no request in flight, during the quiet rounds. A client already told 429 gets its next 429s after ${REFUSED_AGAIN_DELAY_MS} ms on average.`,
  "",
  "| Editor's requests | Flood | Flood requests | p50 quiet ms | p99 quiet ms | p50 during flood ms | p99 during flood ms | p99 ratio |",
  "| --- | --- | --- | --- | --- | --- | --- | --- |",
);
for (const way of ways) {
  for (const kind of ["read", "save"] as const) {
    const q99 = percentile(quiet[kind], 99);
    const f99 = percentile(floods[way][kind], 99);
    lines.push(
      `| ${kind === "read" ? "GET /api/content" : "POST /api/save"} (${
        floods[way][kind].length
      }) | ${way}, ${(floodCpu[way].wall / 1000).toFixed(1)} s | ${
        floodReport.sent[way]
      } | ${percentile(quiet[kind], 50).toFixed(1)} | ${q99.toFixed(1)} | ${
        percentile(floods[way][kind], 50).toFixed(1)
      } | ${f99.toFixed(1)} | ${(f99 / q99).toFixed(2)}× |`,
    );
  }
}
lines.push(
  "",
  `Flood statuses: ${
    Object.entries(floodReport.statuses).map(([k, v]) => `${k}: ${v}`)
      .join(", ")
  }. Aim: at most 3×. CPU during the flooded rounds: the server ${
    ways.map((way) =>
      `${(floodCpu[way].server / floodCpu[way].wall * 100).toFixed(0)}%`
    ).join(" (closed) and ")
  } (open) of a core, the load generator ${
    ways.map((way) =>
      `${(floodCpu[way].bench / floodCpu[way].wall * 100).toFixed(0)}%`
    ).join(" and ")
  } (2 cores in all, shared: load average ${loadBefore} before the flood, ${loadAfter} after).`,
  "",
  "## Memory",
  "",
  `8 concurrent uploads of 20,000,000 bytes and 2 key checks (argon2id, m = 64 MiB) on a fresh \`editor serve\`: resident ${
    mb(baseline.rss)
  } MiB after a warm-up, peak ${
    mb(Math.max(peakSeen, afterMemory.peak))
  } MiB; growth ${mb(growth)} MiB against 8 × 20 MB + 2 × 64 MiB = ${
    mb(budget)
  } MiB: **${(growth / budget).toFixed(2)}×** (aim: at most 1.3×).`,
  "",
  failures.length === 0
    ? "All checks passed."
    : `## Failed checks\n\n${failures.map((f) => `- ${f}`).join("\n")}`,
  "",
);
const report = lines.join("\n");
console.log(report);
await Deno.mkdir(new URL("./results/", import.meta.url), { recursive: true });
await Deno.writeTextFile(new URL("./results/load.md", import.meta.url), report);
if (failures.length > 0) Deno.exit(1);
