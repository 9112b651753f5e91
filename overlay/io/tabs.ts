/// <reference lib="dom" />
/**
 * This tab among the browser's other tabs of the site: an id of its own,
 * kept across its reloads (`sessionStorage`) and held as a Web Lock while
 * it is open, so that another tab can tell which drafts belong to a tab
 * still open (its work in progress) and which to a closed one (to offer
 * back); and a `BroadcastChannel` on which tabs say which pages they show,
 * and what they published, so that each knows the page is open elsewhere
 * and takes another tab's publish as the new version of its page.
 *
 * @module
 */

import type { TabMessage, Tabs } from "./tab_types.ts";

const CHANNEL = "inpage-editor";
const LOCK = "inpage-editor:tab:";
const KEY = "inpage-editor:tab";

export type { TabMessage, Tabs };

function randomId(): string {
  return crypto.getRandomValues(new Uint32Array(2)).reduce(
    (id, part) => id + part.toString(36),
    "",
  );
}

/**
 * Holds a lock until `release` is called; whether it was taken. A lock
 * still held by this tab's previous page view (a reload) is let go within
 * moments: it is waited for that long, no longer (a duplicated tab holds
 * it for good).
 */
async function hold(
  locks: LockManager,
  name: string,
  wait: number,
): Promise<{ held: boolean; release: () => void }> {
  const released = Promise.withResolvers<void>();
  const taken = Promise.withResolvers<boolean>();
  void locks.request(
    name,
    wait === 0 ? { ifAvailable: true } : { signal: AbortSignal.timeout(wait) },
    (lock) => {
      taken.resolve(lock !== null);
      return lock === null ? undefined : released.promise;
    },
  ).catch(() => taken.resolve(false));
  return { held: await taken.promise, release: () => released.resolve() };
}

/**
 * The tabs that answer a hello within moments: the tabs open, where Web
 * Locks are not available (a page not served over HTTPS nor from the
 * machine itself).
 */
async function answering(
  channel: BroadcastChannel,
  id: string,
): Promise<Set<string>> {
  const found = new Set([id]);
  const onMessage = (event: MessageEvent) => {
    const message = event.data as TabMessage;
    if (message?.type === "here") found.add(message.tab);
  };
  channel.addEventListener("message", onMessage);
  channel.postMessage({ type: "hello", tab: id, paths: [] });
  await new Promise((resolve) => setTimeout(resolve, 400));
  channel.removeEventListener("message", onMessage);
  return found;
}

/**
 * Joins the other tabs: this tab's id (the one it had before a reload,
 * unless another tab holds it: a duplicated tab gets one of its own) and
 * its lock.
 *
 * @returns this tab
 */
export async function joinTabs(): Promise<Tabs> {
  let storage: Storage | undefined;
  try {
    storage = globalThis.sessionStorage;
  } catch {
    storage = undefined;
  }
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  let id = storage?.getItem(KEY) ?? randomId();
  let release = () => {};
  if (locks) {
    let taken = await hold(locks, LOCK + id, 1500);
    if (!taken.held) {
      id = randomId();
      taken = await hold(locks, LOCK + id, 0);
    }
    release = taken.release;
  }
  try {
    storage?.setItem(KEY, id);
  } catch {
    // A new id at the next view: its draft is then offered as a closed tab's.
  }
  const channel = typeof BroadcastChannel === "function"
    ? new BroadcastChannel(CHANNEL)
    : undefined;
  const say = (message: TabMessage) => channel?.postMessage(message);
  const bye = () => say({ type: "bye", tab: id });
  addEventListener("pagehide", bye);
  return {
    id,
    async open() {
      if (!locks) return channel && await answering(channel, id);
      try {
        const { held = [] } = await locks.query();
        return new Set(
          held.flatMap((lock) =>
            lock.name?.startsWith(LOCK) ? [lock.name.slice(LOCK.length)] : []
          ),
        );
      } catch {
        return undefined;
      }
    },
    say,
    listen(listener) {
      const onMessage = (event: MessageEvent) => {
        const message = event.data as TabMessage;
        if (message && message.tab !== id) listener(message);
      };
      channel?.addEventListener("message", onMessage);
      return () => channel?.removeEventListener("message", onMessage);
    },
    close() {
      bye();
      removeEventListener("pagehide", bye);
      channel?.close();
      release();
    },
  };
}
