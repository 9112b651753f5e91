/**
 * The overlay's delivery in Chromium over emulated Fast 3G (DevTools'
 * preset: 562.5 ms latency, 180,000 B/s down, 84,375 B/s up), on the demo
 * (`examples/site/demo.ts`), every figure against a baseline of the same
 * run:
 *
 * - the overlay's bytes on the wire (CDP `encodedDataLength` of every
 *   `/_inpage/` response, headers included) for a first page view with
 *   `?edit` and for a second one, against the page's own bytes;
 * - the time from the navigation to `?edit` until the overlay is ready
 *   (its bar says "No unsaved changes"), against the same page's own load
 *   (`loadEventEnd`) for a visitor, each with an empty cache;
 * - the time from the Publish click to "Published" (no throttling), against
 *   the same save sent to `/api/save` directly;
 * - the gzipped size of the parts every editor loads and of the lazy parts.
 *
 * `npx --yes deno@2.9.6 run -A bench/overlay_delivery.ts [--before DIR]`:
 * with `--before`, a copy of the package as it was (for example
 * `git archive 10d1b2e | tar -x -C DIR`) is measured too, alternating.
 *
 * @module
 */

import { join } from "node:path";
import { chromium, type Page } from "playwright-core";
import { CHROMIUM, FLAGS } from "../tests/support/chromium.ts";
import { cookieFrom } from "../tests/support/helpers.ts";

/** The little of the browser's DOM the page scripts below use. */
declare const document: {
  querySelector(selector: string): {
    shadowRoot: {
      querySelector(selector: string): { textContent: string | null } | null;
    } | null;
  } | null;
};

const RUNS = Number(Deno.env.get("RUNS") ?? 5);
const FAST_3G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: 180_000,
  uploadThroughput: 84_375,
};

interface Demo extends AsyncDisposable {
  url: string;
  cookie: string;
  root: string;
}

/** Starts the demo of a checkout on a free port and logs in. */
async function startDemo(checkout: string): Promise<Demo> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "examples/site/demo.ts", "--port", "0"],
    cwd: checkout,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let printed = "";
  const drained = Promise.all([child.stdout, child.stderr].map(async (s) => {
    for await (const text of s.pipeThrough(new TextDecoderStream())) {
      printed += text;
    }
  }));
  const deadline = Date.now() + 60_000;
  while (
    !/listening on http:\/\/\S+\/[\s\S]*site key for this run is \S+[\s\S]*copied to \S+/
      .test(printed) && Date.now() < deadline
  ) await new Promise((resolve) => setTimeout(resolve, 50));
  const url = printed.match(/listening on (http:\/\/\S+\/)/)?.[1] ?? "";
  const key = printed.match(/site key for this run is (\S+)/)?.[1] ?? "";
  const root = printed.match(/Demo site copied to (\S+)/)?.[1] ?? "";
  const login = await fetch(`${url}api/auth`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key }),
  });
  if (login.status !== 200) throw new Error(`login: ${await login.text()}`);
  await login.body?.cancel();
  return {
    url,
    root,
    cookie: cookieFrom(login),
    async [Symbol.asyncDispose]() {
      child.kill("SIGTERM");
      await child.status;
      await drained;
    },
  };
}

/** Bytes on the wire per response, split into the overlay's and the rest. */
async function watchBytes(page: Page) {
  const session = await page.context().newCDPSession(page);
  await session.send("Network.enable");
  await session.send("Network.emulateNetworkConditions", FAST_3G);
  const urls = new Map<string, string>();
  const totals = { overlay: 0, page: 0, overlayRequests: 0, cached: 0 };
  session.on("Network.requestWillBeSent", (event) => {
    urls.set(event.requestId, event.request.url);
  });
  session.on("Network.requestServedFromCache", () => void totals.cached++);
  session.on("Network.loadingFinished", (event) => {
    const url = urls.get(event.requestId) ?? "";
    if (new URL(url).pathname.startsWith("/_inpage/")) {
      totals.overlay += event.encodedDataLength;
      totals.overlayRequests++;
    } else totals.page += event.encodedDataLength;
  });
  return {
    session,
    take() {
      const taken = { ...totals };
      Object.assign(totals, {
        overlay: 0,
        page: 0,
        overlayRequests: 0,
        cached: 0,
      });
      return taken;
    },
  };
}

/** Waits until the overlay's bar says it is ready; the page's clock then. */
async function overlayReady(page: Page): Promise<number> {
  const handle = await page.waitForFunction(
    () => {
      const status = document.querySelector("[data-inpage-overlay]")
        ?.shadowRoot?.querySelector(".bar .status");
      return status?.textContent === "No unsaved changes"
        ? performance.now()
        : false;
    },
    undefined,
    { polling: 10, timeout: 60_000 },
  );
  return await handle.jsonValue() as number;
}

interface Run {
  visitorLoad: number;
  editorReady: number;
  first: { overlay: number; page: number; overlayRequests: number };
  second: { overlay: number; page: number; overlayRequests: number };
  secondReady: number;
  publish: number;
  direct: number;
}

async function measure(demo: Demo, round: number): Promise<Run> {
  await using browser = Object.assign(
    await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [...FLAGS],
    }),
    {
      [Symbol.asyncDispose]: async function (this: { close(): Promise<void> }) {
        await this.close();
      },
    },
  );
  const page$ = `${demo.url}en/`;

  // A visitor's load, empty cache.
  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  await watchBytes(visitorPage);
  await visitorPage.goto(page$, { waitUntil: "load" });
  const visitorLoad = await visitorPage.evaluate(() =>
    (performance.getEntriesByType("navigation")[0] as unknown as {
      loadEventEnd: number;
    }).loadEventEnd
  );
  await visitor.close();

  // An editor with a session, empty cache, then the same page again.
  const editor = await browser.newContext();
  // The session cookie and the readable `editor_edit` one, which tells the
  // loader that there is a session.
  await editor.addCookies(
    demo.cookie.split("; ").map((pair) => ({
      name: pair.slice(0, pair.indexOf("=")),
      value: pair.slice(pair.indexOf("=") + 1),
      url: demo.url,
    })),
  );
  const page = await editor.newPage();
  const bytes = await watchBytes(page);
  await page.goto(`${page$}?edit`, { waitUntil: "commit" });
  const editorReady = await overlayReady(page);
  await page.waitForLoadState("networkidle");
  const first = bytes.take();
  if (round === 0) {
    // The first view's waterfall: when each request started and ended.
    const waterfall = await page.evaluate(() =>
      performance.getEntriesByType("resource").map((entry) =>
        `${new URL(entry.name).pathname} ${entry.startTime.toFixed(0)}–${
          (entry as unknown as { responseEnd: number }).responseEnd.toFixed(0)
        } ms`
      )
    );
    console.log(
      `${demo.url}: ${waterfall.join("; ")}; ready ${
        editorReady.toFixed(0)
      } ms`,
    );
  }
  await page.goto(`${page$}?edit`, { waitUntil: "commit" });
  const secondReady = await overlayReady(page);
  await page.waitForLoadState("networkidle");
  const second = bytes.take();

  // Publish, without throttling: the click to "Published".
  await bytes.session.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await page.reload();
  await overlayReady(page);
  await page.locator('[data-inpage-text="/title"]').click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(` ${round}`);
  await page.getByLabel("Message", { exact: true }).fill(`Round ${round}`);
  const clicked = performance.now();
  await page.getByRole("button", { name: "Publish" }).click();
  await page.locator(".bar .status", { hasText: /^Published$/ }).waitFor();
  const publish = performance.now() - clicked;
  await editor.close();

  // The same save sent to the route directly.
  const path = "src/content/pages/en/home.json";
  const read = await fetch(`${demo.url}api/content?path=${path}`, {
    headers: { cookie: demo.cookie },
  });
  const { content, version } = await read.json();
  const home = JSON.parse(content);
  home.title += " direct";
  const sent = performance.now();
  const save = await fetch(`${demo.url}api/save`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: demo.cookie },
    body: JSON.stringify({
      path,
      content: JSON.stringify(home),
      version,
      message: "Direct",
    }),
  });
  if (save.status !== 200) throw new Error(`save: ${await save.text()}`);
  await save.body?.cancel();
  const direct = performance.now() - sent;
  return {
    visitorLoad,
    editorReady,
    first,
    second,
    secondReady,
    publish,
    direct,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

function report(label: string, runs: Run[]): void {
  const m = (pick: (run: Run) => number) => median(runs.map(pick));
  const load = m((r) => r.visitorLoad);
  const ready = m((r) => r.editorReady);
  console.log(`\n${label} (median of ${runs.length}, Fast 3G):`);
  console.log(
    `  first view:  overlay ${m((r) => r.first.overlay)} B on the wire in ${
      m((r) => r.first.overlayRequests)
    } responses; the page itself ${m((r) => r.first.page)} B`,
  );
  console.log(
    `  second view: overlay ${m((r) => r.second.overlay)} B on the wire in ${
      m((r) => r.second.overlayRequests)
    } responses; the page itself ${m((r) => r.second.page)} B`,
  );
  console.log(
    `  ?edit to overlay ready ${ready.toFixed(0)} ms; the page's own load ${
      load.toFixed(0)
    } ms: ${(ready / load).toFixed(2)}×; second view ready ${
      m((r) => r.secondReady).toFixed(0)
    } ms (${(m((r) => r.secondReady) / load).toFixed(2)}×)`,
  );
  const publish = m((r) => r.publish);
  const direct = m((r) => r.direct);
  console.log(
    `  Publish click to "Published" ${publish.toFixed(0)} ms; the save alone ${
      direct.toFixed(0)
    } ms: ${(publish / direct).toFixed(2)}×`,
  );
}

async function partSizes(checkout: string): Promise<void> {
  const dist = join(checkout, "overlay/dist");
  const manifest = await Deno.readTextFile(join(dist, "manifest.json")).then(
    JSON.parse,
    () => undefined,
  );
  if (!manifest) return;
  const size = async (names: string[], suffix: string) => {
    let total = 0;
    for (const name of names) {
      total += (await Deno.stat(join(dist, name + suffix))).size;
    }
    return total;
  };
  for (
    const [label, names] of [["every editor", manifest.eager], [
      "lazy",
      manifest.lazy,
    ]] as const
  ) {
    console.log(
      `  ${label}: ${names.join(", ")}: ${await size(
        names,
        "",
      )} B, gzip ${await size(names, ".gz")} B, brotli ${await size(
        names,
        ".br",
      )} B`,
    );
  }
}

const beforeAt = Deno.args.indexOf("--before");
const checkouts: Array<[string, string]> = [[
  "this checkout",
  new URL("../", import.meta.url).pathname,
]];
if (beforeAt >= 0) checkouts.push(["before", Deno.args[beforeAt + 1]!]);

const runs = new Map<string, Run[]>(checkouts.map(([label]) => [label, []]));
const demos: Demo[] = [];
try {
  for (const [, checkout] of checkouts) demos.push(await startDemo(checkout));
  for (let round = 0; round < RUNS; round++) {
    for (const [index, [label]] of checkouts.entries()) {
      runs.get(label)!.push(await measure(demos[index]!, round));
    }
  }
} finally {
  for (const demo of demos) await demo[Symbol.asyncDispose]();
}
console.log(
  `load average: ${Deno.loadavg().map((n) => n.toFixed(2)).join(" ")}`,
);
for (const [label, checkout] of checkouts) {
  report(label, runs.get(label)!);
  await partSizes(checkout);
}
