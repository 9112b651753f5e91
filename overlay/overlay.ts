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
import { createRichText, type RichText } from "./rich_text.ts";
import { OVERLAY_CSS, PAGE_CSS } from "./styles.ts";
import { CROPPER_CSS } from "./cropper_css.ts";
import { h, messageDialog, showDialog } from "./ui.ts";

interface PageState {
  path: string;
  container: HTMLElement;
  version: string;
  base: PageObject;
  changes: Map<string, unknown>;
  regions: Region[];
}

interface Region {
  kind: "text" | "html" | "image";
  pointer: string;
  element: HTMLElement;
  page: PageState;
  /** Shows a value without counting it as an edit. */
  show(value: unknown): void;
  destroy(): void;
  rich?: RichText;
}

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
  readonly toolbar: HTMLElement;
  readonly pageSheet: CSSStyleSheet;
  pages: PageState[] = [];
  activeRich: Region | undefined;
  busy = false;

  constructor(client: Client) {
    this.client = client;
    this.host = h("div", { "data-inpage-overlay": "" });
    this.root = this.host.attachShadow({ mode: "open" });
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(OVERLAY_CSS + CROPPER_CSS);
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
    this.toolbar = this.buildToolbar();
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
    this.ui = h("div", { class: "ui" }, this.toolbar, this.alert, bar);
    this.root.append(this.ui);
    addEventListener("scroll", () => {
      if (!this.toolbar.hidden) this.placeToolbar();
    }, { passive: true, capture: true });
    this.toolbar.addEventListener("keydown", (event) => {
      const buttons = [
        ...this.toolbar.querySelectorAll<HTMLElement>("button:not([hidden])"),
      ];
      const index = buttons.indexOf(event.composedPath()[0] as HTMLElement);
      if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
        event.preventDefault();
        const step = event.key === "ArrowRight" ? 1 : -1;
        buttons[(index + step + buttons.length) % buttons.length]?.focus();
      } else if (event.key === "Escape") {
        event.preventDefault();
        this.activeRich?.rich?.editor.commands.focus();
      }
    });
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
    for (const page of pages) this.mountRegions(page);
  }

  mountRegions(page: PageState): void {
    const nested = (element: Element) =>
      element.closest("[data-inpage-page]") === page.container;
    for (
      const element of page.container.querySelectorAll<HTMLElement>(
        "[data-inpage-text]",
      )
    ) {
      if (nested(element)) page.regions.push(this.textRegion(page, element));
    }
    for (
      const element of page.container.querySelectorAll<HTMLElement>(
        "[data-inpage-html]",
      )
    ) {
      if (nested(element)) page.regions.push(this.htmlRegion(page, element));
    }
    for (
      const element of page.container.querySelectorAll<HTMLElement>(
        "[data-inpage-image]",
      )
    ) {
      if (nested(element)) page.regions.push(this.imageRegion(page, element));
    }
  }

  textRegion(page: PageState, element: HTMLElement): Region {
    const pointer = element.getAttribute("data-inpage-text") ?? "";
    const value = getPointer(page.base, pointer);
    if (typeof value === "string" && element.textContent !== value) {
      element.textContent = value;
    }
    element.contentEditable = "plaintext-only";
    element.spellcheck = true;
    element.setAttribute("role", "textbox");
    element.setAttribute("aria-label", `Edit ${fieldName(pointer)}`);
    const onInput = () =>
      this.change(page, pointer, element.textContent ?? "", element);
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Enter") event.preventDefault();
    };
    const onFocus = () => this.hideToolbar();
    element.addEventListener("input", onInput);
    element.addEventListener("keydown", onKey);
    element.addEventListener("focus", onFocus);
    return {
      kind: "text",
      pointer,
      element,
      page,
      show(next) {
        element.textContent = typeof next === "string" ? next : "";
      },
      destroy() {
        element.removeEventListener("input", onInput);
        element.removeEventListener("keydown", onKey);
        element.removeEventListener("focus", onFocus);
        element.removeAttribute("contenteditable");
      },
    };
  }

  htmlRegion(page: PageState, element: HTMLElement): Region {
    const pointer = element.getAttribute("data-inpage-html") ?? "";
    const value = getPointer(page.base, pointer);
    const region: Region = {
      kind: "html",
      pointer,
      element,
      page,
      show: (next) =>
        region.rich?.setHtml(typeof next === "string" ? next : ""),
      destroy: () => region.rich?.destroy(),
    };
    let initial = "";
    region.rich = createRichText(
      element,
      typeof value === "string" ? value : "",
      {
        label: `Edit ${
          fieldName(pointer)
        } (rich text: Alt+F10 for the toolbar, Ctrl+K for a link)`,
        onChange: (html) => {
          // An untouched field keeps its stored markup, even where the
          // editor would write it differently.
          const next = html === initial ? getPointer(page.base, pointer) : html;
          this.change(page, pointer, next, element);
        },
        onFocus: () => {
          this.activeRich = region;
          this.showToolbar();
        },
        onSelection: () => {
          if (this.activeRich === region) this.updateToolbar();
        },
      },
    );
    initial = region.rich.html();
    element.addEventListener("keydown", (event) => {
      const rich = region.rich;
      if (!rich) return;
      if (event.altKey && event.key === "F10") {
        event.preventDefault();
        this.activeRich = region;
        this.showToolbar();
        this.toolbar.querySelector<HTMLElement>("button:not([hidden])")
          ?.focus();
      } else if (
        (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k"
      ) {
        event.preventDefault();
        this.activeRich = region;
        void this.editLink(rich);
      }
    });
    return region;
  }

  imageRegion(page: PageState, element: HTMLElement): Region {
    const pointer = element.getAttribute("data-inpage-image") ?? "";
    const image = element instanceof HTMLImageElement
      ? element
      : element.querySelector("img");
    element.tabIndex = 0;
    element.setAttribute("role", "button");
    element.setAttribute("aria-label", `Replace image: ${fieldName(pointer)}`);
    const replace = () => void this.replaceImage(page, pointer, element, image);
    const folder = new URL(image?.getAttribute("src") ?? "", location.href);
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        replace();
      }
    };
    const onClick = (event: Event) => {
      event.preventDefault();
      replace();
    };
    element.addEventListener("click", onClick);
    element.addEventListener("keydown", onKey);
    element.addEventListener("focus", () => this.hideToolbar());
    return {
      kind: "image",
      pointer,
      element,
      page,
      show(next) {
        if (!image || typeof next !== "object" || next === null) return;
        const media = next as Record<string, unknown>;
        if (typeof media.src === "string") {
          image.removeAttribute("srcset");
          image.src = new URL(media.src, folder).href;
        }
      },
      destroy() {
        element.removeEventListener("click", onClick);
        element.removeEventListener("keydown", onKey);
      },
    };
  }

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

  buildToolbar(): HTMLElement {
    const button = (
      name: string,
      text: string,
      title: string,
      run: (rich: RichText) => void,
      style = "",
    ) =>
      h("button", {
        type: "button",
        "data-command": name,
        "aria-label": title,
        title,
        "aria-pressed": "false",
        onmousedown: (event: Event) => event.preventDefault(),
        onclick: () => {
          const rich = this.activeRich?.rich;
          if (rich) run(rich);
          this.updateToolbar();
        },
        "data-glyph": text,
        style,
      });
    const chain = (rich: RichText) => rich.editor.chain().focus();
    return h(
      "div",
      {
        class: "toolbar",
        role: "toolbar",
        "aria-label": "Text formatting",
        hidden: true,
      },
      button(
        "bold",
        "B",
        "Bold (Ctrl+B)",
        (r) => chain(r).toggleBold().run(),
        "font-weight:700",
      ),
      button(
        "italic",
        "I",
        "Italic (Ctrl+I)",
        (r) => chain(r).toggleItalic().run(),
        "font-style:italic",
      ),
      button(
        "underline",
        "U",
        "Underline (Ctrl+U)",
        (r) => chain(r).toggleUnderline().run(),
        "text-decoration:underline",
      ),
      button(
        "strike",
        "S",
        "Strikethrough",
        (r) => chain(r).toggleStrike().run(),
        "text-decoration:line-through",
      ),
      button(
        "small",
        "small",
        "Small print",
        (r) => chain(r).toggleMark("small").run(),
        "font-size:12px",
      ),
      button(
        "subscript",
        "x₂",
        "Subscript",
        (r) => chain(r).toggleMark("subscript").run(),
      ),
      button(
        "superscript",
        "x²",
        "Superscript",
        (r) => chain(r).toggleMark("superscript").run(),
      ),
      h("span", { class: "sep", "aria-hidden": "true" }),
      button(
        "bulletList",
        "• List",
        "Bulleted list",
        (r) => chain(r).toggleBulletList().run(),
      ),
      button(
        "orderedList",
        "1. List",
        "Numbered list",
        (r) => chain(r).toggleOrderedList().run(),
      ),
      h("span", { class: "sep", "aria-hidden": "true" }),
      button(
        "link",
        "Link",
        "Add or edit a link",
        (r) => void this.editLink(r),
      ),
    );
  }

  showToolbar(): void {
    const region = this.activeRich;
    if (!region) return;
    this.toolbar.hidden = false;
    for (const name of ["bulletList", "orderedList"]) {
      const item = this.toolbar.querySelector<HTMLElement>(
        `[data-command="${name}"]`,
      );
      if (item) item.hidden = region.rich?.inline ?? false;
    }
    this.placeToolbar();
    this.updateToolbar();
  }

  placeToolbar(): void {
    const region = this.activeRich;
    if (!region) return;
    const box = region.element.getBoundingClientRect();
    const height = this.toolbar.offsetHeight;
    const top = box.top - height - 10 >= 0
      ? box.top - height - 10
      : box.bottom + 10;
    this.toolbar.style.top = `${Math.max(4, top)}px`;
    this.toolbar.style.left = `${
      Math.max(4, Math.min(box.left, innerWidth - this.toolbar.offsetWidth - 4))
    }px`;
  }

  hideToolbar(): void {
    this.toolbar.hidden = true;
    this.activeRich = undefined;
  }

  updateToolbar(): void {
    const editor = this.activeRich?.rich?.editor;
    if (!editor) return;
    for (
      const item of this.toolbar.querySelectorAll<HTMLElement>("[data-command]")
    ) {
      const name = item.dataset.command ?? "";
      item.setAttribute("aria-pressed", String(editor.isActive(name)));
    }
  }

  async editLink(rich: RichText): Promise<void> {
    const current = rich.editor.getAttributes("link");
    const href = h("input", {
      type: "text",
      value: typeof current.href === "string" ? current.href : "",
      required: true,
    });
    const title = h("input", {
      type: "text",
      value: typeof current.title === "string" ? current.title : "",
    });
    const dialog = messageDialog("Link", [
      h(
        "label",
        {},
        "Address",
        href,
        h(
          "span",
          { class: "hint" },
          "A page of the site (/about), a #section, or an https:, mailto: or tel: address.",
        ),
      ),
      h("label", {}, "Title (optional)", title),
    ], [
      { label: "Cancel", value: "cancel" },
      { label: "Remove link", value: "remove", kind: "danger" },
      { label: "Apply", value: "apply", kind: "primary" },
    ]);
    const answer = await showDialog(this.root, dialog);
    const chain = rich.editor.chain().focus().extendMarkRange("link");
    if (answer === "remove") chain.unsetMark("link").run();
    if (answer === "apply" && href.value.trim() !== "") {
      const attributes = title.value.trim() === ""
        ? { href: href.value.trim() }
        : { href: href.value.trim(), title: title.value.trim() };
      chain.setMark("link", attributes).run();
    }
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

function findRegion(page: PageState, at: string): Region | undefined {
  let best: Region | undefined;
  for (const region of page.regions) {
    const inside = at === region.pointer || at.startsWith(`${region.pointer}/`);
    if (inside && (!best || region.pointer.length > best.pointer.length)) {
      best = region;
    }
  }
  return best;
}

/** A field's name in words: `/sections/0/heading` is "sections 1 heading". */
function fieldName(pointer: string): string {
  const words = pointer.split("/").slice(1).map((part) =>
    /^\d+$/.test(part)
      ? String(Number(part) + 1)
      : part.replaceAll("~1", "/").replaceAll("~0", "~").replaceAll(
        /[_-]/g,
        " ",
      )
  );
  return words.join(" ") || "page";
}

function label(page: PageState, pointer: string): string {
  const region = page.regions.find((r) => r.pointer === pointer);
  const text = region?.element.textContent?.trim().slice(0, 60);
  return text ? `“${text}” (${pointer})` : pointer;
}
