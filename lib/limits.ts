/**
 * Every cap and budget of the editor, in one place: body and field sizes,
 * the form parser's bounds, the page rules' bounds, image bounds, the site
 * key's length and its checks at once, the cookie header read, the session
 * lifetime, the rate budgets of the routes and the memory the rate memos
 * keep. The modules that apply a cap import it from here, under this name.
 *
 * @module
 */

/** Largest page content, in bytes of UTF-8, as sent and as written. */
export const CONTENT_MAX = 100_000;
/** Largest `/api/save` body: the content and room for the JSON around it. */
export const ENVELOPE_MAX = 128_000;
/** Longest `version` a save may carry, in characters. */
export const VERSION_MAX = 200;
/** Largest `/api/auth` body, in bytes. */
export const AUTH_BODY_MAX = 2_000;
/** Longest site key, in characters (Unicode code points). */
export const KEY_MAX = 256;
/** Largest uploaded file, in bytes. */
export const UPLOAD_FILE_MAX = 20_000_000;
/** Largest upload body: the file and room for the form around it. */
export const UPLOAD_BODY_MAX: number = UPLOAD_FILE_MAX + 65_536;
/** Longest accepted upload name, in characters (Unicode code points). */
export const UPLOAD_NAME_MAX = 200;
/** Longest stored image name, in characters. */
export const IMAGE_NAME_MAX = 100;
/** Longest part of a stored image name made from the upload name. */
export const IMAGE_SLUG_MAX = 60;
/** Default cap of a form's `name` part, in bytes. */
export const FORM_NAME_MAX = 4096;
/** Cap of one form part's header block, in bytes. */
export const FORM_HEADER_BLOCK_MAX: number = 16 * 1024;
/** Cap of the spaces and tabs allowed after a form boundary. */
export const FORM_PADDING_MAX = 256;
/** Smallest accepted image side, in pixels. */
export const IMAGE_SIDE_MIN = 1;
/** Largest accepted image side, in pixels. */
export const IMAGE_SIDE_MAX = 10_000;
/** Deepest accepted nesting of containers; the top-level object is depth 1. */
export const PAGE_DEPTH_MAX = 32;
/** Most values a page may hold, containers included. */
export const PAGE_VALUES_MAX = 20_000;
/** Longest accepted key, in characters, after sanitising. */
export const PAGE_KEY_MAX = 64;
/** Longest page path, in characters. */
export const PAGE_PATH_MAX = 120;
/** Most segments of the page name in a page path (`{lang}/` not counted). */
export const PAGE_PATH_SEGMENTS_MAX = 4;
/** Longest commit message kept, in characters. */
export const COMMIT_MESSAGE_MAX = 120;
/**
 * How long a request body may stop arriving, in milliseconds, before it is
 * cut off with 408 `request_timeout`: a client that sends its headers and
 * then a trickle (or nothing) of its body holds no request open longer.
 */
export const BODY_IDLE_MS = 10_000;
/** How long a session lasts, in seconds (8 hours). */
export const SESSION_SECONDS = 28_800;
/**
 * The part of a `cookie` header read for session tokens: 64 KiB, more than
 * the request headers servers and proxies accept (nginx 8 KiB a line by
 * default, Node 16 KiB in all), so that a browser that reaches the routes
 * never has its real token beyond it.
 */
export const COOKIE_HEADER_MAX = 65_536;
/** Most key checks (Argon2id) that run at once in a process. */
export const KEY_CHECKS_RUNNING_MAX = 2;
/**
 * Most key checks that wait for a turn; a login beyond them is refused at
 * once (429) rather than queued without end.
 */
export const KEY_CHECKS_WAITING_MAX = 8;
/** The `retry-after` of a login refused because key checks are busy, in seconds. */
export const KEY_CHECKS_RETRY_SECONDS = 10;
/** Largest key piped to `editor hash-key`, in bytes. */
export const PIPED_KEY_MAX = 65_536;

const MINUTE = 60_000;

/**
 * How long a 429 to a client already told 429 waits before it is sent, in
 * milliseconds, on average (each wait is drawn between half and one and a
 * half times this): a client that keeps sending past its budget one request at a
 * time (a script, a retry loop) is slowed to a few requests a second, which
 * keeps the server's time for the editors within their budgets. The first
 * 429 is sent at once.
 */
export const REFUSED_AGAIN_DELAY_MS = 250;
/** At most this many such answers wait at once; beyond, they go at once. */
export const REFUSED_AGAIN_HELD_MAX = 1_000;
/**
 * How many client tags (the keyed hashes of client addresses) a process
 * keeps, so that a flood from a few addresses costs no HMAC per request; the
 * oldest goes first.
 */
export const CLIENT_TAGS_KEPT = 4_096;
/**
 * How many entries each memo of the rate windows keeps in a process (the
 * windows known to be full, the entries last seen) before it is emptied.
 */
export const RATE_MEMO_MAX = 10_000;

/**
 * The rate budgets: requests per client and route, in a sliding window. The
 * four of the reference; the editors' own two: `/api/session` (a KV read,
 * asked once per page view: 120 per 5 minutes, so that a dev server
 * reloading the page does not run it out) and `/api/history` (up to 4 pages
 * of the repository's commits list each: 30 per 5 minutes), neither
 * spending the content route's 60 reads; and one for each review route:
 * `/api/reviews` (list, read, preview read, send, close),
 * `/api/reviews/publish` (a commit of up to 20 pages),
 * `/api/reviews/schedule` and `/api/reviews/link`.
 */
export const BUDGETS: Readonly<
  Record<
    | "auth"
    | "content"
    | "save"
    | "upload"
    | "session"
    | "history"
    | "reviews"
    | "reviewPublish"
    | "reviewSchedule"
    | "reviewLink",
    { readonly limit: number; readonly windowMs: number }
  >
> = Object.freeze({
  auth: { limit: 5, windowMs: 15 * MINUTE },
  content: { limit: 60, windowMs: 5 * MINUTE },
  save: { limit: 30, windowMs: 5 * MINUTE },
  upload: { limit: 30, windowMs: 15 * MINUTE },
  session: { limit: 120, windowMs: 5 * MINUTE },
  history: { limit: 30, windowMs: 5 * MINUTE },
  reviews: { limit: 30, windowMs: 5 * MINUTE },
  reviewPublish: { limit: 10, windowMs: 15 * MINUTE },
  reviewSchedule: { limit: 30, windowMs: 15 * MINUTE },
  reviewLink: { limit: 30, windowMs: 15 * MINUTE },
});

/** Most pages one review holds (`POST /api/reviews`). */
export const REVIEW_PAGES_MAX = 20;
/**
 * Largest `POST /api/reviews` body: one `/api/save` envelope per page, so
 * every page that can be saved can be sent for review (2,560,000 bytes).
 */
export const REVIEW_ENVELOPE_MAX: number = REVIEW_PAGES_MAX * ENVELOPE_MAX;
/**
 * Largest body of the other review routes (`{ id }`, `{ id, at }`,
 * `{ id, hours, page }`), in bytes.
 */
export const REVIEW_BODY_MAX = 2_000;
/** Most reviews open at once on a site. */
export const REVIEWS_OPEN_MAX = 100;
/** Most changed fields a review's pull request names per page. */
export const REVIEW_FIELDS_LISTED_MAX = 30;
/** How far ahead a review may be scheduled: 366 days, in milliseconds. */
export const SCHEDULE_AHEAD_MAX_MS: number = 366 * 24 * 60 * MINUTE;
/**
 * How long a publish under way holds its review, in milliseconds: a
 * process stopped in the middle releases it after this long.
 */
export const REVIEW_CLAIM_MS: number = 10 * MINUTE;
/** How often `editor serve` runs the schedules, in milliseconds. */
export const SCHEDULE_EVERY_MS: number = MINUTE / 2;
/** Shortest life of a preview link, in hours. */
export const PREVIEW_HOURS_MIN = 1;
/** Longest life of a preview link, in hours (a week). */
export const PREVIEW_HOURS_MAX = 168;
/** Shortest `EDITOR_PREVIEW_SECRET` accepted, in characters. */
export const PREVIEW_SECRET_MIN = 32;
/** Longest site path a preview link may open (`page`), in characters. */
export const PREVIEW_PAGE_MAX = 200;

/** The most problems one refusal of the page rules lists (a 422's `problems`). */
export const PAGE_PROBLEMS_MAX = 50;
/** Most entries one `/api/history` answer lists. */
export const HISTORY_PAGE_MAX = 30;
