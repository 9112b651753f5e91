/**
 * What the bar and the alert say, as data: the state holds codes and
 * numbers, the views choose the words (`views/words.ts`). A notice is the
 * outcome of the last action (published, not published and why, logged in
 * again); it lasts until the next change. An alert is a sentence above
 * the bar that stays until it is dismissed, a publish starts, or the
 * changes are discarded.
 *
 * @module
 */

/** The bar's tone, which colours the status. */
export type Tone =
  | "loading"
  | "clean"
  | "dirty"
  | "busy"
  | "published"
  | "error";

/** What is under way. */
export type Activity =
  /** The pages are being read. */
  | { readonly kind: "loading" }
  /** Nothing: the person edits. */
  | { readonly kind: "idle" }
  /** A publish: its images go up, then its pages. */
  | { readonly kind: "publishing"; readonly step: "uploading" | "saving" };

/** A publish, as the bar shows it. */
export interface Published {
  /** The commit message typed (empty: the server's default). */
  readonly message: string;
  /** When, in milliseconds since the epoch. */
  readonly at: number;
  /** The page files published. */
  readonly paths: readonly string[];
}

/** Why a publish did not happen. */
export type NotPublished =
  /** Someone published meanwhile. */
  | "conflict"
  /** The session ended. */
  | "logIn"
  /** Too many requests. */
  | "wait"
  /** The server refused fields (`count` of them). */
  | "refused"
  /** A change names nothing in the page file. */
  | "stray"
  /** The overlay flagged fields (`count` of them) that would be refused. */
  | "heldBack"
  /** Anything else. */
  | "failed";

/** The outcome the bar shows until the next change. */
export type Notice =
  | { readonly code: "published"; readonly published: Published }
  | {
    readonly code: "notPublished";
    readonly why: NotPublished;
    readonly count?: number;
  }
  | { readonly code: "logInToEdit" }
  | { readonly code: "loggedInAgain" }
  | { readonly code: "notReady" }
  | { readonly code: "noRegions" }
  | { readonly code: "nothingToPublish" }
  | { readonly code: "nothingLeft" }
  | { readonly code: "notLoggedOut" }
  /** Changes sent for review (`count` pages): not published. */
  | { readonly code: "sentForReview"; readonly count: number }
  /** Nothing sent for review: every page with changes is held back. */
  | { readonly code: "notSent" }
  /** A review asks for a message first. */
  | { readonly code: "reviewMessageNeeded" }
  /** A review published, closed or scheduled from the Reviews panel. */
  | {
    readonly code: "review";
    readonly done: "published" | "closed" | "scheduled" | "linkCopied";
    readonly at?: number | undefined;
  };

/** A page this tab changed and does not show now (its draft is kept). */
export interface OtherPage {
  /** The page path. */
  readonly path: string;
  /** The address of the page view it was changed on, when known. */
  readonly address?: string | undefined;
}

/** A page Send for review left out, and why: the person opens it. */
export interface HeldPage extends OtherPage {
  /** A field changed meanwhile by someone else, or a field to fix. */
  readonly why: "clash" | "problems";
}

/** A page file that cannot be edited, and why. */
export interface BrokenPage {
  /** The page path, as the container names it. */
  readonly path: string;
  /**
   * Why: the server refuses the path (400), the file is not in the
   * repository (404), or it holds no JSON object.
   */
  readonly reason: "refused" | "missing" | "unreadable";
}

/** A sentence above the bar, as data. */
export type Alert =
  /** A request failed: the client's error code (and when to retry). */
  | {
    readonly code: "failure";
    readonly error: string;
    readonly retryAfter?: number | undefined;
  }
  /** Something unexpected; the changes are kept. */
  | { readonly code: "somethingWrong" }
  /** The server refused fields; `first` is the first one. */
  | {
    readonly code: "refused";
    readonly count: number;
    readonly reason: string;
    readonly kind?: string | undefined;
    /** Whether a region on the page shows the first refused field. */
    readonly shown: boolean;
  }
  /** A change names nothing in the page file (at `at`). */
  | { readonly code: "stray"; readonly at: string }
  /** The editor could not start on this page. */
  | { readonly code: "cannotStart" }
  /** Pages this tab changed elsewhere left out of a review: open them. */
  | { readonly code: "heldElsewhere"; readonly pages: readonly HeldPage[] }
  /** Page files the page's containers name cannot be edited. */
  | { readonly code: "brokenPages"; readonly broken: readonly BrokenPage[] }
  /** Logging out failed. */
  | { readonly code: "logoutFailed" }
  /** The rich text editor could not be loaded. */
  | { readonly code: "richTextFailed" }
  /** The History panel could not be loaded. */
  | { readonly code: "historyLoadFailed" }
  /** The image is saved in another format than the site chose. */
  | {
    readonly code: "imageFallback";
    readonly png: boolean;
    readonly format: string;
  };
