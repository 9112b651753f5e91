/**
 * The overlay's one place for JSON Pointers (RFC 6901): reading and writing
 * a page object, whether one pointer lies inside another, and a field's name
 * in words. Everything else in the overlay goes through these functions, so
 * that the shared pointer module can replace them here alone.
 *
 * @module
 */

export { getPointer, setPointer } from "../../client/mod.ts";
import { unescapeToken } from "../../lib/wire/pointer.ts";

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
 * The part of `pointer` below `ancestor`, as a pointer of its own.
 *
 * @param pointer a pointer within `ancestor`
 * @param ancestor the pointer it lies in
 * @returns `/0/heading` for `/sections/0/heading` below `/sections`
 */
export function below(pointer: string, ancestor: string): string {
  return pointer.slice(ancestor.length);
}

/**
 * A field's name in words: `/sections/0/heading` is "sections 1 heading".
 *
 * @param pointer the field's JSON Pointer
 * @returns its name
 */
export function fieldName(pointer: string): string {
  const words = pointer.split("/").slice(1).map((part) =>
    /^\d+$/.test(part)
      ? String(Number(part) + 1)
      : unescapeToken(part).replaceAll(/[_-]/g, " ")
  );
  return words.join(" ") || "page";
}
