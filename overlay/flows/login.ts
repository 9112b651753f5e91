/**
 * The opening workflow: from the overlay's start to its pages read, with
 * its stages named. Without the readable edit cookie there is no session:
 * the key is asked first (`asking`), so that no request fails before the
 * editor logs in. Then each page file is read (`reading`); a 401 means the
 * session ended: the key is asked again. The outcome is `ready` with the
 * pages read, `cancelled` (the person closed the login), or `failed` (the
 * alert says why).
 *
 * @module
 */

import { type Client, EditorError } from "../../client/mod.ts";
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

/** How the opening ended. */
export type Opening =
  | { stage: "ready"; pages: ReadPage[] }
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
      const pages: ReadPage[] = [];
      // Each page file once per page view, however many containers show it.
      const files = new Map<string, { content: string; version: string }>();
      for (const path of context.paths) {
        const file = files.get(path) ?? await context.client.read(path);
        files.set(path, file);
        const { content, version } = file;
        pages.push({ path, version, base: JSON.parse(content) as PageObject });
      }
      return { stage: "ready", pages };
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

/** Asks for the key, the bar saying so meanwhile. */
async function login(context: OpeningContext): Promise<boolean> {
  const { store } = context;
  store.dispatch(store.state.tr.setNotice({ code: "logInToEdit" }));
  return await context.askLogin();
}
