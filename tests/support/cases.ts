/**
 * Tables of test cases run by one loop.
 *
 * @module
 */

import assert from "node:assert/strict";

/**
 * Registers one test per group of inputs that a rule must refuse, named
 * `<name> refuses <group>`; each input is asserted on its own, its message
 * the input as JSON (so that control characters show).
 *
 * @param name the rule's name, e.g. `isSafeLink`
 * @param rule the rule: `true` for an accepted input
 * @param groups the inputs by what is wrong with them
 */
export function testRefusals(
  name: string,
  rule: (input: string) => boolean,
  groups: Record<string, string[]>,
): void {
  for (const [what, inputs] of Object.entries(groups)) {
    Deno.test(`${name} refuses ${what}`, () => {
      for (const input of inputs) {
        assert.equal(rule(input), false, JSON.stringify(input));
      }
    });
  }
}
