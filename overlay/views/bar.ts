/// <reference lib="dom" />
/**
 * The bar at the bottom of the page: the status (and what was published),
 * Undo, Redo, Discard all, the commit message, Edit and Preview, Publish,
 * and More (Page, History, who is logged in, Log out). It shows the edit
 * state and sends the person's actions to the controller; the words are
 * chosen here. The status keeps one width whatever it says, so the bar
 * never reflows as it changes, and at 1,280 px the bar is one row. On a
 * phone it is one line (the status, Publish, More, Minimise), More showing
 * the rest above it. The pages this tab changed on other page views are
 * named beside the status ("Also changed: /en/about/", "+1 page" on a
 * phone, the whole sentence under More). Anywhere it can be minimised to its status and a
 * "Show editor" button. The controls that need a session appear once a
 * page is open, never behind the login dialog.
 *
 * @module
 */

import { plural, text } from "../i18n/mod.ts";
import type { EditState } from "../state/state.ts";
import { statusOf } from "../state/status.ts";
import type { Store } from "../store.ts";
import { h } from "../ui.ts";
import { otherPageName, statusWords } from "./words.ts";

/** What the bar's buttons do. */
export interface BarActions {
  /** Undo across the page. */
  undo(): void;
  /** Redo across the page. */
  redo(): void;
  /** Drop every unsaved change (after asking). */
  discardAll(): void;
  /** Publish with the message typed. */
  publish(): void;
  /** Sets the commit message typed. */
  message(text: string): void;
  /** Log out (after asking when changes are unsaved). */
  logout(): void;
  /** Open the page's History panel. */
  history(): void;
  /** Switch between editing and previewing the page as a visitor sees it. */
  preview(on: boolean): void;
  /** Open the Page panel (the fields no region shows). */
  page(): void;
  /** Send every changed page for review with the message typed. */
  sendForReview(): void;
  /** Open the Reviews panel. */
  reviews(): void;
}

/** The bar, to append to the overlay's interface. */
export interface BarView {
  /** The bar itself. */
  bar: HTMLElement;
  /** The Publish button. */
  publishButton: HTMLButtonElement;
  /** Where "Logged in as …" is shown (hidden until known). */
  who: HTMLElement;
  /** Shows whether the page is in preview (the switch's pressed button). */
  showMode(preview: boolean): void;
  /** Shows the controls of a role: an author sends for review only. */
  setRole(role: "author" | "publisher"): void;
}

const button = (
  label: string,
  run: () => void,
  extra: Record<string, unknown> = {},
) => h("button", { type: "button", onclick: run, ...extra }, label);

/** The status, what was published and the other tabs, in one fixed box. */
function statusBox(also: ReturnType<typeof alsoChanged>) {
  const status = h("span", { class: "status", role: "status" });
  const detail = h("span", { class: "detail" });
  const long = h("span", { class: "long" });
  const short = h("span", { class: "short", "aria-hidden": "true" });
  const tabs = h(
    "span",
    { class: "tabs", role: "note", hidden: true },
    long,
    short,
  );
  const box = h("span", { class: "state" }, status, detail, also.note, tabs);
  return {
    box,
    render(state: EditState) {
      also.render(state);
      const status$ = statusOf(state);
      const words = statusWords(status$);
      status.textContent = words.text;
      status.dataset.state = status$.tone;
      // A newcomer is told what to do while nothing is changed.
      // …unless the bar names pages changed elsewhere: their work is on.
      detail.textContent = words.detail ??
        (status$.code === "noChanges" && state.elsewhere.length === 0
          ? text("hint")
          : "");
      tabs.hidden = state.others === 0;
      long.textContent = state.others === 0
        ? ""
        : plural("otherTabs", state.others);
      short.textContent = state.others === 0
        ? ""
        : plural("otherTabsShort", state.others);
      box.title = [
        words.text,
        detail.textContent,
        also.long.textContent,
        long.textContent,
      ].filter(Boolean).join(" · ");
    },
  };
}

/**
 * The pages this tab changed on other page views, beside the status
 * ("Also changed: /en/about/"; "+1 page" on a phone), and in More the
 * whole sentence with every address: Send for review carries them too.
 */
function alsoChanged(author: () => boolean) {
  const long = h("span", { class: "long" });
  const short = h("span", { class: "short", "aria-hidden": "true" });
  const note = h(
    "span",
    { class: "also", role: "note", hidden: true },
    long,
    short,
  );
  const line = h("span", { class: "also-line", hidden: true });
  return {
    note,
    long,
    line,
    render(state: EditState) {
      const pages = state.elsewhere;
      note.hidden = line.hidden = pages.length === 0;
      if (pages.length === 0) {
        for (const each of [long, short, line]) each.textContent = "";
        note.title = "";
        note.removeAttribute("aria-label");
        return;
      }
      const names = pages.map(otherPageName).join(", ");
      long.textContent = pages.length === 1
        ? text("alsoChangedOne", { page: names })
        : plural("alsoChanged", pages.length);
      short.textContent = plural("alsoChangedShort", pages.length);
      line.textContent = `${
        plural("alsoChangedPages", pages.length, { pages: names })
      } ${text(author() ? "alsoChangedAuthor" : "alsoChangedPublisher")}`;
      note.title = line.textContent;
      // On a phone only "+1 page" shows: the whole sentence is its name.
      note.setAttribute("aria-label", line.textContent);
    },
  };
}

/** Undo, Redo, Discard all and the commit message. */
function editGroup(actions: BarActions) {
  const undo = button(text("undo"), actions.undo, { title: text("undoTitle") });
  const redo = button(text("redo"), actions.redo, { title: text("redoTitle") });
  const discard = button(text("discardAll"), actions.discardAll);
  const message = h("input", {
    type: "text",
    maxlength: "120",
    placeholder: text("messagePlaceholder"),
    "aria-label": text("message"),
    enterkeyhint: "send",
  });
  message.addEventListener("input", () => actions.message(message.value));
  message.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.isComposing) {
      event.preventDefault();
      actions.publish();
    }
  });
  const group = h(
    "span",
    { class: "edit" },
    h("span", { class: "group" }, undo, redo, discard),
    message,
  );
  return {
    group,
    render(state: EditState) {
      undo.disabled = !state.canUndo;
      redo.disabled = !state.canRedo;
      discard.disabled = state.busy ||
        state.pages.every((page) => page.changes.size === 0);
      if (message.value !== state.message) message.value = state.message;
    },
  };
}

/** Edit and Preview. */
function modeSwitch(actions: BarActions) {
  const edit = button(text("modeEdit"), () => actions.preview(false), {
    "aria-pressed": "true",
  });
  const preview = button(text("modePreview"), () => actions.preview(true), {
    "aria-pressed": "false",
  });
  const group = h(
    "span",
    { class: "group modes", role: "group", "aria-label": text("mode") },
    edit,
    preview,
  );
  return {
    group,
    show(on: boolean) {
      edit.setAttribute("aria-pressed", String(!on));
      preview.setAttribute("aria-pressed", String(on));
    },
  };
}

/** More: Page, History, who is logged in, Log out. */
function moreMenu(actions: BarActions, bar: () => HTMLElement) {
  const who = h("span", { class: "who", hidden: true });
  const close = () => toggle(false);
  const item = (label: string, run: () => void, extra = {}) =>
    button(label, () => {
      close();
      run();
    }, extra);
  const menu = h(
    "span",
    { class: "menu", id: "inpage-bar-menu" },
    item(text("page"), actions.page, { title: text("pageTitle") }),
    item(text("history"), actions.history, { class: "history" }),
    item(text("reviews"), actions.reviews, { class: "reviews" }),
    who,
    item(text("logOut"), actions.logout),
  );
  const more = button(text("more"), () => toggle(), {
    class: "more",
    "aria-expanded": "false",
    "aria-controls": "inpage-bar-menu",
  });
  const toggle = (open = more.getAttribute("aria-expanded") !== "true") => {
    more.setAttribute("aria-expanded", String(open));
    bar().toggleAttribute("data-expanded", open);
  };
  // Escape anywhere in the bar closes it (on a phone, More shows the
  // undo and message controls too), the focus back on More.
  const onKey = (event: KeyboardEvent) => {
    if (
      event.key !== "Escape" || more.getAttribute("aria-expanded") !== "true"
    ) return;
    event.preventDefault();
    close();
    more.focus();
  };
  // A press anywhere else closes it, as menus do.
  addEventListener("pointerdown", (event) => {
    if (
      more.getAttribute("aria-expanded") === "true" &&
      !event.composedPath().includes(bar())
    ) close();
  }, true);
  return { menu, more, who, onKey };
}

/** Minimise, and Show editor to come back. */
function minimiser(bar: () => HTMLElement) {
  const minimise: HTMLButtonElement = button("", () => {
    const minimised = !bar().hasAttribute("data-minimised");
    bar().toggleAttribute("data-minimised", minimised);
    minimise.textContent = minimised ? text("showEditor") : "";
    minimise.setAttribute(
      "aria-label",
      minimised ? text("showEditor") : text("minimise"),
    );
    minimise.title = minimised ? "" : text("minimise");
    minimise.setAttribute("aria-expanded", String(!minimised));
  }, {
    class: "minimise",
    "aria-expanded": "true",
    "aria-label": text("minimise"),
    title: text("minimise"),
  });
  return minimise;
}

/**
 * Builds the bar and keeps it showing the edit state.
 *
 * @param store the store
 * @param actions what the buttons do
 * @returns the bar
 */
export function createBar(store: Store, actions: BarActions): BarView {
  let author = false;
  // Publish waits for the role: an author never sees it, even a moment.
  let known = false;
  const also = alsoChanged(() => author);
  const status = statusBox(also);
  const edit = editGroup(actions);
  const modes = modeSwitch(actions);
  const more = moreMenu(actions, () => bar);
  const publishButton = button(text("publish"), actions.publish, {
    class: "primary",
  });
  const reviewButton = button(text("sendForReview"), actions.sendForReview, {
    class: "review",
  });
  more.menu.prepend(also.line);
  const sessionControls = [
    edit.group,
    modes.group,
    reviewButton,
    publishButton,
    more.more,
  ];
  const bar: HTMLElement = h(
    "div",
    { class: "bar", role: "region", "aria-label": text("barLabel") },
    h("span", { class: "title" }, text("barTitle")),
    status.box,
    ...sessionControls,
    more.menu,
    minimiser(() => bar),
  );
  bar.addEventListener("keydown", more.onKey);
  const render = (state: EditState) => {
    const ready = state.pages.length > 0;
    for (const control of sessionControls) control.hidden = !ready;
    publishButton.hidden = !ready || !known || author;
    more.menu.hidden = !ready;
    status.render(state);
    edit.render(state);
    publishButton.disabled = state.busy;
    reviewButton.disabled = state.busy;
  };
  store.subscribe((state) => render(state));
  render(store.state);
  return {
    bar,
    publishButton,
    who: more.who,
    showMode(preview) {
      modes.show(preview);
      bar.toggleAttribute("data-preview", preview);
    },
    setRole(role) {
      known = true;
      author = role === "author";
      // On a phone a publisher finds Send for review under More.
      bar.toggleAttribute("data-author", author);
      render(store.state);
    },
  };
}
