// The Astro configuration of the example site.
//
// The templates import the region helper as `@inpage/editor/regions`. A site
// of your own installs the package (`npx jsr add @inpage/editor`) and needs no
// alias. This example lives inside the package's repository, and its tests and
// `deno task astro-demo` copy it elsewhere with INPAGE_EDITOR_ROOT set to the
// repository: then the alias points at the helper's source.
import { defineConfig } from "astro/config";
import { existsSync } from "node:fs";
import process from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = process.env.INPAGE_EDITOR_ROOT
  ? pathToFileURL(process.env.INPAGE_EDITOR_ROOT + "/")
  : new URL("../../", import.meta.url);
const regions = fileURLToPath(new URL("regions/mod.ts", root));

export default defineConfig({
  redirects: { "/": "/en/" },
  // The editor's bar sits at the bottom of the page, where the toolbar would.
  devToolbar: { enabled: false },
  vite: {
    resolve: {
      alias: existsSync(regions) ? { "@inpage/editor/regions": regions } : {},
    },
  },
});
