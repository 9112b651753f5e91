/**
 * The loader writes the content route out (importing the routes table
 * would add a chunk shared with the overlay, one more request): it is the
 * table's.
 */
import assert from "node:assert/strict";
import { ROUTES } from "../../lib/wire/names.ts";

Deno.test("the loader's content route is the routes table's", async () => {
  const source = await Deno.readTextFile(
    new URL("../../overlay/loader.ts", import.meta.url),
  );
  assert.match(
    source,
    new RegExp(`export const CONTENT_ROUTE = "${ROUTES.content.path}";`),
  );
});
