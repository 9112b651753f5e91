/**
 * A small demo site for `editor serve --demo`: two locales, three pages, in
 * a fresh git repository in a temporary folder.
 *
 * @module
 */

import { join } from "node:path";
import { IMAGES_FOLDER, PAGES_FOLDER } from "../lib/wire/names.ts";

const PAGES: Record<string, unknown> = {
  [`${PAGES_FOLDER}/en/home.json`]: {
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
  [`${PAGES_FOLDER}/en/about.json`]: {
    title: "About",
    sections: [{
      id: "team",
      heading: "The team",
      body: "We build <b>small</b> sites.",
    }],
  },
  [`${PAGES_FOLDER}/fr/accueil.json`]: {
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
  await Deno.mkdir(join(root, IMAGES_FOLDER), { recursive: true });
  await Deno.writeTextFile(join(root, IMAGES_FOLDER, ".gitkeep"), "");
  await Deno.writeTextFile(
    join(root, "README.md"),
    "# Demo site for @inpage/editor\n",
  );
  await commitAll(root, "Demo site");
  return root;
}

/**
 * Makes a folder a git repository with one commit of everything in it, the
 * commit's identity set in that repository only.
 *
 * @param root the folder
 * @param message the commit message
 * @throws {Error} naming the git step that failed, with git's own words
 */
export async function commitAll(root: string, message: string): Promise<void> {
  for (
    const args of [
      ["init", "--quiet", "--initial-branch=main"],
      ["config", "user.name", "Demo editor"],
      ["config", "user.email", "demo@localhost"],
      ["add", "--all"],
      ["commit", "--quiet", "--no-verify", "-m", message],
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
}

/**
 * Copies a folder's files and folders (links are left out) into another.
 *
 * @param from the folder to copy
 * @param to where the copy goes (made when missing)
 * @param skip names left out at every depth (`node_modules`, say)
 */
export async function copyTree(
  from: string,
  to: string,
  skip: ReadonlySet<string> = new Set(),
): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (skip.has(entry.name)) continue;
    const source = join(from, entry.name);
    if (entry.isDirectory) await copyTree(source, join(to, entry.name), skip);
    else if (entry.isFile) await Deno.copyFile(source, join(to, entry.name));
  }
}
