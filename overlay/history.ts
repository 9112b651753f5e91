/// <reference lib="dom" />
/**
 * Who is logged in, and the door to the History panel. The panel itself
 * (`views/history_panel.ts`: the list of a page's publishes, the preview of
 * a past version in place, restore) is a lazily loaded part of the overlay,
 * imported when the person first presses History.
 *
 * @module
 */

import { type Client, EditorError } from "../client/mod.ts";
import { EDIT_COOKIE } from "../lib/wire/names.ts";
import { plural, text } from "./i18n/mod.ts";
import { failureSentence } from "./messages.ts";
import type { Region } from "./regions.ts";
import {
  addEntries,
  bannerSentence,
  previewFields,
  restoreField,
  restorePage,
  whenText,
} from "./session/history.ts";
import { fieldName } from "./session/pointer.ts";
import type { EditSession } from "./session/session.ts";
import { h, showDialog } from "./ui.ts";

/**
 * Shows "Logged in as …" in an element, asking the server only when the
 * readable `editor_edit` cookie says there is a session (so a visitor or a
 * logged-out editor never causes a 401).
 *
 * @param client the browser client
 * @param element where the words go; hidden when unknown
 */
export async function showEditor(
  client: Pick<Client, "session">,
  element: HTMLElement,
): Promise<void> {
  const cookie = new RegExp(`(?:^|;\\s*)${EDIT_COOKIE}=1(?:;|$)`);
  if (!cookie.test(document.cookie)) return;
  try {
    const { editor } = await client.session();
    element.textContent = text("loggedInAs", { name: editor.name });
    element.hidden = false;
  } catch {
    element.hidden = true;
  }
}

/** What the History panel works with. */
export interface HistoryContext {
  /** The overlay's shadow root. */
  root: ShadowRoot;
  /** The browser client. */
  client: Pick<Client, "history" | "readAt">;
  /** The edit session, which restores become changes of. */
  session: EditSession;
  /** The page's regions. */
  regions(): readonly Region[];
}

/**
 * What the panel uses of the overlay's every-editor code, handed to it so
 * that its part imports nothing at run time and the bundle makes no chunk
 * shared between them (every editor's overlay stays one file).
 */
const KIT = {
  h,
  showDialog,
  fieldName,
  text,
  plural,
  logic: {
    addEntries,
    bannerSentence,
    previewFields,
    restoreField,
    restorePage,
    whenText,
  },
  /** The sentence for a failure, or `fallback` for one not the client's. */
  sentence: (error: unknown, fallback: string): string =>
    error instanceof EditorError ? failureSentence(error) : fallback,
};

/** The overlay's code the History panel uses: see {@linkcode KIT}. */
export type HistoryKit = typeof KIT;

let part: Promise<typeof import("./views/history_panel.ts")> | undefined;

/**
 * Opens the History panel, loading its part first if needed.
 *
 * @param context the overlay's root, client, session and regions
 * @returns when the panel (or the preview it opened) is shown
 */
export async function openHistory(context: HistoryContext): Promise<void> {
  let panel: typeof import("./views/history_panel.ts");
  try {
    part ??= import("./views/history_panel.ts");
    panel = await part;
  } catch {
    part = undefined;
    context.session.setAlert(text("historyLoadFailed"));
    return;
  }
  await panel.showHistory(context, KIT);
}
