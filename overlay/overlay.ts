/// <reference lib="dom" />
/**
 * The editing overlay, loaded by the loader only for an editor. It finds the
 * page's regions (`data-inpage-page` containers holding `data-inpage-text`,
 * `data-inpage-html` and `data-inpage-image`), asks for the site key when
 * there is no session, makes the regions editable in place, and publishes
 * the changed page files through the browser client. Its interface lives in
 * an open shadow root.
 *
 * This file is the wiring: the edit session (`session/`) holds the work and
 * every state; the bar, the dialogs, the toolbar and the regions show it
 * and send the person's actions to it.
 *
 * @module
 */

import {
  type Client,
  createClient,
  EditorError,
  type PageObject,
} from "../client/mod.ts";
import { ROUTES } from "../lib/wire/names.ts";
import { chooseImage, imageFormatOf } from "./views/image_dialog.ts";
import { indexedDbImageStore } from "./image_store.ts";
import { keepPublishedAcrossReloads } from "./published.ts";
import { failureSentence } from "./messages.ts";
import { openHistory, showEditor } from "./history.ts";
import { findRegion, mountRegions, type Region } from "./regions.ts";
import { linkProblem } from "./session/checks.ts";
import { fieldFit, type FieldKind } from "./session/fields.ts";
import { hasEditCookie } from "./session/login_state.ts";
import { below, fieldName, getPointer, isWithin } from "./session/pointer.ts";
import { retarget } from "./session/lists.ts";
import { INPAGE_ATTRIBUTES } from "../lib/wire/names.ts";
import { Links } from "./views/links.ts";
import { addAltControl, editAlt } from "./views/alt_text.ts";
import { Lists } from "./views/lists.ts";
import {
  openPagePanel,
  PAGE_PANEL_CSS,
  panelFields,
} from "./views/page_panel.ts";
import { EditSession, type PublishOutcome } from "./session/session.ts";
import { sameValue } from "./session/values.ts";
import { OVERLAY_CSS, PAGE_CSS } from "./styles.ts";
import { Toolbar } from "./views/toolbar.ts";
import { focusedElement, h, messageDialog, showDialog } from "./ui.ts";
import { barTop, createBar, keepRoomForBar, reveal } from "./views/bar.ts";
import { plural, text, useDocumentLanguage } from "./i18n/mod.ts";
import { askConflict } from "./views/conflict_dialog.ts";
import { editLink } from "./views/link_dialog.ts";
import { createPreview, followLinksOnModifiedClick } from "./views/preview.ts";
import { askLogin } from "./views/login_dialog.ts";
import { type FlaggedRegion, showMisfits } from "./views/misfits.ts";

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
  let store: Storage | undefined;
  try {
    store = globalThis.localStorage;
  } catch {
    // Storage disabled: editing works, without drafts.
  }
  return store;
}

async function open(client: Client): Promise<void> {
  await useDocumentLanguage(document);
  const session = new EditSession(storage(), Date.now, indexedDbImageStore());
  const host = h("div", { "data-inpage-overlay": "" });
  const root = host.attachShadow({ mode: "open" });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(OVERLAY_CSS + PAGE_PANEL_CSS);
  root.adoptedStyleSheets = [sheet];
  const pageSheet = new CSSStyleSheet();
  pageSheet.replaceSync(PAGE_CSS);
  const toolbar = new Toolbar(root, () => barTop(bar.bar));
  let regions: Region[] = [];
  /** Regions left as they are, and how to take their outlines away. */
  const flagged: FlaggedRegion[] = [];
  let hideMisfits = () => {};
  /** Where the person was last working, to give the focus back to. */
  let working: Region | undefined;

  const returnFocus = () => {
    const now = focusedElement();
    if (
      !working?.element.isConnected ||
      (now && now !== bar.publishButton && now !== host)
    ) return;
    // A rich-text editor puts its own selection back.
    if (working.rich) working.rich.editor.view.focus();
    else working.element.focus({ preventScroll: true });
  };

  const publishWith = async (
    run: () => Promise<PublishOutcome>,
  ): Promise<void> => {
    const outcome = await run();
    if (outcome.kind === "conflict") {
      const answer = await askConflict(root, outcome.fields);
      if (answer.action === "reload") {
        session.discardDraft(outcome.path);
        removeUnloadGuard();
        location.reload();
        return;
      }
      if (answer.action === "keep") {
        return await publishWith(() =>
          session.keepMine(
            client,
            outcome.path,
            outcome.fresh,
            outcome.fields,
            answer.choices,
          )
        );
      }
      return;
    }
    if (outcome.kind === "unauthorized") {
      if (
        await askLogin(
          root,
          client,
          text("sessionEnded"),
        )
      ) {
        session.setStatus(text("loggedInAgain"), "dirty");
        void showEditor(client, bar.who);
      }
      return;
    }
    if (outcome.kind === "failed") {
      const first = session.problems.find((problem) => !problem.local) ??
        session.problems[0];
      const region = first && findRegion(regions, first.at);
      region?.element.scrollIntoView({ block: "center" });
    }
    returnFocus();
  };

  const publish = async () => {
    if (session.busy) return;
    const emptied = session.emptied();
    if (emptied.length > 0) {
      const answer = await showDialog(
        root,
        messageDialog(text("publishEmptyTitle"), [
          h("p", {}, text("publishEmptyText")),
          h(
            "ul",
            {},
            ...emptied.map((problem) => {
              const page = session.page(problem.path);
              const was = page ? getPointer(page.base, problem.at) : "";
              return h(
                "li",
                {},
                h("strong", {}, fieldName(problem.at)),
                text("publishEmptyHeld", { value: String(was) }),
              );
            }),
          ),
        ], [
          { label: text("cancel"), value: "cancel" },
          { label: text("publishAnyway"), value: "publish", kind: "primary" },
        ]),
      );
      if (answer !== "publish") return;
    }
    await publishWith(() => session.publish(client));
  };

  const askDiscard = async (question: string, yes: string, after: string) =>
    await showDialog(
      root,
      messageDialog(question, [
        h("p", {}, `${plural("youHaveUnsaved", session.count)} ${after}`),
      ], [
        { label: text("cancel"), value: "cancel" },
        { label: yes, value: "yes", kind: "primary" },
      ]),
    ) === "yes";

  const bar = createBar(session, {
    undo: () => session.undo(),
    redo: () => session.redo(),
    discardAll: async () => {
      if (
        session.count > 0 &&
        await askDiscard(
          text("discardTitle"),
          text("discardAll"),
          text("discardAfter"),
        )
      ) session.discardAll();
    },
    publish: () => void publish(),
    logout: async () => {
      if (
        session.count > 0 &&
        !await askDiscard(
          text("logoutTitle"),
          text("logoutAnyway"),
          text("logoutAfter"),
        )
      ) return;
      try {
        await client.logout();
      } catch (error) {
        session.setStatus(text("notLoggedOut"), "error");
        session.setAlert(
          error instanceof EditorError
            ? failureSentence(error)
            : text("logoutFailed"),
        );
        return;
      }
      removeUnloadGuard();
      const url = new URL(location.href);
      url.searchParams.delete("edit");
      location.replace(url.href);
    },
    preview: (on) => {
      if (on) toolbar.hide();
      previewSwitch.set(on);
      bar.showMode(on);
      // The misfits' notes and the History's restore buttons go too.
      ui.toggleAttribute("data-preview", on);
    },
    page: () => void openPanel(),
    focusProblem: (path, at) => {
      const region = findRegion(
        regions.filter((region) => region.path === path),
        at,
      );
      (region?.element ?? misfitAt(path, at))?.scrollIntoView({
        block: "center",
      });
      (region?.rich?.editor.view.dom ?? region?.element)?.focus();
    },
    history: () => {
      // A past version is shown over the page as it is edited.
      if (previewSwitch.on) {
        previewSwitch.set(false);
        bar.showMode(false);
        ui.removeAttribute("data-preview");
      }
      void openHistory({ root, client, session, regions: () => regions });
    },
  });
  const announcer = h("div", { class: "announce", "aria-live": "polite" });
  const ui = h(
    "div",
    { class: "ui" },
    toolbar.element,
    ...bar.elements,
    announcer,
  );
  root.append(ui);
  document.body.append(host);
  const giveRoomBack = keepRoomForBar(
    bar.bar,
    host,
    ui,
    () => {
      if (!toolbar.element.hidden) toolbar.place();
    },
    [...ui.querySelectorAll<HTMLElement>(".problems, .alert")],
  );
  const previewSwitch = createPreview(
    () => regions,
    (region) => session.valueOf(region.path, region.pointer),
  );
  const stopFollowing = followLinksOnModifiedClick(() => previewSwitch.on);

  const onUnload = (event: BeforeUnloadEvent) => {
    if (session.count === 0) return;
    event.preventDefault();
    event.returnValue = "";
  };
  const removeUnloadGuard = () => removeEventListener("beforeunload", onUnload);
  addEventListener("beforeunload", onUnload);

  // Ctrl/Cmd+Z and Shift+Ctrl/Cmd+Z outside a field step through the
  // session; inside a field the field's own undo runs.
  addEventListener("keydown", (event) => {
    const key = event.key.toLowerCase();
    if (!(event.ctrlKey || event.metaKey) || (key !== "z" && key !== "y")) {
      return;
    }
    const target = event.composedPath()[0];
    if (
      target instanceof HTMLElement &&
      (target.isContentEditable || target instanceof HTMLInputElement ||
        target instanceof HTMLTextAreaElement || target.closest("dialog"))
    ) return;
    event.preventDefault();
    if (key === "y" || event.shiftKey) session.redo();
    else session.undo();
  });

  const containers = [
    ...document.querySelectorAll<HTMLElement>("[data-inpage-page]"),
  ];
  if (containers.length === 0) {
    session.setStatus(text("noRegions"), "error");
    return;
  }
  let read: Array<{ path: string; version: string; base: PageObject }>;
  // Without the edit cookie there is no session: ask first, read after,
  // so that no request fails before the editor has logged in.
  if (!hasEditCookie(document.cookie)) {
    session.setStatus(text("logInToEdit"), "clean");
    if (!await askLogin(root, client)) return close();
  }
  while (true) {
    try {
      read = [];
      // Each page file once per page view, however many containers show it.
      const files = new Map<string, { content: string; version: string }>();
      for (const container of containers) {
        const path = container.getAttribute("data-inpage-page") ?? "";
        const file = files.get(path) ?? await client.read(path);
        files.set(path, file);
        const { content, version } = file;
        read.push({ path, version, base: JSON.parse(content) as PageObject });
      }
      break;
    } catch (error) {
      if (error instanceof EditorError && error.code === "unauthorized") {
        session.setStatus(text("logInToEdit"), "clean");
        if (!await askLogin(root, client)) return close();
        continue;
      }
      session.setAlert(
        error instanceof EditorError
          ? failureSentence(error)
          : text("cannotStart"),
      );
      session.setStatus(text("notReady"), "error");
      return;
    }
  }

  void showEditor(client, bar.who);

  // A published image goes on showing as chosen, under its stored name.
  session.images.onStored = (src, stored) => {
    for (const region of regions) region.alias?.(src, stored);
  };

  const hooks = {
    change: (region: Region, value: unknown) =>
      session.change(region.path, region.pointer, value),
    leave: () => session.seal(),
    richFocus: (region: Region) => {
      working = region;
      if (!region.rich) return;
      toolbar.show(region.rich, region.element);
      reveal(region.element, bar.bar, toolbar.element.offsetHeight + 10);
      toolbar.place();
    },
    richSelection: (region: Region) => {
      if (region.rich && toolbar.active === region.rich) toolbar.update();
    },
    richToolbar: (region: Region) => {
      if (!region.rich) return;
      toolbar.show(region.rich, region.element);
      toolbar.focus();
    },
    richLink: (region: Region) => {
      if (region.rich) void editLink(root, region.rich);
    },
    otherFocus: (region: Region) => {
      working = region;
      toolbar.hide();
      reveal(region.element, bar.bar);
    },
    richUnavailable: () => session.setAlert(text("richTextFailed")),
    // Its outlines and names, on the editor now.
    richReady: () => showMarks(),
    replaceImage: (region: Region, image: HTMLImageElement | null) => {
      if (!previewSwitch.on) void replaceImage(region, image);
    },
  };

  const replaceImage = async (
    region: Region,
    image: HTMLImageElement | null,
  ) => {
    if (session.busy) return;
    const current = session.valueOf(region.path, region.pointer);
    const media = typeof current === "object" && current !== null
      ? current as Record<string, unknown>
      : {};
    const format = imageFormatOf(
      region.element.closest("[data-inpage-page]"),
    );
    // A new file needs its own alt text: the dialog starts it empty.
    const prepared = await chooseImage(root, format);
    if (!prepared) return;
    // The image stays in the session (and IndexedDB) until its page is
    // published: the page shows it at once from its object URL (the site's
    // own address for it exists only once it renders the page).
    const src = session.images.add(
      prepared.blob,
      `${prepared.name}.${prepared.extension}`,
    );
    region.preview?.(prepared.blob, src);
    if (image) {
      image.width = prepared.width;
      image.height = prepared.height;
    }
    session.change(region.path, region.pointer, {
      ...media,
      src,
      width: prepared.width,
      height: prepared.height,
      alt: prepared.alt,
    });
    session.seal();
    if (prepared.fallback) session.setAlert(prepared.fallback);
  };

  // Lists, link objects and the Page panel (structure in place).
  const links = new Links(root, session);
  const lists = new Lists({
    session,
    announce: (text) => {
      announcer.textContent = "";
      setTimeout(() => announcer.textContent = text, 50);
    },
    editLink: (item) => void links.edit(item),
    mount: (path, item, pointer) => {
      const container = item.closest<HTMLElement>("[data-inpage-page]")!;
      // A new item's fields start from the values it was made with.
      const made = structuredClone(session.valueOf(path, pointer));
      const mounted = mountRegions({
        path,
        container,
        scope: item,
        stored: (p) =>
          isWithin(p, pointer)
            ? getPointer(made, below(p, pointer))
            : session.valueOf(path, p),
      }, hooks);
      regions.push(...mounted);
      altControls(mounted);
      for (const region of mounted) {
        region.show(session.valueOf(path, region.pointer));
      }
      links.mount(path, item, container);
    },
    unmount: (item) => {
      for (const region of regions) {
        if (item.contains(region.element)) region.destroy();
      }
      regions = regions.filter((region) => !item.contains(region.element));
      if (working && item.contains(working.element)) {
        working = undefined;
        toolbar.hide();
      }
      links.unmount(item);
    },
    repoint: (item, from, to) => {
      for (const region of regions) {
        if (item.contains(region.element)) {
          region.repoint(retarget(region.pointer, from, to));
        }
      }
    },
    changed: (path) => {
      session.setFields(path, fieldsOf(path));
      showMarks();
    },
  });
  const altControls = (mounted: Region[]) => {
    for (const region of mounted) {
      if (region.kind !== "image") continue;
      addAltControl(region.element, async () => {
        const value = session.valueOf(region.path, region.pointer);
        const media = typeof value === "object" && value !== null
          ? value as Record<string, unknown>
          : {};
        const alt = await editAlt(
          root,
          typeof media.alt === "string" ? media.alt : undefined,
        );
        if (alt === undefined || session.busy) return;
        session.seal();
        session.change(region.path, region.pointer, { ...media, alt });
        session.seal();
        region.show(session.valueOf(region.path, region.pointer));
      });
    }
  };
  const fieldsOf = (path: string) => [
    ...regions.filter((region) => region.path === path).map((region) =>
      [region.pointer, region.kind] as const
    ),
    ...lists.pointers(path).map((pointer) => [pointer, "list"] as const),
  ];
  const openPanel = async () => {
    await openPagePanel(
      root,
      session,
      containers.map((container, index) => {
        const path = read[index]?.path ?? "";
        const shown = [
          ...fieldsOf(path).map(([pointer]) => pointer),
          ...[...container.querySelectorAll(`[${INPAGE_ATTRIBUTES.link}]`)]
            .map((element) =>
              element.getAttribute(INPAGE_ATTRIBUTES.link) ?? ""
            ),
        ];
        const value = session.valueOf(path, "");
        return {
          path,
          fields: panelFields(
            container.getAttribute(INPAGE_ATTRIBUTES.fields),
            typeof value === "object" && value !== null
              ? value as Record<string, unknown>
              : {},
            shown,
          ),
        };
      }),
    );
    showMarks();
  };

  for (const [index, container] of containers.entries()) {
    const { path, version, base } = read[index]!;
    const page = {
      path,
      container,
      stored: (p: string) => getPointer(base, p),
    };
    const left: FlaggedRegion[] = [];
    // A region whose pointer names nothing, or another kind of value, is
    // left as it is: editing it would publish a key no visitor sees.
    const refuse = (element: HTMLElement, pointer: string, kind: FieldKind) => {
      const misfit = fieldFit(base, pointer, kind);
      if (misfit) {
        left.push({ path, pointer, kind, element, sentence: misfit.sentence });
      }
      return misfit !== undefined;
    };
    // A list may be absent until its first item is added; one that holds
    // another kind of value is left as it is.
    lists.prepare(
      container,
      path,
      page.stored,
      (element, pointer) =>
        page.stored(pointer) !== undefined && refuse(element, pointer, "list"),
    );
    const mounted = mountRegions(page, hooks, refuse);
    regions.push(...mounted);
    flagged.push(...left);
    altControls(mounted);
    links.mount(path, container, container);
    session.addPage(path, version, base, [
      ...[...mounted, ...left].map((region) =>
        [region.pointer, region.kind] as const
      ),
      ...lists.pointers(path).map((pointer) => [pointer, "list"] as const),
    ]);
  }
  lists.activate();
  const notes = h("div", {});
  root.querySelector(".ui")?.append(notes);
  hideMisfits = showMisfits(notes, flagged);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, pageSheet];
  document.documentElement.setAttribute("data-inpage-editing", "");

  // The regions show the session: values after undo, redo, a restored
  // draft or a merge; which fields are changed; which are refused.
  const showValues = (path: string) => {
    for (const region of regions) {
      if (region.path === path) {
        region.show(session.valueOf(path, region.pointer));
      }
    }
  };
  const showMarks = () => {
    for (const region of regions) {
      const page = session.page(region.path);
      if (!page) continue;
      const changed = !sameValue(
        session.valueOf(region.path, region.pointer),
        getPointer(page.base, region.pointer),
      );
      region.element.toggleAttribute("data-inpage-changed", changed);
      const problems = session.problems.filter((problem) =>
        problem.path === region.path &&
        findRegion(
            regions.filter((r) => r.path === region.path),
            problem.at,
          ) ===
          region
      );
      region.element.toggleAttribute(
        "data-inpage-invalid",
        problems.length > 0,
      );
      const target = region.rich
        ? region.rich.editor.view.dom as HTMLElement
        : region.element;
      if (problems.length > 0) {
        target.setAttribute("aria-invalid", "true");
        region.element.setAttribute(
          "data-inpage-problem",
          [...new Set(problems.map((problem) => problem.sentence))].join(" "),
        );
      } else {
        target.removeAttribute("aria-invalid");
        region.element.removeAttribute("data-inpage-problem");
      }
      // A refused link in rich text is outlined itself.
      if (region.kind === "html") {
        for (const link of region.element.querySelectorAll("a")) {
          link.toggleAttribute(
            "data-inpage-invalid",
            linkProblem(link.getAttribute("href") ?? "") !== undefined,
          );
        }
      }
    }
  };
  session.subscribe((event) => {
    if (event.type === "values") {
      lists.refresh(event.path);
      links.refresh(event.path);
      showValues(event.path);
    }
    showMarks();
  });
  showMarks();
  toolbar.element.addEventListener("click", () => queueMicrotask(showMarks));

  for (const { path } of read) {
    await session.reviveImages(path);
    await offerDraft(path);
  }
  keepPublishedAcrossReloads(session);
  returnFocus();

  async function offerDraft(path: string): Promise<void> {
    const offer = session.draftOffer(path);
    if (!offer) return;
    if (offer.kind === "same") {
      const time = new Date(offer.draft.savedAt).toLocaleString(
        document.documentElement.lang || undefined,
      );
      const count = offer.draft.changes.size;
      const answer = await showDialog(
        root,
        messageDialog(text("restoreTitle"), [
          h("p", {}, plural("restoreText", count, { time })),
        ], [
          { label: text("discardThem"), value: "discard", kind: "danger" },
          { label: text("restore"), value: "restore", kind: "primary" },
        ]),
      );
      if (answer === "restore") session.restoreDraft(path, offer);
      else if (answer === "discard") session.discardDraft(path);
      return;
    }
    const answer = await askConflict(root, offer.fields, true);
    if (answer.action === "keep") {
      session.restoreDraft(path, offer, answer.choices);
      await publishWith(() => session.publish(client));
    } else if (answer.action === "discard") session.discardDraft(path);
  }

  function misfitAt(path: string, at: string): HTMLElement | undefined {
    return flagged.find((region) =>
      region.path === path && region.pointer === at
    )?.element;
  }

  function close(): void {
    hideMisfits();
    for (const region of regions) region.destroy();
    regions = [];
    removeUnloadGuard();
    document.documentElement.removeAttribute("data-inpage-editing");
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) =>
      s !== pageSheet
    );
    giveRoomBack();
    stopFollowing();
    host.remove();
    started = false;
  }
}
