/// <reference lib="dom" />
/**
 * The editing overlay, loaded by the loader only for an editor. It finds the
 * page's regions (`data-inpage-page` containers holding `data-inpage-text`,
 * `data-inpage-html` and `data-inpage-image`), asks for the site key when
 * there is no session, makes the regions editable in place, and publishes
 * the changed page files through the browser client. Its interface lives in
 * an open shadow root.
 *
 * @module
 */

import {
  type Client,
  createClient,
  EditorError,
  getPointer,
  type PageObject,
  setPointer,
} from "../client/mod.ts";
import { clearDraft, loadDraft, saveDraft } from "./drafts.ts";
import { chooseImage } from "./image_dialog.ts";
import { keepMine, sameValue } from "./merge.ts";
import { failureSentence, reasonSentence, retrySentence } from "./messages.ts";
import {
  findRegion,
  mountRegions,
  type PageState,
  type RegionHooks,
} from "./regions.ts";
import { OVERLAY_CSS, PAGE_CSS } from "./styles.ts";
import { editLink, Toolbar } from "./toolbar.ts";
import { h, messageDialog, showDialog } from "./ui.ts";

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
  const overlay = new Overlay(options.client ?? createClient());
  await overlay.open();
}

class Overlay {
  readonly client: Client;
  readonly host: HTMLElement;
  readonly root: ShadowRoot;
  readonly ui: HTMLElement;
  readonly status: HTMLElement;
  readonly hint: HTMLElement;
  readonly alert: HTMLElement;
  readonly alertText: HTMLElement;
  readonly message: HTMLInputElement;
  readonly publishButton: HTMLButtonElement;
  readonly toolbar: Toolbar;
  readonly pageSheet: CSSStyleSheet;
  pages: PageState[] = [];
  busy = false;

  constructor(client: Client) {
    this.client = client;
    this.host = h("div", { "data-inpage-overlay": "" });
    this.root = this.host.attachShadow({ mode: "open" });
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(OVERLAY_CSS);
    this.root.adoptedStyleSheets = [sheet];
    this.pageSheet = new CSSStyleSheet();
    this.pageSheet.replaceSync(PAGE_CSS);
    this.status = h("span", { class: "status", role: "status" }, "Loading…");
    this.hint = h(
      "span",
      { class: "hint", hidden: true },
      "Click any outlined text or image to change it.",
    );
    this.message = h("input", {
      type: "text",
      maxlength: "120",
      placeholder: "What did you change?",
    });
    this.publishButton = h("button", {
      class: "primary",
      type: "button",
      onclick: () => void this.publish(),
    }, "Publish");
    this.alertText = h("p", {});
    this.alert = h(
      "div",
      { class: "alert", role: "alert", hidden: true },
      this.alertText,
      h("button", {
        type: "button",
        onclick: () => this.hideAlert(),
      }, "Dismiss"),
    );
    this.toolbar = new Toolbar(this.root);
    const bar = h(
      "div",
      { class: "bar", role: "region", "aria-label": "Page editor" },
      h("span", { class: "title" }, "Editing"),
      this.status,
      this.hint,
      h("label", {}, "Message", this.message),
      this.publishButton,
      h(
        "button",
        { type: "button", onclick: () => void this.logout() },
        "Log out",
      ),
    );
    this.ui = h(
      "div",
      { class: "ui" },
      this.toolbar.element,
      this.alert,
      bar,
    );
    this.root.append(this.ui);
  }

  async open(): Promise<void> {
    document.body.append(this.host);
    const containers = [
      ...document.querySelectorAll<HTMLElement>("[data-inpage-page]"),
    ];
    if (containers.length === 0) {
      this.setStatus("No editable regions on this page", "error");
      return;
    }
    while (true) {
      try {
        await this.loadPages(containers);
        break;
      } catch (error) {
        if (error instanceof EditorError && error.code === "unauthorized") {
          this.setStatus("Log in to edit", "clean");
          if (!await this.login()) return this.close();
          continue;
        }
        this.showAlert(
          error instanceof EditorError
            ? failureSentence(error)
            : "The editor could not start on this page.",
        );
        this.setStatus("Not ready", "error");
        return;
      }
    }
    document.adoptedStyleSheets = [
      ...document.adoptedStyleSheets,
      this.pageSheet,
    ];
    document.documentElement.setAttribute("data-inpage-editing", "");
    this.refresh();
    for (const page of this.pages) await this.offerDraft(page);
  }

  async login(notice?: string): Promise<boolean> {
    const key = h("input", {
      type: "password",
      autocomplete: "current-password",
      required: true,
    });
    const error = h("p", { class: "error", role: "alert" }, notice ?? "");
    const submit = h("button", { class: "primary", type: "submit" }, "Log in");
    const dialog = h("dialog", { "aria-labelledby": "inpage-login-title" });
    const form = h(
      "form",
      {},
      h("h2", { id: "inpage-login-title" }, "Log in to edit this site"),
      h(
        "label",
        {},
        "Site key",
        key,
        h("span", { class: "hint" }, "The key the site's owner gave you."),
      ),
      error,
      h(
        "div",
        { class: "actions" },
        h("button", {
          type: "button",
          onclick: () => dialog.close("cancel"),
        }, "Cancel"),
        submit,
      ),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      submit.disabled = true;
      error.textContent = "";
      try {
        await this.client.login(key.value);
        dialog.close("ok");
      } catch (failure) {
        error.textContent = failure instanceof EditorError
          ? failure.code === "unauthorized"
            ? "This key is not right. Check it and try again."
            : failure.code === "rate_limited"
            ? `Too many attempts. ${retrySentence(failure.retryAfter)}`
            : failureSentence(failure)
          : "Logging in failed.";
        submit.disabled = false;
        key.select();
      }
    });
    dialog.append(form);
    return await showDialog(this.root, dialog) === "ok";
  }

  async loadPages(containers: HTMLElement[]): Promise<void> {
    const pages: PageState[] = [];
    for (const container of containers) {
      const path = container.getAttribute("data-inpage-page") ?? "";
      const { content, version } = await this.client.read(path);
      const base = JSON.parse(content) as PageObject;
      pages.push({
        path,
        container,
        version,
        base,
        changes: new Map(),
        regions: [],
      });
    }
    this.pages = pages;
    for (const page of pages) mountRegions(page, this.hooks);
  }

  /** What the regions report to. */
  readonly hooks: RegionHooks = {
    change: (page, pointer, value, element) =>
      this.change(page, pointer, value, element),
    richFocus: (region) => {
      if (region.rich) this.toolbar.show(region.rich, region.element);
    },
    richSelection: (region) => {
      if (region.rich && this.toolbar.active === region.rich) {
        this.toolbar.update();
      }
    },
    richToolbar: (region) => {
      if (!region.rich) return;
      this.toolbar.show(region.rich, region.element);
      this.toolbar.focus();
    },
    richLink: (region) => {
      if (region.rich) void editLink(this.root, region.rich);
    },
    otherFocus: () => this.toolbar.hide(),
    replaceImage: (page, region, image) =>
      void this.replaceImage(page, region.pointer, region.element, image),
  };

  async replaceImage(
    page: PageState,
    pointer: string,
    element: HTMLElement,
    image: HTMLImageElement | null,
  ): Promise<void> {
    const current = this.valueOf(page, pointer);
    const media = typeof current === "object" && current !== null
      ? current as Record<string, unknown>
      : {};
    const prepared = await chooseImage(
      this.root,
      typeof media.alt === "string" ? media.alt : "",
    );
    if (!prepared) return;
    this.setStatus("Uploading the image…", "busy");
    try {
      const stored = await this.client.upload(
        new File([prepared.blob], `${prepared.name}.webp`, {
          type: "image/webp",
        }),
        prepared.name,
      );
      this.change(page, pointer, {
        ...media,
        src: stored.src,
        width: stored.width,
        height: stored.height,
        alt: prepared.alt,
      }, element);
      if (image) {
        image.removeAttribute("srcset");
        image.src = URL.createObjectURL(prepared.blob);
        image.width = stored.width;
        image.height = stored.height;
        image.alt = prepared.alt;
        image.setAttribute("data-inpage-src", stored.src);
      }
      this.refresh();
    } catch (error) {
      this.fail(error);
    }
  }

  valueOf(page: PageState, pointer: string): unknown {
    return page.changes.has(pointer)
      ? page.changes.get(pointer)
      : getPointer(page.base, pointer);
  }

  change(
    page: PageState,
    pointer: string,
    value: unknown,
    element: HTMLElement,
  ): void {
    if (sameValue(value, getPointer(page.base, pointer))) {
      page.changes.delete(pointer);
      element.removeAttribute("data-inpage-changed");
    } else {
      page.changes.set(pointer, value);
      element.setAttribute("data-inpage-changed", "");
    }
    element.removeAttribute("data-inpage-invalid");
    element.removeAttribute("aria-invalid");
    saveDraft(localStorage, page.path, page.version, page.changes);
    this.refresh();
  }

  refresh(): void {
    if (this.busy) return;
    const count = this.pages.reduce((sum, page) => sum + page.changes.size, 0);
    if (count > 0) {
      this.setStatus(
        `${count} unsaved change${count === 1 ? "" : "s"}`,
        "dirty",
      );
    } else if (this.status.dataset.state !== "published") {
      this.setStatus("No unsaved changes", "clean");
    }
  }

  setStatus(text: string, state: string): void {
    this.hint.hidden = !(state === "clean" && this.pages.length > 0);
    this.status.textContent = text;
    this.status.dataset.state = state;
  }

  showAlert(text: string): void {
    this.alertText.textContent = text;
    this.alert.hidden = false;
  }

  hideAlert(): void {
    this.alert.hidden = true;
  }

  async offerDraft(page: PageState): Promise<void> {
    const draft = loadDraft(localStorage, page.path, page.version);
    if (!draft) return;
    const time = new Date(draft.savedAt).toLocaleString();
    const count = draft.changes.size;
    const answer = await showDialog(
      this.root,
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
    if (answer !== "restore") {
      clearDraft(localStorage, page.path, page.version);
      return;
    }
    for (const [pointer, value] of draft.changes) {
      const region = page.regions.find((r) => r.pointer === pointer);
      if (!region) continue;
      region.show(value);
      this.change(page, pointer, value, region.element);
    }
  }

  async publish(): Promise<void> {
    if (this.busy) return;
    this.hideAlert();
    for (const page of this.pages) {
      for (const region of page.regions) {
        region.element.removeAttribute("data-inpage-invalid");
        region.element.removeAttribute("aria-invalid");
      }
    }
    const dirty = this.pages.filter((page) => page.changes.size > 0);
    if (dirty.length === 0) {
      this.setStatus("Nothing to publish", "clean");
      return;
    }
    this.busy = true;
    this.publishButton.disabled = true;
    this.setStatus("Publishing…", "busy");
    try {
      for (const page of dirty) {
        await this.publishPage(page, applyChanges(page.base, page.changes));
      }
      this.busy = false;
      this.message.value = "";
      this.setStatus("Published", "published");
    } catch (error) {
      this.busy = false;
      const page = dirty.find((p) => p.changes.size > 0);
      if (
        page && error instanceof EditorError && error.code === "conflict"
      ) {
        await this.resolveConflict(page);
      } else this.fail(error, page);
    } finally {
      this.busy = false;
      this.publishButton.disabled = false;
      const state = this.status.dataset.state;
      if (state !== "published" && state !== "error") this.refresh();
    }
  }

  async publishPage(page: PageState, content: PageObject): Promise<void> {
    const message = this.message.value.trim();
    const { version } = await this.client.publish({
      path: page.path,
      content,
      version: page.version,
      ...(message === "" ? {} : { message }),
    });
    clearDraft(localStorage, page.path, page.version);
    page.version = version;
    page.base = content;
    page.changes.clear();
    for (const region of page.regions) {
      region.element.removeAttribute("data-inpage-changed");
    }
  }

  async resolveConflict(page: PageState): Promise<void> {
    this.setStatus("Not published: someone published meanwhile", "error");
    const answer = await showDialog(
      this.root,
      messageDialog("Someone published meanwhile", [
        h(
          "p",
          {},
          "This page was published by someone else while you were editing it. Your changes are not published yet, and they are kept.",
        ),
        h(
          "ul",
          {},
          h(
            "li",
            {},
            h("strong", {}, "Keep mine"),
            " publishes your changed fields on top of their version.",
          ),
          h(
            "li",
            {},
            h("strong", {}, "Reload"),
            " shows their version and drops your changes.",
          ),
        ),
      ], [
        { label: "Cancel", value: "cancel" },
        { label: "Reload", value: "reload", kind: "danger" },
        { label: "Keep mine", value: "keep", kind: "primary" },
      ]),
    );
    if (answer === "reload") {
      clearDraft(localStorage, page.path, page.version);
      location.reload();
      return;
    }
    if (answer !== "keep") return;
    this.busy = true;
    this.setStatus("Publishing…", "busy");
    try {
      const fresh = await this.client.read(page.path);
      const theirs = JSON.parse(fresh.content) as PageObject;
      const merged = keepMine(page.base, theirs, page.changes);
      if (!merged.ok) {
        this.busy = false;
        this.setStatus(
          "Not published: the same field changed on both sides",
          "error",
        );
        for (const pointer of merged.clashes) {
          const region = page.regions.find((r) => r.pointer === pointer);
          region?.element.setAttribute("data-inpage-invalid", "");
        }
        await showDialog(
          this.root,
          messageDialog("Your changes cannot be kept", [
            h(
              "p",
              {},
              "Someone else changed the same field you changed, so keeping yours would erase theirs. Nothing was published.",
            ),
            h(
              "ul",
              {},
              ...merged.clashes.map((pointer) =>
                h("li", {}, label(page, pointer))
              ),
            ),
            h(
              "p",
              {},
              "Reload to see their version, then make your change again.",
            ),
          ], [{ label: "OK", value: "ok", kind: "primary" }]),
        );
        return;
      }
      const mine = new Map(page.changes);
      const before = page.base;
      const previous = page.version;
      page.version = fresh.version;
      page.base = theirs;
      saveDraft(localStorage, page.path, page.version, page.changes);
      clearDraft(localStorage, page.path, previous);
      await this.publishPage(page, merged.page);
      for (const region of page.regions) {
        const now = getPointer(theirs, region.pointer);
        if (
          !mine.has(region.pointer) &&
          !sameValue(now, getPointer(before, region.pointer))
        ) region.show(now);
      }
      this.busy = false;
      this.setStatus("Published", "published");
    } catch (error) {
      this.busy = false;
      this.fail(error, page);
    }
  }

  fail(error: unknown, page?: PageState): void {
    if (!(error instanceof EditorError)) {
      console.error(error);
      this.setStatus("Not published", "error");
      this.showAlert("Something went wrong. Your changes are kept.");
      return;
    }
    if (error.code === "invalid_content") {
      const region = page && error.at !== undefined
        ? findRegion(page, error.at)
        : undefined;
      const sentence = region?.kind === "text" && error.reason === "markup"
        ? "Plain text cannot hold “<” or anything written like HTML: remove it."
        : reasonSentence(error.reason);
      this.setStatus("Not published: a field was refused", "error");
      if (region) {
        region.element.setAttribute("data-inpage-invalid", "");
        region.element.setAttribute("aria-invalid", "true");
        region.element.scrollIntoView({ block: "center" });
        this.showAlert(`The highlighted field was refused. ${sentence}`);
      } else this.showAlert(`The page was refused. ${sentence}`);
      return;
    }
    if (error.code === "unauthorized") {
      this.setStatus("Not published: log in again", "error");
      void this.login(
        "Your session has ended. Log in again; your changes are kept.",
      ).then((ok) => {
        if (ok) this.setStatus("Logged in again: press Publish", "dirty");
      });
      return;
    }
    this.setStatus(
      error.code === "rate_limited"
        ? "Not published: wait a moment"
        : "Not published",
      "error",
    );
    this.showAlert(failureSentence(error));
  }

  async logout(): Promise<void> {
    try {
      await this.client.logout();
    } catch (error) {
      this.fail(error);
      return;
    }
    const url = new URL(location.href);
    url.searchParams.delete("edit");
    location.replace(url.href);
  }

  close(): void {
    for (const page of this.pages) {
      for (const region of page.regions) region.destroy();
    }
    document.documentElement.removeAttribute("data-inpage-editing");
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((sheet) =>
      sheet !== this.pageSheet
    );
    this.host.remove();
    started = false;
  }
}

function applyChanges(
  base: PageObject,
  changes: ReadonlyMap<string, unknown>,
): PageObject {
  let page = base;
  for (const [pointer, value] of changes) {
    page = setPointer(page, pointer, value);
  }
  return page;
}

function label(page: PageState, pointer: string): string {
  const region = page.regions.find((r) => r.pointer === pointer);
  const text = region?.element.textContent?.trim().slice(0, 60);
  return text ? `“${text}” (${pointer})` : pointer;
}
