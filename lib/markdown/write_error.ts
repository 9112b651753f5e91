/**
 * The error of the markdown engine: an editor's document that markdown
 * cannot hold (a node or mark it has no form for), or a write-back that
 * would not read back as the document (never expected; a test runs real
 * documents and random ones through it).
 *
 * @module
 */

/**
 * A document the engine cannot write as markdown.
 *
 * @example
 * ```ts
 * import { MarkdownWriteError } from "./write_error.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new MarkdownWriteError("a table has no markdown");
 * assert.equal(error.name, "MarkdownWriteError");
 * ```
 */
export class MarkdownWriteError extends Error {
  /**
   * Creates the error.
   *
   * @param message what cannot be written, in words
   */
  constructor(message: string) {
    super(message);
    this.name = "MarkdownWriteError";
  }
}
