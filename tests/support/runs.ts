/**
 * How many runs a property gets: a few hundred in the default tests, at
 * least 10,000 under `deno task stress` (which sets `EDITOR_STRESS=1`).
 *
 * @module
 */

/** Whether the properties run as the stress task asks. */
export const STRESS: boolean = Deno.env.get("EDITOR_STRESS") === "1";

/**
 * The number of runs of a property.
 *
 * @param normal the runs in the default tests
 * @returns `normal`, or at least 10,000 under stress
 */
export function propertyRuns(normal: number): number {
  return STRESS ? Math.max(10_000, normal) : normal;
}
