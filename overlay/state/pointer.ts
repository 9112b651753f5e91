/**
 * The overlay's JSON Pointers (RFC 6901): reading and writing a page
 * object through the shared pointer module (`lib/wire/pointer.ts`), and
 * whether one pointer lies inside another.
 *
 * @example
 * ```ts
 * import { below, isWithin } from "./pointer.ts";
 *
 * console.assert(isWithin("/sections/0/heading", "/sections"));
 * console.assert(below("/sections/0/heading", "/sections") === "/0/heading");
 * ```
 *
 * @module
 */

export { getPointer, setPointer } from "../../lib/wire/pointer.ts";

/**
 * Whether `pointer` is `ancestor` or lies inside it.
 *
 * @param pointer a JSON Pointer
 * @param ancestor another
 * @returns true for `/sections/0/heading` inside `/sections`
 */
export function isWithin(pointer: string, ancestor: string): boolean {
  return pointer === ancestor || ancestor === "" ||
    pointer.startsWith(`${ancestor}/`);
}

/**
 * Whether two pointers overlap: one is the other or lies inside it.
 *
 * @param a a JSON Pointer
 * @param b another
 * @returns true for `/sections` and `/sections/0/heading`, either way
 */
export function overlaps(a: string, b: string): boolean {
  return isWithin(a, b) || isWithin(b, a);
}

/**
 * The part of `pointer` below `ancestor`, as a pointer of its own.
 *
 * @param pointer a pointer within `ancestor`
 * @param ancestor the pointer it lies in
 * @returns `/0/heading` for `/sections/0/heading` below `/sections`
 */
export function below(pointer: string, ancestor: string): string {
  return pointer.slice(ancestor.length);
}
