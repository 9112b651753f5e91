/**
 * What the local checkout's parts share: turning thrown values into
 * repository errors, and small text and random helpers.
 *
 * @module
 */

import { ConflictError, RepositoryError } from "../repository.ts";

/**
 * Turns a thrown value into a repository error: permission problems become
 * `unauthorized`, the rest `unavailable`. Repository errors pass through.
 */
export function failure(error: unknown, action: string): Error {
  if (error instanceof RepositoryError || error instanceof ConflictError) {
    return error;
  }
  const code = error instanceof Deno.errors.PermissionDenied ||
      error instanceof Deno.errors.NotCapable
    ? "unauthorized"
    : "unavailable";
  return new RepositoryError(code, `${action}: ${describe(error)}`);
}

/** Whether a file-system error means nothing is at the path. */
export function isAbsence(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound ||
    error instanceof Deno.errors.NotADirectory;
}

/** A thrown value's message. */
export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** UTF-8 bytes as text. */
export function decode(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

/** Random lowercase hex, two digits per byte. */
export function randomHex(bytes: number): string {
  return Array.from(
    crypto.getRandomValues(new Uint8Array(bytes)),
    (byte) => byte.toString(16).padStart(2, "0"),
  ).join("");
}
