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
import { chooseImage } from "./views/image_dialog.ts";
import { failureSentence } from "./messages.ts";
import { findRegion, mountRegions, type Region } from "./regions.ts";
import { linkProblem } from "./session/checks.ts";
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
import { createBar } from "./views/bar.ts";
import { askConflict } from "./views/conflict_dialog.ts";
import { editLink } from "./views/link_dialog.ts";
import { askLogin } from "./views/login_dialog.ts";

/** Options of {@linkcode start}. */
export interface StartOptions {
  /** The client to use; default: the page's own origin. */
  client?: Client;
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
  await open(options.client ?? createClient());
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
  const session = new EditSession(storage());
  const host = h("div", { "data-inpage-overlay": "" });
  const root = host.attachShadow({ mode: "open" });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(OVERLAY_CSS + PAGE_PANEL_CSS);
  root.adoptedStyleSheets = [sheet];
  const pageSheet = new CSSStyleSheet();
  pageSheet.replaceSync(PAGE_CSS);
  const toolbar = new Toolbar(root);
  let regions: Region[] = [];
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
          "Your session has ended. Log in again; your changes are kept.",
        )
      ) session.setStatus("Logged in again: press Publish", "dirty");
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
        messageDialog("Publish an empty field?", [
          h(
            "p",
            {},
            "These fields held words and are now empty. Visitors will see nothing there.",
          ),
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
                `, which held “${String(was)}”`,
              );
            }),
          ),
        ], [
          { label: "Cancel", value: "cancel" },
          { label: "Publish anyway", value: "publish", kind: "primary" },
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
        h(
          "p",
          {},
          `You have ${session.count} unsaved change${
            session.count === 1 ? "" : "s"
          }. ${after}`,
        ),
      ], [
        { label: "Cancel", value: "cancel" },
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
          "Discard all unsaved changes?",
          "Discard all",
          "They cannot be brought back.",
        )
      ) session.discardAll();
    },
    publish: () => void publish(),
    logout: async () => {
      if (
        session.count > 0 &&
        !await askDiscard(
          "Log out with unsaved changes?",
          "Log out anyway",
          "They stay in this browser as a draft, offered when you next edit this page.",
        )
      ) return;
      try {
        await client.logout();
      } catch (error) {
        session.setStatus("Not logged out", "error");
        session.setAlert(
          error instanceof EditorError
            ? failureSentence(error)
            : "Logging out failed.",
        );
        return;
      }
      removeUnloadGuard();
      const url = new URL(location.href);
      url.searchParams.delete("edit");
      location.replace(url.href);
    },
    page: () => void openPanel(),
    focusProblem: (path, at) => {
      const region = findRegion(
        regions.filter((region) => region.path === path),
        at,
      );
      region?.element.scrollIntoView({ block: "center" });
      (region?.rich?.editor.view.dom ?? region?.element)?.focus();
    },
  });
  const announcer = h("div", { class: "announce", "aria-live": "polite" });
  root.append(
    h("div", { class: "ui" }, toolbar.element, ...bar.elements, announcer),
  );
  document.body.append(host);

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
    session.setStatus("No editable regions on this page", "error");
    return;
  }
  let read: Array<{ path: string; version: string; base: PageObject }>;
  while (true) {
    try {
      read = [];
      for (const container of containers) {
        const path = container.getAttribute("data-inpage-page") ?? "";
        const { content, version } = await client.read(path);
        read.push({ path, version, base: JSON.parse(content) as PageObject });
      }
      break;
    } catch (error) {
      if (error instanceof EditorError && error.code === "unauthorized") {
        session.setStatus("Log in to edit", "clean");
        if (!await askLogin(root, client)) return close();
        continue;
      }
      session.setAlert(
        error instanceof EditorError
          ? failureSentence(error)
          : "The editor could not start on this page.",
      );
      session.setStatus("Not ready", "error");
      return;
    }
  }

  const hooks = {
    change: (region: Region, value: unknown) =>
      session.change(region.path, region.pointer, value),
    leave: () => session.seal(),
    richFocus: (region: Region) => {
      working = region;
      if (region.rich) toolbar.show(region.rich, region.element);
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
    },
    replaceImage: (region: Region, image: HTMLImageElement | null) =>
      void replaceImage(region, image),
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
    const prepared = await chooseImage(root);
    if (!prepared) return;
    try {
      const stored = await session.whileBusy(
        "Uploading the image…",
        () =>
          client.upload(
            new File([prepared.blob], `${prepared.name}.webp`, {
              type: "image/webp",
            }),
            prepared.name,
          ),
      );
      if (image) {
        image.removeAttribute("srcset");
        image.src = URL.createObjectURL(prepared.blob);
        image.width = stored.width;
        image.height = stored.height;
        image.setAttribute("data-inpage-src", stored.src);
      }
      session.change(region.path, region.pointer, {
        ...media,
        src: stored.src,
        width: stored.width,
        height: stored.height,
        alt: prepared.alt,
      });
      session.seal();
    } catch (error) {
      session.setStatus("Not uploaded", "error");
      session.setAlert(
        error instanceof EditorError
          ? failureSentence(error)
          : "Something went wrong. Your changes are kept.",
      );
    }
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
    lists.prepare(container, path, page.stored);
    const mounted = mountRegions(page, hooks);
    regions.push(...mounted);
    altControls(mounted);
    links.mount(path, container, container);
    session.addPage(path, version, base, [
      ...mounted.map((region) => [region.pointer, region.kind] as const),
      ...lists.pointers(path).map((pointer) => [pointer, "list"] as const),
    ]);
  }
  lists.activate();
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
      if (region.rich) {
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

  for (const { path } of read) await offerDraft(path);
  returnFocus();

  async function offerDraft(path: string): Promise<void> {
    const offer = session.draftOffer(path);
    if (!offer) return;
    if (offer.kind === "same") {
      const time = new Date(offer.draft.savedAt).toLocaleString();
      const count = offer.draft.changes.size;
      const answer = await showDialog(
        root,
        messageDialog("Restore unsaved changes?", [
          h(
            "p",
            {},
            `You have ${count} unsaved change${
              count === 1 ? "" : "s"
            } on this page from ${time}, not yet published.`,
          ),
        ], [
          { label: "Discard them", value: "discard", kind: "danger" },
          { label: "Restore", value: "restore", kind: "primary" },
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

  function close(): void {
    for (const region of regions) region.destroy();
    regions = [];
    removeUnloadGuard();
    document.documentElement.removeAttribute("data-inpage-editing");
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) =>
      s !== pageSheet
    );
    host.remove();
    started = false;
  }
}
