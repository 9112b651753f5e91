/// <reference lib="dom" />
/**
 * The editing overlay, loaded by the loader only for an editor. It finds the
 * page's regions (`data-inpage-page` containers holding the kinds of region
 * the contract names, `lib/wire/regions.ts`), asks for the site key when
 * there is no session, makes the regions editable in place, and publishes
 * the changed page files through the browser client. Its interface lives in
 * an open shadow root.
 *
 * This file is the wiring, and short: the edit state (`state/`) is an
 * immutable value changed by transactions through the store (`store.ts`);
 * the controller (`controller.ts`) turns the page's events into commands
 * and shows each transaction; the workflows (`flows/`: opening, publish,
 * drafts, other tabs) and the I/O (`io/`: drafts, images, the published
 * record, tabs) are modules of their own; the views (`views/`) choose the
 * words.
 *
 * @module
 */

import { type Client, createClient } from "../client/mod.ts";
import { ROUTES } from "../lib/wire/names.ts";
import { INPAGE_ATTRIBUTES } from "../lib/wire/regions.ts";
import { publishAction } from "./actions.ts";
import { openNamedReview } from "./review_actions.ts";
import { Controller } from "./controller.ts";
import { offerDrafts } from "./flows/drafts.ts";
import { showElsewhere } from "./flows/review.ts";
import { type BrokenPage, openPages } from "./flows/login.ts";
import { followTabs } from "./flows/tabs.ts";
import { showEditor } from "./history.ts";
import { useDocumentLanguage } from "./i18n/mod.ts";
import { Drafts, keepDrafts } from "./io/drafts.ts";
import { indexedDbImageStore } from "./io/image_store.ts";
import { ChosenImages } from "./io/images.ts";
import { keepPublishedAcrossReloads, pendingPublish } from "./io/published.ts";
import { joinTabs } from "./io/tabs.ts";
import { mountPage, type PageView } from "./page_view.ts";
import { setField } from "./state/commands.ts";
import { listCommand } from "./state/lists.ts";
import { hasEditCookie } from "./state/login_state.ts";
import { createPage } from "./state/page.ts";
import { EditState } from "./state/state.ts";
import { createStore } from "./store.ts";
import { h } from "./ui.ts";
import { askConflict } from "./views/conflict_dialog.ts";
import { askLogin } from "./views/login_dialog.ts";
import { askRestore } from "./views/questions.ts";
import { UNRESOLVED_ATTRIBUTE } from "./views/misfits.ts";
import { createShell } from "./views/shell.ts";
import { brokenSentence } from "./views/words.ts";

/** Options of {@linkcode start}. */
export interface StartOptions {
  /** The client to use; default: the page's own origin. */
  client?: Client;
  /**
   * Reads of the page files the loader started beside the overlay's
   * import, by page path: the first read of each is answered by them.
   */
  reads?: Map<string, Promise<Response>>;
}

/**
 * A fetch that answers the first read of each page path with the read the
 * loader started, and sends everything else.
 */
function prefetched(
  reads: Map<string, Promise<Response>>,
): (request: Request) => Promise<Response> {
  return (request) => {
    const url = new URL(request.url);
    const path = url.searchParams.get("path") ?? "";
    const early = request.method === "GET" &&
        url.pathname === ROUTES.content.path
      ? reads.get(path)
      : undefined;
    if (!early) return fetch(request);
    reads.delete(path);
    return early.catch(() => fetch(request));
  };
}

/**
 * Outlines the containers whose page file is broken, each with the
 * sentence naming its file, and leaves their regions as they are.
 *
 * @returns the other containers, in order
 */
function markBroken(
  containers: readonly HTMLElement[],
  broken: readonly BrokenPage[],
): HTMLElement[] {
  const why = new Map(broken.map((page) => [page.path, page]));
  return containers.filter((container) => {
    const page = why.get(container.getAttribute(INPAGE_ATTRIBUTES.page) ?? "");
    if (!page) return true;
    const sentence = brokenSentence(page);
    container.setAttribute(UNRESOLVED_ATTRIBUTE, sentence);
    container.title = sentence;
    return false;
  });
}

let started = false;

/**
 * Starts the overlay on the current page.
 *
 * @param options the client to use
 * @returns when the overlay is ready (logged in and regions editable)
 */
export async function start(options: StartOptions = {}): Promise<void> {
  if (started) return;
  started = true;
  await open(
    options.client ??
      createClient(options.reads ? { fetch: prefetched(options.reads) } : {}),
  );
}

/** The browser's storage for drafts; none when the browser refuses it. */
function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined; // Storage disabled: editing works, without drafts.
  }
}

async function open(client: Client): Promise<void> {
  await useDocumentLanguage(document);
  const store = createStore(EditState.create());
  const shell = createShell();
  const images = new ChosenImages(indexedDbImageStore());
  const controller = new Controller({ store, client, shell, images });
  const containers = [
    ...document.querySelectorAll<HTMLElement>(`[${INPAGE_ATTRIBUTES.page}]`),
  ];
  if (containers.length === 0) {
    store.dispatch(store.state.tr.setNotice({ code: "noRegions" }));
    return;
  }
  const opening = await openPages({
    store,
    client,
    paths: containers.map((element) =>
      element.getAttribute(INPAGE_ATTRIBUTES.page) ?? ""
    ),
    hasSession: hasEditCookie(document.cookie),
    askLogin: () => askLogin(shell.root, client),
  });
  if (opening.stage !== "ready") {
    if (opening.stage === "cancelled") close(controller);
    return;
  }
  // A container whose file is broken stands alone: the others are edited.
  const working = markBroken(containers, opening.broken);
  if (opening.broken.length > 0) {
    store.dispatch(
      store.state.tr.setAlert({ code: "brokenPages", broken: opening.broken }),
    );
  }
  if (working.length === 0) {
    store.dispatch(store.state.tr.setNotice({ code: "notReady" }));
    shell.editing(true);
    return;
  }
  void showEditor(client, controller.bar.who, controller.bar.setRole);
  const page = mountPage(working, opening.pages, hostsOf(controller));
  const tr = store.state.tr.setActivity({ kind: "idle" }).setNotice(undefined);
  for (const each of page.pages) {
    tr.addPage(createPage(each.path, each.version, each.base, each.fields));
  }
  controller.attach(page);
  store.dispatch(tr);
  shell.editing(true);
  await takeWorkBack(controller, page);
  controller.returnFocus();
  // Go to, from a review of this page opened elsewhere: it opens here.
  await openNamedReview(controller.context);
}

/** What the page's regions, lists and links ask the controller for. */
function hostsOf(controller: Controller) {
  const { store, shell } = controller.context;
  const notes = h("div", {});
  shell.ui.append(notes);
  return {
    hooks: controller.hooks,
    notes,
    valueOf: (path: string, pointer: string) =>
      store.state.valueOf(path, pointer),
    editAlt: (region: Parameters<Controller["editAlt"]>[0]) =>
      controller.editAlt(region),
    lists: {
      operate: (
        path: string,
        operation: Parameters<typeof listCommand>[2],
        template?: string,
      ) => {
        const tr = listCommand(store.state, path, operation, template);
        store.dispatch(tr);
        return tr !== undefined;
      },
      valueOf: (path: string, pointer: string) =>
        store.state.valueOf(path, pointer),
      announce: (text: string) => shell.announce(text),
      editLink: (item: HTMLElement) => void controller.page?.links.edit(item),
      docked: () => controller.dock.update(),
    },
    links: {
      root: shell.root,
      state: () => store.state,
      setLink: (path: string, pointer: string, value: unknown) =>
        store.dispatch(setField(store.state, path, pointer, value)),
    },
  };
}

/**
 * This tab among the others, its drafts kept from now on, the work left
 * by a reload or by a closed tab offered back, and "Published" shown again
 * after the site's own reload.
 */
async function takeWorkBack(
  controller: Controller,
  page: PageView,
): Promise<void> {
  const context = controller.context;
  const { store, shell, images } = context;
  const tabs = await joinTabs();
  const drafts = new Drafts(storage(), tabs.id);
  context.tabs = tabs;
  context.drafts = drafts;
  keepDrafts(store, drafts, Date.now, location.pathname);
  followTabs(store, tabs);
  const open = await tabs.open();
  const pending = pendingPublish.read();
  let published = false;
  for (const { path } of page.pages) {
    const done = await offerDrafts({
      store,
      drafts,
      open,
      images,
      pending,
      kept: () => publishAction(context),
      ask: {
        restore: (offer, own) => askRestore(shell.root, offer, own),
        merge: (offer) =>
          askConflict(
            shell.root,
            offer.fields,
            (at) => page.label(path, at),
            "draft",
          ),
      },
    }, path);
    published ||= done;
  }
  pendingPublish.clear();
  showElsewhere(store, drafts);
  if (published && pending) {
    store.dispatch(
      store.state.tr.setNotice({ code: "published", published: pending }),
    );
  }
  keepPublishedAcrossReloads(store);
}

function close(controller: Controller): void {
  controller.close();
  started = false;
}
