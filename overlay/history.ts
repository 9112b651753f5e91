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
import { INPAGE_ATTRIBUTES } from "../lib/wire/regions.ts";
import { hasEditCookie } from "./state/login_state.ts";
import { plural, text } from "./i18n/mod.ts";
import { dateTime, failureSentence } from "./messages.ts";
import type { HistoryContext, HistoryKit } from "./views/history_types.ts";
import {
  addEntries,
  differingFields,
  previewFields,
  restoreField,
  restorePage,
} from "./state/versions.ts";
import { restoreFields } from "./state/commands.ts";
import { h, showDialog } from "./ui.ts";
import { bannerWords } from "./views/words.ts";

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
  role?: (role: "author" | "publisher") => void,
): Promise<void> {
  if (!hasEditCookie(document.cookie)) return;
  try {
    const { editor } = await client.session();
    element.textContent = text("loggedInAs", { name: editor.name });
    element.hidden = false;
    role?.(editor.role ?? "publisher");
  } catch {
    element.hidden = true;
  }
}

export type { HistoryContext, HistoryKit };

/**
 * What the panel uses of the overlay's every-editor code, handed to it so
 * that its part imports nothing at run time and the bundle makes no chunk
 * shared between them (every editor's overlay stays one file).
 */
const KIT: HistoryKit = {
  h,
  showDialog,
  text,
  plural,
  dateTime,
  bannerWords,
  logic: {
    addEntries,
    differingFields,
    previewFields,
    restoreField,
    restoreFields,
    restorePage,
  },
  /** The sentence for a failure, or `fallback` for one not the client's. */
  sentence: (error: unknown, fallback: string): string =>
    error instanceof EditorError ? failureSentence(error) : fallback,
  attributes: INPAGE_ATTRIBUTES,
};

let part: Promise<typeof import("./views/history_panel.ts")> | undefined;

/**
 * Opens the History panel, loading its part first if needed.
 *
 * @param context the overlay's root, client, store and regions
 * @returns when the panel (or the preview it opened) is shown
 */
export async function openHistory(context: HistoryContext): Promise<void> {
  let panel: typeof import("./views/history_panel.ts");
  try {
    part ??= import("./views/history_panel.ts");
    panel = await part;
  } catch {
    part = undefined;
    const { store } = context;
    store.dispatch(store.state.tr.setAlert({ code: "historyLoadFailed" }));
    return;
  }
  await panel.showHistory(context, KIT);
}
