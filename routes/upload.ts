/**
 * `/api/upload`: receives an image already cropped and converted by the
 * browser, recognises it from its bytes, reads its dimensions from its
 * header, rewrites its name with its content hash, and stores it in the
 * repository under `public/images/`. With `?staged=1` the same checks run,
 * then the bytes are kept aside for the editor's next publish (one hour)
 * and nothing reaches the tree; the answer adds `"staged": true`. A
 * repository that cannot stage (a `REPOSITORY` binding without `stage` and
 * `commit`) stores the image as without `staged`, and says so by leaving
 * `staged` out.
 *
 * @module
 */

import { sha256Hex, useNativeDigest } from "../lib/digest.ts";
import { type Handler, now } from "../lib/http/env.ts";
import { storedImageName, uploadSlug } from "../lib/images/image_name.ts";
import { jsonResponse } from "../lib/http/json_response.ts";
import { openUploadForm } from "../lib/http/multipart.ts";
import { bodyIdleMs } from "../lib/http/read_body.ts";
import { admit } from "../lib/access/admission.ts";
import {
  type CommitAuthor,
  ConflictError,
  gitBlobSha,
  type Repository,
  RepositoryError,
} from "../lib/repository/repository.ts";
import { requireRepository } from "../lib/repository/from_env.ts";
import { kvOf } from "../lib/access/kv_binding.ts";
import { recordStaged } from "../lib/publish/staged_images.ts";
import { dispatch, handler } from "../lib/http/route.ts";
import { IMAGES_FOLDER, ROUTES, STAGED_PARAMETER } from "../lib/wire/names.ts";
import { UPLOAD_BODY_MAX, UPLOAD_FILE_MAX } from "../lib/limits.ts";

/**
 * The image header reader, loaded when an image is first uploaded: its
 * CRC-32 is not needed to start or to answer any other route.
 */
let imageHeaderModule:
  | Promise<typeof import("../lib/images/image_header.ts")>
  | undefined;
function loadImageHeader(): Promise<
  typeof import("../lib/images/image_header.ts")
> {
  return imageHeaderModule ??= import("../lib/images/image_header.ts");
}

/** The handlers of `/api/upload`. */
export interface UploadRoute {
  /** Dispatches on the method; 405 for anything but POST. */
  onRequest: Handler;
  /** Stores an image: `{ src, width, height }` (`staged: true` when kept aside). */
  onRequestPost: Handler;
}

/**
 * Creates the `/api/upload` handlers.
 *
 * @returns `onRequest` and `onRequestPost`
 * @example
 * ```ts
 * import { createUploadRoute } from "@inpage/editor";
 * import assert from "node:assert/strict";
 *
 * const upload = createUploadRoute();
 * const response = await upload.onRequest({
 *   request: new Request("https://site.example/api/upload"),
 *   env: {},
 * });
 * assert.equal(response.status, 405);
 * assert.equal(response.headers.get("allow"), "POST");
 * ```
 */
export function createUploadRoute(): UploadRoute {
  const onRequestPost = handler(
    ROUTES.upload,
    async (exchange) => {
      const { request, env, client } = exchange;
      const admission = await admit(env, ROUTES.upload, client, request);
      const form = openUploadForm(request, {
        fileMax: UPLOAD_FILE_MAX,
        bodyMax: UPLOAD_BODY_MAX,
        idleMs: bodyIdleMs(env),
      });
      const { editor } = admission.requireSession();
      exchange.editor = editor.id;
      await admission.spend();
      const { file, name } = await form.read();
      const slug = uploadSlug(name);
      // 20 MB are hashed twice (name, version): in native code.
      const [{ imageHeader }] = await Promise.all([
        loadImageHeader(),
        useNativeDigest(),
      ]);
      const { format, width, height } = imageHeader(file);
      const src = storedImageName(slug, sha256Hex(file), format);
      const repository = requireRepository(env);
      if (stagedAsked(request) && repository.stage && repository.commit) {
        // Kept aside for the publish that names it: nothing in the tree.
        const blob = await repository.stage(file);
        const version = gitBlobSha(file);
        await recordStaged(kvOf(env), editor.id, src, blob, version, now(env));
        return jsonResponse(200, { src, width, height, staged: true });
      }
      await store(repository, src, file, {
        name: editor.name,
        email: editor.email,
      });
      return jsonResponse(200, { src, width, height });
    },
  );
  return {
    onRequest: dispatch(ROUTES.upload, { POST: onRequestPost }),
    onRequestPost,
  };
}

/**
 * Whether the request asks for a staged upload: `?staged=1` (or `true`).
 */
function stagedAsked(request: Request): boolean {
  const value = new URL(request.url).searchParams.get(STAGED_PARAMETER);
  return value === "1" || value === "true";
}

/**
 * Writes the image unless the same bytes are already stored under its name
 * (the name holds the content hash, so the same image twice is stored once).
 */
async function store(
  repository: Repository,
  src: string,
  bytes: Uint8Array,
  author: CommitAuthor,
): Promise<void> {
  const path = `${IMAGES_FOLDER}/${src}`;
  try {
    await repository.write(path, bytes, "", `Add image ${src}`, author);
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    const existing = await repository.read(path);
    if (existing?.version !== gitBlobSha(bytes)) {
      throw new RepositoryError(
        "unavailable",
        `another file is already stored at ${path}`,
      );
    }
  }
}
