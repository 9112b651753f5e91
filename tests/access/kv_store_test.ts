/**
 * The store tests of tests/support/kv_store_cases.ts on Deno KV: one SQLite
 * file, the other handle a second `Deno.openKv` of it.
 */
import { kvStoreCases } from "../support/kv_store_cases.ts";

kvStoreCases("Deno KV", async () => {
  const dir = await Deno.makeTempDir({ prefix: "editor-kv-" });
  const file = `${dir}/kv.sqlite3`;
  const kv = await Deno.openKv(file);
  const others: Deno.Kv[] = [];
  return {
    kv,
    async another() {
      const other = await Deno.openKv(file);
      others.push(other);
      return other;
    },
    async [Symbol.asyncDispose]() {
      for (const handle of [kv, ...others]) handle.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
});
