/**
 * The three-way merge behind "Keep mine": this person's changed fields
 * (mine), the values they started from (base) and the page as someone else
 * published it meanwhile (theirs), compared field by field. A field changed
 * on one side only takes that side; a field changed on both sides to
 * different values is a clash, settled by a choice per field.
 *
 * The merge itself is the package's one, shared with the server's publish
 * of a review (`lib/wire/merge.ts`); this module names it for the overlay.
 *
 * @module
 */

export {
  type Choice,
  compareFields,
  keepMine,
  type MergeField,
  type MergeResult,
  resolveFields,
} from "../../lib/wire/merge.ts";
