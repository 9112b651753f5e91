/**
 * `lib/publish/`, the one-commit publish: images an editor uploads with
 * `?staged=1` are kept aside by the repository (`Repository.stage`) and
 * recorded here, in the KV, for one hour and for that editor only; a
 * publish gathers those its page names and commits them with the page
 * (`Repository.commit`). It may import the domain folders, the host
 * contract (`lib/http/env.ts`) and the KV helpers of `lib/access/`.
 *
 * This file holds the records: one KV entry per editor and image name,
 * `["editor", "staged", editorId, src]`, set with `expireIn` one hour and
 * holding its own expiry (KV expiry is lazy). A record gone or expired
 * means the image is not published: its bytes stay aside, in no tree,
 * until the repository's garbage collection drops them.
 *
 * @module
 */

import type { KvKey, KvStore } from "../http/env.ts";
import { getEntries, retryBusy } from "../access/kv_binding.ts";
import type { StagedBlob } from "../repository/repository.ts";

/** How long a staged image waits for the publish that names it. */
export const STAGED_MS = 3_600_000;

/** An image staged by an editor, as recorded. */
export interface StagedImage {
  /** What the repository's `stage` answered. */
  staged: string;
  /** The bytes' version (git blob SHA-1). */
  version: string;
  /** When the record ends, in milliseconds since the epoch. */
  expiresAt: number;
}

/** A stored image name as `/api/upload` makes it: `{slug}-{12 hex}.{ext}`. */
const STORED_NAME = /^[a-z0-9-]{1,60}-[0-9a-f]{12}\.(?:jpg|png|webp)$/;

function keyOf(editor: string, src: string): KvKey {
  return ["editor", "staged", editor, src];
}

function isStagedImage(value: unknown): value is StagedImage {
  const record = value as StagedImage | null;
  return typeof record === "object" && record !== null &&
    typeof record.staged === "string" && typeof record.version === "string" &&
    typeof record.expiresAt === "number";
}

/**
 * Records an image an editor staged, for one hour from `now`.
 *
 * @param kv the store
 * @param editor the editor's id
 * @param src the image's stored name
 * @param blob what the repository's `stage` answered
 * @param version the bytes' version
 * @param now the time, in milliseconds
 * @example
 * ```ts
 * import { recordStaged, stagedNamed } from "./staged_images.ts";
 * import assert from "node:assert/strict";
 *
 * const kv = await Deno.openKv(":memory:");
 * const src = "sea-0123456789ab.webp";
 * const version = "0".repeat(40);
 * await recordStaged(kv, "alice", src, { staged: version }, version, 0);
 * assert.equal((await stagedNamed(kv, "alice", [src], 1_000)).size, 1);
 * assert.equal((await stagedNamed(kv, "bob", [src], 1_000)).size, 0);
 * assert.equal((await stagedNamed(kv, "alice", [src], 3_600_000)).size, 0);
 * kv.close();
 * ```
 */
export async function recordStaged(
  kv: KvStore,
  editor: string,
  src: string,
  blob: StagedBlob,
  version: string,
  now: number,
): Promise<void> {
  const record: StagedImage = {
    staged: blob.staged,
    version,
    expiresAt: now + STAGED_MS,
  };
  await retryBusy(() =>
    kv.set(keyOf(editor, src), record, { expireIn: STAGED_MS })
  );
}

/**
 * The images an editor staged, among the names a page gives, whose record
 * has not ended at `now`.
 *
 * @param kv the store
 * @param editor the editor's id
 * @param sources the page's image names
 * @param now the time, in milliseconds
 * @returns the staged images by name
 */
export async function stagedNamed(
  kv: KvStore,
  editor: string,
  sources: readonly string[],
  now: number,
): Promise<Map<string, StagedImage>> {
  const names = sources.filter((src) => STORED_NAME.test(src));
  const found = new Map<string, StagedImage>();
  if (names.length === 0) return found;
  const entries = await getEntries(kv, names.map((src) => keyOf(editor, src)));
  entries.forEach((entry, index) => {
    const value = entry.value;
    if (isStagedImage(value) && value.expiresAt > now) {
      found.set(names[index]!, value);
    }
  });
  return found;
}

/**
 * Forgets staged images once published; a failure is left to the records'
 * own expiry.
 *
 * @param kv the store
 * @param editor the editor's id
 * @param sources the names published
 */
export async function forgetStaged(
  kv: KvStore,
  editor: string,
  sources: Iterable<string>,
): Promise<void> {
  await Promise.all(
    [...sources].map((src) => kv.delete(keyOf(editor, src)).catch(() => {})),
  );
}
