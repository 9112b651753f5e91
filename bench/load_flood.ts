/**
 * The flood of `bench/load.ts`, in a worker of its own so that the flood's
 * client work runs on another thread than the measured editor's requests.
 * Each address sends a wrong key to `/api/auth` and a read with its own
 * session to `/api/content`, in turn, until told to stop, in one of two
 * ways:
 *
 * - `closed`: one request at a time, the next as soon as the answer comes
 *   (a script or a retry loop);
 * - `open`: one request every `openEveryMs` whether or not the answers
 *   came, up to `OPEN_IN_FLIGHT_MAX` in flight per address (a sender that
 *   does not wait).
 *
 * It can be paused (it answers "paused" once no request is in flight) and
 * resumed in either way, so that quiet and flooded rounds alternate in one
 * run.
 *
 * @module
 */

import { closeConnections, send } from "./load_support.ts";

/** The most requests one address has in flight in the open flood. */
const OPEN_IN_FLIGHT_MAX = 25;

/** How the flood sends. */
export type FloodMode = "closed" | "open";

/** What the worker is told to do first. */
export interface FloodOrder {
  /** The server's base URL. */
  url: string;
  /** One session cookie per address, and the address. */
  clients: { from: string; cookie: string }[];
  /** The path of the page read. */
  page: string;
  /** How often an address sends in the open flood, in milliseconds. */
  openEveryMs: number;
}

/** What the worker reports when stopped. */
export interface FloodReport {
  /** Requests sent, by way of sending. */
  sent: Record<FloodMode, number>;
  /** Answers by status (0: hung or failed). */
  statuses: Record<number, number>;
}

const self = globalThis as unknown as {
  onmessage: ((event: MessageEvent) => void) | null;
  postMessage(message: unknown): void;
};

let flooding = true;
let mode: FloodMode | "paused" = "closed";
let wake = () => {};
let resumed = Promise.resolve();
let inFlight = 0;
const sent: Record<FloodMode, number> = { closed: 0, open: 0 };
const statuses: Record<number, number> = {};

function settle() {
  if (mode === "paused" && inFlight === 0) self.postMessage("paused");
}

self.onmessage = (event: MessageEvent) => {
  const message = event.data as
    | "stop"
    | "pause"
    | { resume: FloodMode }
    | FloodOrder;
  if (message === "stop") {
    flooding = false;
    wake();
    return;
  }
  if (message === "pause") {
    mode = "paused";
    resumed = new Promise((resolve) => wake = resolve);
    settle();
    return;
  }
  if ("resume" in message) {
    mode = message.resume;
    wake();
    return;
  }
  void flood(message);
};

async function flood(order: FloodOrder) {
  const sendOne = async (from: string, cookie: string, n: number) => {
    const way = mode === "paused" ? "closed" : mode;
    inFlight++;
    try {
      const reply = n % 2
        ? await send({
          url: order.url,
          method: "POST",
          path: "api/auth",
          from,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ key: `wrong ${n}` }),
        })
        : await send({
          url: order.url,
          method: "GET",
          path: `api/content?path=${order.page}`,
          from,
          headers: { cookie },
        });
      return { reply, way };
    } finally {
      inFlight--;
      settle();
    }
  };
  // First every address spends its budgets (60 reads, 5 login attempts), so
  // that the flood measured is over budget.
  await Promise.all(order.clients.map(async ({ from, cookie }) => {
    const refused = new Set<number>();
    for (let n = 0; refused.size < 2; n++) {
      const { reply } = await sendOne(from, cookie, n);
      if (reply.status === 429) refused.add(n % 2);
    }
  }));
  self.postMessage("started");
  const count = ({ reply, way }: Awaited<ReturnType<typeof sendOne>>) => {
    sent[way]++;
    statuses[reply.status] = (statuses[reply.status] ?? 0) + 1;
  };
  await Promise.all(order.clients.map(async ({ from, cookie }) => {
    let mine = 0;
    for (let n = 0; flooding; n++) {
      while (mode === "paused" && flooding) await resumed;
      if (!flooding) break;
      if (mode === "closed") {
        count(await sendOne(from, cookie, n));
        continue;
      }
      if (mine < OPEN_IN_FLIGHT_MAX) {
        mine++;
        void sendOne(from, cookie, n).then(count).finally(() => mine--);
      }
      await new Promise((resolve) => setTimeout(resolve, order.openEveryMs));
    }
  }));
  while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  closeConnections();
  self.postMessage({ sent, statuses } satisfies FloodReport);
}
