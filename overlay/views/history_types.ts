/// <reference lib="dom" />
/**
 * What the History panel and the open review (a lazily loaded part) are
 * handed by the overlay's entry: the context it works in and the kit of the entry's code it uses,
 * so that the part imports nothing of the entry at run time (every
 * editor's overlay stays one file) and neither imports the other.
 *
 * @module
 */

import type { Client } from "../../client/mod.ts";
import type { INPAGE_ATTRIBUTES } from "../../lib/wire/regions.ts";
import type { Region } from "../regions.ts";
import type { Store } from "../store.ts";
import type { restoreFields } from "../state/commands.ts";
import type {
  addEntries,
  differingFields,
  previewFields,
  restoreField,
  restorePage,
} from "../state/versions.ts";
import type { h, showDialog } from "../ui.ts";
import type { plural, text } from "../i18n/mod.ts";
import type { dateTime } from "../messages.ts";
import type { bannerWords } from "./words.ts";
import type { reviewFields, unseenChanges } from "../preview/plan.ts";

/** What the History panel works with. */
export interface HistoryContext {
  /** The overlay's shadow root. */
  root: ShadowRoot;
  /** The browser client. */
  client: Pick<Client, "history" | "readAt">;
  /** The store, which restores are transactions of. */
  store: Store;
  /** The page's regions. */
  regions(): readonly Region[];
  /** A field's name for a person. */
  label(path: string, at: string): string;
  /** Docks the banner at the bottom, the page keeping room for it. */
  dock(element: HTMLElement): () => void;
}

/** The entry's code the panel uses. */
export interface HistoryKit {
  /** Makes an element. */
  h: typeof h;
  /** Shows a modal dialog. */
  showDialog: typeof showDialog;
  /** A sentence of the interface. */
  text: typeof text;
  /** A sentence depending on a count. */
  plural: typeof plural;
  /** A date in the interface's one format. */
  dateTime: typeof dateTime;
  /** The banner's sentence. */
  bannerWords: typeof bannerWords;
  /** The history's and the review's logic, and the restore command. */
  logic: {
    addEntries: typeof addEntries;
    differingFields: typeof differingFields;
    previewFields: typeof previewFields;
    restoreField: typeof restoreField;
    restoreFields: typeof restoreFields;
    restorePage: typeof restorePage;
    reviewFields: typeof reviewFields;
    unseenChanges: typeof unseenChanges;
  };
  /** The sentence for a failure, or `fallback` for one not the client's. */
  sentence(error: unknown, fallback: string): string;
  /** The page's attributes, from the region contract. */
  attributes: typeof INPAGE_ATTRIBUTES;
}
