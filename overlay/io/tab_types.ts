/**
 * What tabs say to each other, and what a tab offers the overlay (see
 * `tabs.ts`, which joins them in the browser).
 *
 * @module
 */

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
