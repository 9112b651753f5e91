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

const CHANNEL = "inpage-editor";
const LOCK = "inpage-editor:tab:";
const KEY = "inpage-editor:tab";

/** What a tab says to the others. */
export type TabMessage =
  /** Opened (or reloaded): the pages it shows. Tabs showing one answer. */
  | { type: "hello"; tab: string; paths: string[] }
  /** The answer to a hello: the pages it shows. */
  | { type: "here"; tab: string; paths: string[] }
  /** Closed or reloading. */
  | { type: "bye"; tab: string }
  /** Published a page: its new version and content. */
  | {
    type: "published";
    tab: string;
    path: string;
    version: string;
    content: string;
  };

/** This tab, and what it hears of the others. */
export interface Tabs {
  /** This tab's id. */
  readonly id: string;
  /** The ids of the tabs open now (this one included), when known. */
  open(): Promise<Set<string> | undefined>;
  /** Says something to the other tabs. */
  say(message: TabMessage): void;
  /** Listens to the other tabs until the answer is called. */
  listen(listener: (message: TabMessage) => void): () => void;
  /** Stops: says bye and lets the lock go. */
  close(): void;
}

function randomId(): string {
  return crypto.getRandomValues(new Uint32Array(2)).reduce(
    (id, part) => id + part.toString(36),
    "",
  );
}

/** Holds a lock until `release` is called; whether it was free. */
async function hold(
  locks: LockManager,
  name: string,
): Promise<{ held: boolean; release: () => void }> {
  const released = Promise.withResolvers<void>();
  const taken = Promise.withResolvers<boolean>();
  void locks.request(name, { ifAvailable: true }, (lock) => {
    taken.resolve(lock !== null);
    return lock === null ? undefined : released.promise;
  }).catch(() => taken.resolve(false));
  return { held: await taken.promise, release: () => released.resolve() };
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
    let taken = await hold(locks, LOCK + id);
    if (!taken.held) {
      id = randomId();
      taken = await hold(locks, LOCK + id);
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
      if (!locks) return undefined;
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
