import assert from "node:assert/strict";
import {
  exportNames,
  withPrecompiledWasm,
} from "../../lib/access/precompiled_wasm.ts";
import { argon2Hash } from "../../lib/access/site_key.ts";

/** A module exporting the given function names. */
function moduleBytes(names: string[]): Uint8Array<ArrayBuffer> {
  const text = new TextEncoder();
  const exports = names.flatMap((name) => [
    name.length,
    ...text.encode(name),
    0,
    0,
  ]);
  const section = (id: number, body: number[]) => [id, body.length, ...body];
  return new Uint8Array([
    0,
    0x61,
    0x73,
    0x6d,
    1,
    0,
    0,
    0,
    ...section(1, [1, 0x60, 0, 0]),
    ...section(3, [1, 0]),
    ...section(7, [names.length, ...exports]),
    ...section(10, [1, 2, 0, 0x0b]),
  ]);
}

Deno.test("exportNames reads the export section; other bytes give undefined", () => {
  assert.deepEqual(exportNames(moduleBytes(["a", "Hash_Init"])), [
    "a",
    "Hash_Init",
  ]);
  assert.deepEqual(exportNames(moduleBytes(["x"]).buffer), ["x"]);
  assert.equal(exportNames(new Uint8Array([1, 2, 3])), undefined);
  assert.equal(exportNames(moduleBytes(["a"]).subarray(0, 22)), undefined);
});

Deno.test("withPrecompiledWasm answers the module with the same exports, compiles other bytes, and restores compile", async () => {
  const original = WebAssembly.compile;
  const one = new WebAssembly.Module(moduleBytes(["one"]));
  const two = new WebAssembly.Module(moduleBytes(["two", "three"]));
  const results = await withPrecompiledWasm(
    { argon2: one, blake2b: two },
    async () => [
      await WebAssembly.compile(moduleBytes(["three", "two"])),
      await WebAssembly.compile(moduleBytes(["one"])),
      await WebAssembly.compile(moduleBytes(["four"])),
    ],
  );
  assert.equal(results[0], two);
  assert.equal(results[1], one);
  assert.notEqual(results[2], one);
  assert.deepEqual(WebAssembly.Module.exports(results[2]!).map((e) => e.name), [
    "four",
  ]);
  assert.equal(WebAssembly.compile, original);
});

Deno.test("argon2Hash gives the same hash with and without precompiled modules given", async () => {
  const job = {
    password: "key",
    salt: new Uint8Array(16).fill(7),
    memorySize: 64,
    iterations: 1,
    parallelism: 1,
    hashLength: 32,
  };
  const plain = await argon2Hash(job);
  const unrelated = new WebAssembly.Module(moduleBytes(["nothing"]));
  const again = await argon2Hash(job, {
    argon2: unrelated,
    blake2b: unrelated,
  });
  assert.deepEqual(again, plain);
});
