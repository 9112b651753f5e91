/**
 * The flood of `bench/load.ts`, in a worker of its own so that the flood's
 * client work runs on another thread than the measured editor's requests:
 * each address sends, one request at a time, a wrong key to `/api/auth` and
 * a read with its own session to `/api/content`, until told to stop.
 *
 * @module
 */

import { closeConnections, send } from "./load_support.ts";

/** What the worker is told to do. */
export interface FloodOrder {
  /** The server's base URL. */
  url: string;
  /** One session cookie per address, and the address. */
  clients: { from: string; cookie: string }[];
  /** The path of the page read. */
  page: string;
}

/** What the worker reports when stopped. */
export interface FloodReport {
  /** Requests sent. */
  sent: number;
  /** Answers by status (0: hung or failed). */
  statuses: Record<number, number>;
}

const self = globalThis as unknown as {
  onmessage: ((event: MessageEvent) => void) | null;
  postMessage(message: unknown): void;
};

let flooding = true;
self.onmessage = (event: MessageEvent) => {
  if (event.data === "stop") {
    flooding = false;
    return;
  }
  const order = event.data as FloodOrder;
  const statuses: Record<number, number> = {};
  let sent = 0;
  const sendOne = (from: string, cookie: string, n: number) =>
    n % 2
      ? send({
        url: order.url,
        method: "POST",
        path: "api/auth",
        from,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ key: `wrong ${n}` }),
      })
      : send({
        url: order.url,
        method: "GET",
        path: `api/content?path=${order.page}`,
        from,
        headers: { cookie },
      });
  // First every address spends its budgets (60 reads, 5 login attempts), so
  // that the flood measured is over budget.
  const spend = order.clients.map(async ({ from, cookie }) => {
    const refused = new Set<number>();
    for (let n = 0; refused.size < 2; n++) {
      if ((await sendOne(from, cookie, n)).status === 429) refused.add(n % 2);
    }
  });
  const loops = Promise.all(spend).then(() => {
    self.postMessage("started");
    return Promise.all(order.clients.map(async ({ from, cookie }) => {
      for (let n = 0; flooding; n++) {
        const reply = await sendOne(from, cookie, n);
        sent++;
        statuses[reply.status] = (statuses[reply.status] ?? 0) + 1;
      }
    }));
  });
  void loops.then(() => {
    closeConnections();
    self.postMessage({ sent, statuses } satisfies FloodReport);
  });
};
