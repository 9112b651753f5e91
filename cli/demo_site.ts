/**
 * A small demo site for `editor serve --demo`: two locales, three pages, in
 * a fresh git repository in a temporary folder.
 *
 * @module
 */

import { join } from "node:path";

const PAGES: Record<string, unknown> = {
  "src/content/pages/en/home.json": {
    title: "Welcome",
    sections: [
      {
        id: "intro",
        heading: "In-place editing",
        body:
          'Edit this text from the page itself. <strong>Bold</strong>, <em>emphasis</em> and <a href="/about" title="About us">links</a> are allowed.',
      },
      {
        id: "hero",
        image: {
          src: "hero-3f2a9c1b7d4e.jpg",
          width: 1200,
          height: 630,
          alt: "A quiet harbour",
        },
      },
    ],
  },
  "src/content/pages/en/about.json": {
    title: "About",
    sections: [{
      id: "team",
      heading: "The team",
      body: "We build <b>small</b> sites.",
    }],
  },
  "src/content/pages/fr/accueil.json": {
    title: "Bienvenue",
    sections: [
      {
        id: "intro",
        heading: "Édition en place",
        body: "Modifiez ce texte depuis la page.",
      },
    ],
  },
};

/**
 * Creates the demo site in a new temporary folder, as a git repository with
 * one commit (git identity set locally in that repository only).
 *
 * @returns the folder
 */
export async function createDemoSite(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "inpage-editor-demo-" });
  for (const [path, page] of Object.entries(PAGES)) {
    const file = join(root, path);
    await Deno.mkdir(join(file, ".."), { recursive: true });
    await Deno.writeTextFile(file, JSON.stringify(page, null, 2) + "\n");
  }
  await Deno.mkdir(join(root, "public/images"), { recursive: true });
  await Deno.writeTextFile(join(root, "public/images/.gitkeep"), "");
  await Deno.writeTextFile(
    join(root, "README.md"),
    "# Demo site for @inpage/editor\n",
  );
  for (
    const args of [
      ["init", "--quiet", "--initial-branch=main"],
      ["config", "user.name", "Demo editor"],
      ["config", "user.email", "demo@localhost"],
      ["add", "--all"],
      ["commit", "--quiet", "--no-verify", "-m", "Demo site"],
    ]
  ) {
    const { success, stderr } = await new Deno.Command("git", {
      args: ["-C", root, ...args],
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!success) {
      throw new Error(
        `git ${args[0]} failed: ${new TextDecoder().decode(stderr).trim()}`,
      );
    }
  }
  return root;
}
