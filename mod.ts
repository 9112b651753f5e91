/**
 * `@inpage/editor`: the server side of in-place editing for a static site
 * whose content is JSON in a git repository. Four JSON routes used by an
 * editing overlay (`/api/auth`, `/api/content`, `/api/save`, `/api/upload`),
 * gathered by a router made from the site's `locales`.
 *
 * Everything a route needs arrives through `env`: a Deno KV as
 * `RATE_LIMIT` (rate windows and sessions), the key hash made by
 * `editor hash-key` as `EDITOR_KEY_HASH`, and the repository.
 *
 * @example
 * ```ts
 * import { createRouter } from "@inpage/editor";
 * import assert from "node:assert/strict";
 *
 * const router = createRouter({ locales: ["en", "fr"] });
 * const kv = await Deno.openKv(":memory:");
 * const env = { RATE_LIMIT: kv, EDITOR_KEY_HASH: Deno.env.get("EDITOR_KEY_HASH") };
 *
 * // In production: Deno.serve((request, info) => router.handle(request, env, info));
 * const response = await router.handle(
 *   new Request("https://site.example/api/auth", { method: "DELETE" }),
 *   env,
 * );
 * assert.equal(response.status, 200);
 * assert.equal(response.headers.get("cache-control"), "no-store");
 * kv.close();
 * ```
 *
 * @module
 */

export { createRouter } from "./router.ts";
export type {
  RouteHandlers,
  Router,
  RouterOptions,
  Routes,
  TemplateSyntax,
} from "./router.ts";
export {
  createAuthRoute,
  createContentRoute,
  createHistoryRoute,
  createReviewLinkRoute,
  createReviewPublishRoute,
  createReviewScheduleRoute,
  createReviewsRoute,
  createSaveRoute,
  createSessionRoute,
  createUploadRoute,
} from "./routes/lazy_routes.ts";
export type { AuthRoute } from "./routes/auth.ts";
export type { ContentRoute } from "./routes/content.ts";
export type { SaveRoute } from "./routes/save.ts";
export type { UploadRoute } from "./routes/upload.ts";
export type { SessionRoute } from "./routes/session.ts";
export type { HistoryRoute } from "./routes/history.ts";
export type { ReviewsRoute } from "./routes/reviews.ts";
export type { ReviewPublishRoute } from "./routes/review_publish.ts";
export type { ReviewScheduleRoute } from "./routes/review_schedule.ts";
export type { ReviewLinkRoute } from "./routes/review_link.ts";
export { runSchedule } from "./lib/review/lazy_schedule.ts";
export type { ScheduleOptions, ScheduleRun } from "./lib/review/schedule.ts";
export type {
  ClientInfo,
  Env,
  Handler,
  KvAtomic,
  KvCommitResult,
  KvEntry,
  KvKey,
  KvStore,
  RouteContext,
} from "./lib/http/env.ts";
export {
  BranchExistsError,
  ConflictError,
  gitBlobSha,
  isOwnBranch,
  RepositoryError,
} from "./lib/repository/repository.ts";
export type {
  CommitAuthor,
  CommitFile,
  CommitOptions,
  CommitResult,
  HistoryEntry,
  HistoryOptions,
  PullRequestInit,
  Repository,
  RepositoryErrorCode,
  RepositoryFile,
  StagedBlob,
} from "./lib/repository/repository.ts";
export { PLAIN_EDITOR } from "./lib/access/editors.ts";
export type { EditorIdentity, EditorRole } from "./lib/access/editors.ts";
export { argon2Hash, hashKey, verifyKey } from "./lib/access/lazy_site_key.ts";
export type {
  Argon2Job,
  Argon2Runner,
  KeyCheckOptions,
  KeyHashParams,
  PrecompiledArgon2,
} from "./lib/access/site_key.ts";
export { warnMissingVariables } from "./lib/access/missing_variables.ts";
export { lazyKv } from "./lib/access/lazy_kv.ts";
