/**
 * A git object store in memory for the GitHub double: blobs, trees and
 * commits under their real git object names (a tree's name is the SHA-1 of
 * its git encoding, so a tree made from the same files is the same tree, as
 * on GitHub), and the walks the Git Data API needs (a tree's files, whether
 * a commit descends from another).
 *
 * @module
 */

import { sha1Hex } from "../../lib/digest.ts";
import { gitBlobSha } from "../../lib/repository/repository.ts";

/** A person of a commit, as GitHub shows them. */
export interface Person {
  /** The name. */
  name: string;
  /** The email. */
  email: string;
  /** ISO 8601. */
  date: string;
}

/** A commit of the double. */
export interface DoubleCommit {
  /** Its id. */
  sha: string;
  /** Its message. */
  message: string;
  /** Its author. */
  author: Person;
  /** Its committer. */
  committer: Person;
  /** Its parent's id, or `null` for the first. */
  parent: string | null;
  /** Its tree's id. */
  tree: string;
  /** The files of its tree, by path. */
  files: Map<string, Uint8Array>;
  /** The symbolic links after it: path → target (relative to its folder). */
  links?: Map<string, string>;
}

/** One entry of a tree. */
export interface TreeItem {
  /** The name in its folder. */
  name: string;
  /** `100644`, `100755`, `040000`, … */
  mode: string;
  /** `blob` or `tree`. */
  type: "blob" | "tree";
  /** The object's id. */
  sha: string;
}

const hexBytes = (hex: string) =>
  Uint8Array.from(hex.match(/../g)!, (pair) => parseInt(pair, 16));

/** The blobs, trees and commits of one repository. */
export class GitObjects {
  /** Blobs by id. */
  readonly blobs = new Map<string, Uint8Array>();
  /** Trees by id. */
  readonly trees = new Map<string, TreeItem[]>();
  /** Commits by id. */
  readonly commits = new Map<string, DoubleCommit>();

  /**
   * Stores a blob.
   *
   * @param bytes its content
   * @returns its id
   */
  blob(bytes: Uint8Array): string {
    const sha = gitBlobSha(bytes);
    if (!this.blobs.has(sha)) this.blobs.set(sha, bytes);
    return sha;
  }

  /**
   * Stores the trees of a set of files.
   *
   * @param files the files by path
   * @returns the root tree's id
   */
  treeOf(files: ReadonlyMap<string, Uint8Array>): string {
    const root = new Map<string, unknown>();
    for (const [path, bytes] of files) {
      const parts = path.split("/");
      let folder = root;
      for (const part of parts.slice(0, -1)) {
        let next = folder.get(part);
        if (!(next instanceof Map)) {
          next = new Map<string, unknown>();
          folder.set(part, next);
        }
        folder = next as Map<string, unknown>;
      }
      folder.set(parts.at(-1)!, bytes);
    }
    return this.#write(root);
  }

  #write(folder: Map<string, unknown>): string {
    const items: TreeItem[] = [];
    for (const [name, value] of folder) {
      items.push(
        value instanceof Map
          ? {
            name,
            mode: "040000",
            type: "tree",
            sha: this.#write(value as Map<string, unknown>),
          }
          : {
            name,
            mode: "100644",
            type: "blob",
            sha: this.blob(value as Uint8Array),
          },
      );
    }
    // Git sorts a folder's entries as if a tree's name ended with "/".
    const key = (item: TreeItem) =>
      item.type === "tree" ? `${item.name}/` : item.name;
    items.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    const encoder = new TextEncoder();
    const parts = items.flatMap((item) => [
      encoder.encode(`${item.mode.replace(/^0/, "")} ${item.name}\0`),
      hexBytes(item.sha),
    ]);
    const size = parts.reduce((sum, part) => sum + part.byteLength, 0);
    const sha = sha1Hex(encoder.encode(`tree ${size}\0`), ...parts);
    this.trees.set(sha, items);
    return sha;
  }

  /**
   * The files of a tree, by path.
   *
   * @param tree the tree's id
   * @returns the files, or `undefined` for an unknown tree
   */
  filesOf(tree: string): Map<string, Uint8Array> | undefined {
    const items = this.trees.get(tree);
    if (!items) return undefined;
    const files = new Map<string, Uint8Array>();
    for (const item of items) {
      if (item.type === "tree") {
        for (const [path, bytes] of this.filesOf(item.sha) ?? []) {
          files.set(`${item.name}/${path}`, bytes);
        }
      } else {
        files.set(item.name, this.blobs.get(item.sha)!);
      }
    }
    return files;
  }

  /**
   * Whether `commit` is `ancestor` or descends from it.
   *
   * @param ancestor the older commit's id
   * @param commit the newer commit's id
   * @returns whether moving a branch from one to the other is a fast forward
   */
  descends(ancestor: string, commit: string): boolean {
    for (
      let at: string | null = commit;
      at !== null;
      at = this.commits.get(at)?.parent ?? null
    ) {
      if (at === ancestor) return true;
    }
    return false;
  }
}
