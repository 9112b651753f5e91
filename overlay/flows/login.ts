/**
 * The opening workflow: from the overlay's start to its pages read, with
 * its stages named. Without the readable edit cookie there is no session:
 * the key is asked first (`asking`), so that no request fails before the
 * editor logs in. Then each page file is read (`reading`); a 401 means the
 * session ended: the key is asked again. A file the server refuses to
 * name (400), cannot find (404) or that is not a JSON object is broken:
 * its containers stand alone, the others are edited all the same. The
 * outcome is `ready` with the pages read and the broken ones, `cancelled`
 * (the person closed the login), or `failed` (the alert says why).
 *
 * @module
 */

import { type Client, EditorError } from "../../client/mod.ts";
import type { BrokenPage } from "../state/notices.ts";
import type { PageObject } from "../state/values.ts";
import type { Store } from "../store.ts";

/** A page file as read. */
export interface ReadPage {
  /** The page path. */
  path: string;
  /** Its version. */
  version: string;
  /** The page object. */
  base: PageObject;
}

/** Why a page file cannot be edited. */
export type BrokenReason = BrokenPage["reason"];

export type { BrokenPage };

/** How the opening ended. */
export type Opening =
  | { stage: "ready"; pages: ReadPage[]; broken: BrokenPage[] }
  | { stage: "cancelled" }
  | { stage: "failed" };

/** What the opening works with. */
export interface OpeningContext {
  /** The store (its notice and alert say where it is). */
  store: Store;
  /** The browser client. */
  client: Pick<Client, "read">;
  /** The page files the page shows. */
  paths: readonly string[];
  /** Whether the readable edit cookie says a session exists. */
  hasSession: boolean;
  /** Asks for the key; true once logged in. */
  askLogin(): Promise<boolean>;
}

/**
 * Opens the pages: logs in when needed, reads every page file.
 *
 * @param context the store, client, paths and login question
 * @returns how it ended
 */
export async function openPages(context: OpeningContext): Promise<Opening> {
  const { store } = context;
  if (!context.hasSession && !await login(context)) {
    return { stage: "cancelled" };
  }
  while (true) {
    try {
      return { stage: "ready", ...await readPages(context) };
    } catch (error) {
      if (error instanceof EditorError && error.code === "unauthorized") {
        if (!await login(context)) return { stage: "cancelled" };
        continue;
      }
      store.dispatch(
        store.state.tr.setNotice({ code: "notReady" }).setAlert(
          error instanceof EditorError
            ? { code: "failure", error: error.code }
            : { code: "cannotStart" },
        ),
      );
      return { stage: "failed" };
    }
  }
}

/** Why the answer to a read makes its file broken, if it does. */
function brokenBy(error: unknown): BrokenReason | undefined {
  if (!(error instanceof EditorError)) return undefined;
  return error.status === 400
    ? "refused"
    : error.status === 404
    ? "missing"
    : undefined;
}

/** The page object a file holds, or undefined when it holds none. */
function pageObject(content: string): PageObject | undefined {
  try {
    const value: unknown = JSON.parse(content);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? value as PageObject
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads each page file once per page view, however many containers show
 * it: one read page per container whose file is not broken, in the
 * containers' order; a broken file is set aside, any other failure is
 * thrown.
 */
async function readPages(
  context: OpeningContext,
): Promise<{ pages: ReadPage[]; broken: BrokenPage[] }> {
  const pages: ReadPage[] = [];
  const broken = new Map<string, BrokenReason>();
  const files = new Map<string, { content: string; version: string }>();
  for (const path of context.paths) {
    if (broken.has(path)) continue;
    try {
      const file = files.get(path) ?? await context.client.read(path);
      files.set(path, file);
      const base = pageObject(file.content);
      if (base === undefined) broken.set(path, "unreadable");
      else pages.push({ path, version: file.version, base });
    } catch (error) {
      const reason = brokenBy(error);
      if (reason === undefined) throw error;
      broken.set(path, reason);
    }
  }
  return {
    pages,
    broken: [...broken].map(([path, reason]) => ({ path, reason })),
  };
}

/** Asks for the key, the bar saying so meanwhile. */
async function login(context: OpeningContext): Promise<boolean> {
  const { store } = context;
  store.dispatch(store.state.tr.setNotice({ code: "logInToEdit" }));
  return await context.askLogin();
}
