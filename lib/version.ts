/**
 * The package's version, read from `deno.json` so that it is written once.
 *
 * @module
 */

import config from "../deno.json" with { type: "json" };

/**
 * The version of `@inpage/editor`.
 *
 * @example
 * ```ts
 * import { VERSION } from "./version.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(VERSION, /^\d+\.\d+\.\d+/);
 * ```
 */
export const VERSION: string = config.version;
