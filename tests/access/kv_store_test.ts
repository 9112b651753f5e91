/**
 * The store tests of tests/support/kv_store_cases.ts on Deno KV: one SQLite
 * file, the other handle a second `Deno.openKv` of it; then the same through
 * `lazyKv`, which opens the store at its first call.
 */
import { lazyKv } from "../../mod.ts";
import { kvStoreCases } from "../support/kv_store_cases.ts";

for (const lazily of [false, true]) {
  kvStoreCases(lazily ? "Deno KV opened lazily" : "Deno KV", async () => {
    const dir = await Deno.makeTempDir({ prefix: "editor-kv-" });
    const file = `${dir}/kv.sqlite3`;
    const handles: Deno.Kv[] = [];
    const open = async () => {
      const kv = await Deno.openKv(file);
      handles.push(kv);
      return kv;
    };
    const handle = () => lazily ? Promise.resolve(lazyKv(open)) : open();
    return {
      kv: await handle(),
      another: handle,
      async [Symbol.asyncDispose]() {
        for (const kv of handles) kv.close();
        await Deno.remove(dir, { recursive: true });
      },
    };
  });
}
