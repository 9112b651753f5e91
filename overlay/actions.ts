/// <reference lib="dom" />
/**
 * What the bar's buttons and the page's dialogs do, as the controller runs
 * them: publish (the publish flow, its questions asked in dialogs), discard
 * everything, log out, preview, History, the Page panel, a new image and
 * an image's alt text. Each turns the person's answer into a transaction
 * of the store.
 *
 * @module
 */

import { EditorError } from "../client/mod.ts";
import type { Client } from "../client/mod.ts";
import type { Drafts } from "./io/drafts.ts";
import type { ChosenImages } from "./io/images.ts";
import type { Tabs } from "./io/tabs.ts";
import type { Store } from "./store.ts";
import type { Shell } from "./views/shell.ts";
import { publish } from "./flows/publish.ts";
import { sendForReview } from "./flows/review.ts";
import { reviewsAction } from "./review_actions.ts";
import { type HistoryContext, openHistory, showEditor } from "./history.ts";
import { pendingPublish } from "./io/published.ts";
import type { PageView } from "./page_view.ts";
import type { Region } from "./regions.ts";
import { discardAll, setField } from "./state/commands.ts";
import { redo, undo } from "./state/history.ts";
import { changeCount } from "./state/count.ts";
import { valueAt } from "./state/fields.ts";
import { problemsOf } from "./state/problems.ts";
import { text } from "./i18n/mod.ts";
import { panelFields, panelGroups } from "./state/page_fields.ts";
import { INPAGE_ATTRIBUTES } from "../lib/wire/regions.ts";
import { editAlt as askAlt } from "./views/alt_text.ts";
import type { BarActions, BarView } from "./views/bar.ts";
import { askConflict } from "./views/conflict_dialog.ts";
import { chooseImage, imageFormatOf } from "./views/image_dialog.ts";
import { askLogin } from "./views/login_dialog.ts";
import { openPagePanel } from "./views/page_panel.ts";
import { createPreview, type Preview } from "./views/preview.ts";
import { askEmptied, askLoseChanges, showHeldBack } from "./views/questions.ts";
import type { Toolbar } from "./views/toolbar.ts";

/** What the controller works with. */
export interface ControllerParts {
  /** The store. */
  store: Store;
  /** The browser client. */
  client: Client;
  /** The overlay's shell. */
  shell: Shell;
  /** The chosen images' bytes. */
  images: ChosenImages;
  /** This tab's drafts, once known. */
  drafts?: Drafts;
  /** This tab among the others, once known. */
  tabs?: Tabs;
}

/** What the actions work with. */
export interface ActionContext extends ControllerParts {
  /** The page being edited, once mounted. */
  page(): PageView | undefined;
  /** The formatting toolbar. */
  toolbar: Toolbar;
  /** The bar, once built. */
  bar?: BarView;
  /** Gives the focus back to where the person was working. */
  returnFocus(): void;
  /** Brings a field into view and focuses it. */
  focusField(path: string, at: string): void;
  /** Docks an element at the bottom, the page keeping room for it. */
  hold(element: HTMLElement): () => void;
  /** Whether the page is shown as a visitor sees it (set by the bar). */
  previewing?(): boolean;
  /** Leaving the page asks nothing any more. */
  unguard(): void;
}

/** A field's name, or its pointer while no page is mounted. */
const labelOf = (context: ActionContext) => (path: string, at: string) =>
  context.page()?.label(path, at) ?? at;

/**
 * The bar's actions.
 *
 * @param context what the actions work with
 * @returns the bar's actions
 */
export function barActions(context: ActionContext): BarActions {
  const { store } = context;
  let preview: Preview | undefined;
  const previewSwitch = () =>
    preview ??= createPreview(
      () => context.page()?.regions ?? [],
      (region) => store.state.valueOf(region.path, region.pointer),
    );
  context.previewing = () => preview?.on ?? false;
  const setPreview = (on: boolean) => {
    if (on) context.toolbar.hide();
    previewSwitch().set(on);
    context.bar?.showMode(on);
    // The misfits' notes go too.
    context.shell.ui.toggleAttribute("data-preview", on);
  };
  return {
    undo: () => store.dispatch(undo(store.state)),
    redo: () => store.dispatch(redo(store.state)),
    discardAll: () => void discard(context),
    publish: () => void publishAction(context),
    message: (words) => store.dispatch(store.state.tr.setMessage(words)),
    logout: () => void logout(context),
    preview: setPreview,
    page: () => void pagePanel(context),
    sendForReview: () =>
      void sendForReview(context).then(() => context.returnFocus()),
    reviews: () => void reviewsAction(context),
    history: () => {
      // A past version is shown over the page as it is edited.
      if (preview?.on) setPreview(false);
      void openHistory(inPlaceContext(context));
    },
  };
}

/**
 * What the part that shows another version in place (History, an open
 * review) works with.
 *
 * @param context what the actions work with
 * @returns the root, client, store, regions, labels and dock
 */
export function inPlaceContext(context: ActionContext): HistoryContext {
  return {
    root: context.shell.root,
    client: context.client,
    store: context.store,
    regions: () => context.page()?.regions ?? [],
    label: labelOf(context),
    dock: context.hold,
  };
}

/**
 * Publish: the flow, its questions asked in dialogs.
 *
 * @param context what the actions work with
 */
export async function publishAction(context: ActionContext): Promise<void> {
  const { store, client, shell } = context;
  const label = labelOf(context);
  const outcome = await publish({
    store,
    client,
    images: context.images,
    pending: pendingPublish,
    ask: {
      heldBack: (problems) =>
        showHeldBack(shell.root, problems, {
          label,
          focus: context.focusField,
        }),
      emptied: (problems) =>
        askEmptied(
          shell.root,
          problems,
          label,
          (path, at) => valueAt(store.state.page(path)?.base, at),
        ),
      conflict: (fields, path) =>
        askConflict(shell.root, fields, (at) => label(path, at)),
      login: async () => {
        const yes = await askLogin(shell.root, client, text("sessionEnded"));
        if (yes && context.bar) {
          void showEditor(client, context.bar.who, context.bar.setRole);
        }
        return yes;
      },
    },
    published: (path, version, content) =>
      context.tabs?.say({
        type: "published",
        tab: context.tabs.id,
        path,
        version,
        content: JSON.stringify(content),
      }),
    reload: (path) => {
      context.drafts?.clear(path);
      context.unguard();
      location.reload();
    },
  });
  if (outcome === "refused" || outcome === "failed") {
    const first = problemsOf(store.state).find((problem) => !problem.local);
    if (first) {
      context.page()?.elementAt(first.path, first.at)?.scrollIntoView({
        block: "center",
      });
    }
  }
  if (outcome !== "held-back") context.returnFocus();
}

/** Discard all, after asking. */
async function discard(context: ActionContext): Promise<void> {
  const { store, shell } = context;
  const count = changeCount(store.state);
  if (count === 0) return;
  if (!await askLoseChanges(shell.root, "discard", count)) return;
  store.dispatch(discardAll(store.state));
  context.images.forget();
}

/** Log out, after asking when changes are unsaved. */
async function logout(context: ActionContext): Promise<void> {
  const { store, shell, client } = context;
  const count = changeCount(store.state);
  if (count > 0 && !await askLoseChanges(shell.root, "logout", count)) return;
  try {
    await client.logout();
  } catch (error) {
    store.dispatch(
      store.state.tr.setNotice({ code: "notLoggedOut" }).setAlert(
        error instanceof EditorError
          ? { code: "failure", error: error.code }
          : { code: "logoutFailed" },
      ),
    );
    return;
  }
  context.unguard();
  const url = new URL(location.href);
  url.searchParams.delete("edit");
  location.replace(url.href);
}

/** The Page panel: Done keeps its changes, Cancel or Escape takes them back. */
async function pagePanel(context: ActionContext): Promise<void> {
  const { store, shell } = context;
  const page = context.page();
  if (!page || store.state.busy) return;
  const opened = store.state;
  const group = `panel ${Date.now()}`;
  await openPagePanel(
    shell.root,
    {
      valueOf: (path, pointer) => store.state.valueOf(path, pointer),
      readOf: (path, pointer) => valueAt(opened.page(path)?.base, pointer),
      set: (path, pointer, value) =>
        // The Page panel may add a field the file does not hold yet.
        store.dispatch(
          setField(store.state, path, pointer, value, {
            newKey: true,
            group: `${group} ${pointer}`,
          }),
        ),
      revert: () => {
        const tr = store.state.tr;
        for (const each of opened.pages) tr.replace(each.path, each.changes);
        store.dispatch(
          tr.setMeta("addToHistory", false).setMeta("history", opened.history),
        );
      },
    },
    panelGroups(page.pages.map(({ path, container }) => ({
      path,
      fields: panelFields(
        container.getAttribute(INPAGE_ATTRIBUTES.fields),
        (store.state.valueOf(path, "") ?? {}) as Record<string, unknown>,
        shownPointers(page, path, container),
      ),
      named: container.hasAttribute(INPAGE_ATTRIBUTES.fields),
      inMain: container.closest("main") !== null,
    }))),
  );
}

/** The pointers a page's regions, lists and links show. */
function shownPointers(
  page: PageView,
  path: string,
  container: HTMLElement,
): string[] {
  return [
    ...page.regions.filter((region) => region.path === path).map((region) =>
      region.pointer
    ),
    ...page.lists.pointers(path),
    ...[...container.querySelectorAll(`[${INPAGE_ATTRIBUTES.link}]`)].map((
      element,
    ) => element.getAttribute(INPAGE_ATTRIBUTES.link) ?? ""),
  ];
}

/**
 * A new image for an image region: chosen, cropped and converted in the
 * dialog, kept until publish, shown at once with its alt.
 *
 * @param context what the actions work with
 * @param region the image region
 * @param image its `<img>`
 */
export async function replaceImage(
  context: ActionContext,
  region: Region,
  image: HTMLImageElement | null,
): Promise<void> {
  const { store, shell, images } = context;
  if (store.state.busy) return;
  const current = store.state.valueOf(region.path, region.pointer);
  const media = typeof current === "object" && current !== null
    ? current as Record<string, unknown>
    : {};
  const format = imageFormatOf(
    region.element.closest(`[${INPAGE_ATTRIBUTES.page}]`),
  );
  // A new file needs its own alt text: the dialog starts it empty.
  const prepared = await chooseImage(shell.root, format);
  if (!prepared) return;
  const src = images.add(
    prepared.blob,
    `${prepared.name}.${prepared.extension}`,
  );
  region.preview?.(prepared.blob, src);
  if (image) {
    image.width = prepared.width;
    image.height = prepared.height;
  }
  const tr = setField(store.state, region.path, region.pointer, {
    ...media,
    src,
    width: prepared.width,
    height: prepared.height,
    alt: prepared.alt,
  });
  store.dispatch(
    prepared.fallback
      ? tr?.setAlert({ code: "imageFallback", ...prepared.fallback })
      : tr,
  );
}

/**
 * An image's alt text, edited on its own.
 *
 * @param context what the actions work with
 * @param region the image region
 */
export async function editAlt(
  context: ActionContext,
  region: Region,
): Promise<void> {
  const { store, shell } = context;
  const value = store.state.valueOf(region.path, region.pointer);
  const media = typeof value === "object" && value !== null
    ? value as Record<string, unknown>
    : {};
  const alt = await askAlt(
    shell.root,
    typeof media.alt === "string" ? media.alt : undefined,
  );
  if (alt === undefined) return;
  store.dispatch(
    setField(store.state, region.path, region.pointer, { ...media, alt }),
  );
}
