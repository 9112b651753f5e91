/**
 * Runs hash-wasm with WebAssembly modules the host compiled ahead of time,
 * for hosts that forbid compiling WebAssembly at run time (Cloudflare's
 * workerd). hash-wasm compiles its embedded bytes once per module with
 * `WebAssembly.compile`; while a computation given precompiled modules
 * runs, that call answers the supplied module whose exports are the exports
 * declared in the bytes, and compiles anything else as before.
 *
 * @module
 */

/** Precompiled hash-wasm modules: its `argon2` and `blake2b` WebAssembly. */
export interface PrecompiledArgon2 {
  /** hash-wasm's argon2 module. */
  argon2: WebAssembly.Module;
  /** hash-wasm's blake2b module (argon2 hashes its input with it). */
  blake2b: WebAssembly.Module;
}

type Compile = typeof WebAssembly.compile;

let active = 0;
let original: Compile | undefined;
let supplied: WebAssembly.Module[] = [];

/**
 * Runs `work` while `WebAssembly.compile` answers the supplied modules for
 * the bytes they were compiled from.
 *
 * @param modules the precompiled modules
 * @param work the computation that may compile them
 * @returns what `work` returns
 * @example
 * ```ts
 * import { withPrecompiledWasm } from "./precompiled_wasm.ts";
 * import assert from "node:assert/strict";
 *
 * // A module with one export, compiled ahead of time.
 * const bytes = new Uint8Array([
 *   0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0,
 *   7, 5, 1, 1, 102, 0, 0, 10, 4, 1, 2, 0, 11,
 * ]);
 * const module = new WebAssembly.Module(bytes);
 * const found = await withPrecompiledWasm(
 *   { argon2: module, blake2b: module },
 *   () => WebAssembly.compile(bytes),
 * );
 * assert.equal(found, module);
 * ```
 */
export async function withPrecompiledWasm<T>(
  modules: PrecompiledArgon2,
  work: () => Promise<T>,
): Promise<T> {
  if (active++ === 0) {
    original = WebAssembly.compile;
    const compile = original;
    WebAssembly.compile = (bytes: BufferSource) => {
      const match = matching(bytes);
      return match ? Promise.resolve(match) : compile.call(WebAssembly, bytes);
    };
  }
  supplied = [modules.argon2, modules.blake2b];
  try {
    return await work();
  } finally {
    if (--active === 0 && original) {
      WebAssembly.compile = original;
      original = undefined;
    }
  }
}

function matching(bytes: BufferSource): WebAssembly.Module | undefined {
  const names = exportNames(bytes);
  if (!names) return undefined;
  const key = names.sort().join("\n");
  return supplied.find((module) =>
    WebAssembly.Module.exports(module).map((entry) => entry.name).sort()
      .join("\n") === key
  );
}

/**
 * The export names declared in WebAssembly bytes, or `undefined` when the
 * bytes cannot be read as a module.
 */
export function exportNames(source: BufferSource): string[] | undefined {
  const bytes = ArrayBuffer.isView(source)
    ? new Uint8Array(source.buffer, source.byteOffset, source.byteLength)
    : new Uint8Array(source);
  let at = 8;
  const leb = (): number => {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const byte = bytes[at++];
      if (byte === undefined) throw new RangeError("truncated");
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
    throw new RangeError("LEB128 too long");
  };
  try {
    if (bytes[0] !== 0 || bytes[1] !== 0x61) return undefined;
    while (at < bytes.length) {
      const id = bytes[at++];
      const size = leb();
      const end = at + size;
      if (id === 7) {
        const names: string[] = [];
        for (let count = leb(); count > 0; count--) {
          const length = leb();
          names.push(
            new TextDecoder().decode(bytes.subarray(at, at + length)),
          );
          at += length + 1;
          leb();
        }
        return names;
      }
      at = end;
    }
    return [];
  } catch {
    return undefined;
  }
}
