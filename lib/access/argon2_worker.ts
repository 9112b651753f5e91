/**
 * The worker that computes one argon2id hash off the main thread, so that a
 * key check (about 350 ms of memory-hard work) never stalls other requests.
 * It answers one message and is then terminated by `site_key.ts`.
 *
 * @module
 */

import { argon2id } from "hash-wasm";
import type { Argon2Job as Job } from "../http/env.ts";

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<Job>) => void) | null;
  postMessage(message: unknown, transfer: Transferable[]): void;
};

scope.onmessage = async (event) => {
  const hash = await argon2id({ ...event.data, outputType: "binary" });
  scope.postMessage(hash, [hash.buffer as ArrayBuffer]);
};
