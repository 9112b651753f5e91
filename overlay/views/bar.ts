/// <reference lib="dom" />
/**
 * The bar at the bottom of the page, with the alert and the list of
 * problems above it: it shows the session's state and sends the person's
 * actions to the wiring. The controls that need a session (Undo, Publish,
 * Log out…) appear once a page is open, never behind the login dialog. On
 * a phone the bar is one line (the status, Publish, More, Minimise), More
 * showing the rest above it; anywhere it can be minimised to its status and
 * a "Show editor" button. The page keeps room for it below its own end
 * ({@linkcode keepRoomForBar}), so the site's footer is never under it.
 *
 * @module
 */

import type { EditSession } from "../session/session.ts";
import { fieldName } from "../session/pointer.ts";
import { text } from "../i18n/mod.ts";
import { h } from "../ui.ts";

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
  /** Log out (after asking when changes are unsaved). */
  logout(): void;
  /** Bring a field with a problem into view and focus it. */
  focusProblem(path: string, at: string): void;
  /** Open the page's History panel. */
  history(): void;
  /** Switch between editing and previewing the page as a visitor sees it. */
  preview(on: boolean): void;
  /** Open the Page panel (the fields no region shows). */
  page?(): void;
}

/** The bar's elements, to append to the overlay's interface. */
export interface BarView {
  /** The alert, the problems and the bar. */
  elements: HTMLElement[];
  /** The bar itself. */
  bar: HTMLElement;
  /** The Publish button. */
  publishButton: HTMLButtonElement;
  /** Where "Logged in as …" is shown (hidden until known). */
  who: HTMLElement;
  /** Shows whether the page is in preview (the switch's pressed button). */
  showMode(preview: boolean): void;
}

/**
 * Builds the bar and keeps it showing the session's state.
 *
 * @param session the edit session
 * @param actions what the buttons do
 * @returns the bar's elements
 */
export function createBar(session: EditSession, actions: BarActions): BarView {
  const status = h(
    "span",
    { class: "status", role: "status" },
    session.status.text,
  );
  const hint = h("span", { class: "hint", hidden: true }, text("hint"));
  /** What was published, beside "Published". */
  const detail = h("span", { class: "detail", hidden: true });
  const message = h("input", {
    type: "text",
    maxlength: "120",
    placeholder: text("messagePlaceholder"),
    enterkeyhint: "send",
  });
  message.addEventListener("input", () => session.setMessage(message.value));
  message.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.isComposing) {
      event.preventDefault();
      actions.publish();
    }
  });
  const button = (label: string, run: () => void, extra = {}) =>
    h("button", { type: "button", onclick: run, ...extra }, label);
  const undo = button(text("undo"), actions.undo, { title: text("undoTitle") });
  const redo = button(text("redo"), actions.redo, { title: text("redoTitle") });
  const discard = button(text("discardAll"), actions.discardAll);
  const publishButton = button(text("publish"), actions.publish, {
    class: "primary",
  });
  const who = h("span", { class: "who", hidden: true });
  const alertText = h("p", {});
  const alert = h(
    "div",
    { class: "alert", role: "alert", hidden: true },
    alertText,
    button(text("dismiss"), () => session.setAlert(undefined)),
  );
  const problemList = h("ul", {});
  const problems = h(
    "div",
    {
      class: "problems",
      role: "region",
      "aria-label": text("problemsLabel"),
      hidden: true,
    },
    problemList,
  );
  const extra = h(
    "span",
    { class: "extra", id: "inpage-bar-extra" },
    h("span", { class: "group" }, undo, redo, discard),
    h("label", {}, text("message"), message),
    actions.page &&
      button(text("page"), actions.page, { title: text("pageTitle") }),
    button(text("history"), actions.history, { class: "history" }),
    who,
    button(text("logOut"), actions.logout),
  );
  const editMode = button(text("modeEdit"), () => actions.preview(false), {
    "aria-pressed": "true",
  });
  const previewMode = button(
    text("modePreview"),
    () => actions.preview(true),
    { "aria-pressed": "false" },
  );
  const modes = h(
    "span",
    { class: "group modes", role: "group", "aria-label": text("mode") },
    editMode,
    previewMode,
  );
  const more = button(text("more"), () => {
    const open = more.getAttribute("aria-expanded") !== "true";
    more.setAttribute("aria-expanded", String(open));
    bar.toggleAttribute("data-expanded", open);
  }, {
    class: "more",
    "aria-expanded": "false",
    "aria-controls": "inpage-bar-extra",
  });
  // Minimise is a glyph with a name; Show editor says it in words.
  const minimise = button("", () => {
    const minimised = !bar.hasAttribute("data-minimised");
    bar.toggleAttribute("data-minimised", minimised);
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
  const sessionControls = [extra, modes, publishButton, more];
  const bar = h(
    "div",
    { class: "bar", role: "region", "aria-label": text("barLabel") },
    h("span", { class: "title" }, text("barTitle")),
    status,
    detail,
    hint,
    ...sessionControls,
    minimise,
  );
  const render = () => {
    const ready = session.pages.length > 0;
    for (const control of sessionControls) control.hidden = !ready;
    status.textContent = session.status.text;
    status.dataset.state = session.status.tone;
    const published = session.status.tone === "published"
      ? session.published
      : undefined;
    detail.hidden = !published;
    detail.textContent = published
      ? text(published.message ? "publishedDetail" : "publishedAt", {
        message: published.message,
        time: new Date(published.at).toLocaleTimeString(
          document.documentElement.lang || undefined,
          { hour: "2-digit", minute: "2-digit" },
        ),
      })
      : "";
    hint.hidden = !(session.status.tone === "clean" && ready);
    undo.disabled = !session.canUndo;
    redo.disabled = !session.canRedo;
    discard.disabled = session.busy || session.count === 0;
    publishButton.disabled = session.busy;
    if (message.value !== session.message) message.value = session.message;
    alert.hidden = session.alert === undefined;
    alertText.textContent = session.alert ?? "";
    const seen = new Set<string>();
    const items = session.problems.filter((problem) => {
      const key = `${problem.path} ${problem.at} ${problem.reason}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    problems.hidden = items.length === 0;
    problemList.replaceChildren(
      ...items.map((problem) =>
        h(
          "li",
          {},
          h("button", {
            type: "button",
            class: "link",
            onclick: () => actions.focusProblem(problem.path, problem.at),
          }, fieldName(problem.at)),
          ` ${problem.sentence}`,
        )
      ),
    );
  };
  session.subscribe((event) => {
    if (event.type === "state") render();
  });
  render();
  return {
    elements: [problems, alert, bar],
    bar,
    publishButton,
    who,
    showMode(preview) {
      editMode.setAttribute("aria-pressed", String(!preview));
      previewMode.setAttribute("aria-pressed", String(preview));
      bar.toggleAttribute("data-preview", preview);
    },
  };
}

/**
 * Keeps room for the bar: the overlay's host element (the last child of
 * the body) gets the height the bar covers at the bottom of the viewport,
 * so the page can scroll its own end (a footer) above the bar; the page's
 * `scroll-padding-bottom` follows, so that a field the browser scrolls to
 * stops above the bar; and the `--inpage-bar-space` property tells the
 * overlay's alert and toolbar where the bar begins.
 *
 * @param bar the bar
 * @param host the overlay's host element
 * @param ui the overlay's interface element (in the shadow root)
 * @param moved called when the bar's top moved (to place the toolbar again)
 * @param above what shows above the bar at times (the problems, the alert):
 *   the page's room covers them too while they show
 * @returns a function that stops it and gives the room back
 */
export function keepRoomForBar(
  bar: HTMLElement,
  host: HTMLElement,
  ui: HTMLElement,
  moved: () => void = () => {},
  above: readonly HTMLElement[] = [],
): () => void {
  const update = () => {
    const box = bar.getBoundingClientRect();
    const space = box.height === 0 ? 0 : Math.ceil(innerHeight - box.top);
    ui.style.setProperty("--inpage-bar-space", `${space}px`);
    document.documentElement.style.setProperty(
      "--inpage-bar-space",
      `${space}px`,
    );
    // Measured once they are placed above the bar's new top.
    const tops = [bar, ...above].map((element) =>
      element.getBoundingClientRect()
    ).filter((shown) => shown.height > 0).map((shown) => shown.top);
    const covered = tops.length === 0
      ? 0
      : Math.ceil(innerHeight - Math.min(...tops));
    host.style.setProperty("display", "block");
    host.style.setProperty("height", `${covered}px`);
    moved();
  };
  const observer = new ResizeObserver(update);
  observer.observe(bar);
  for (const element of above) observer.observe(element);
  addEventListener("resize", update, { passive: true });
  update();
  return () => {
    observer.disconnect();
    removeEventListener("resize", update);
    host.style.removeProperty("height");
    document.documentElement.style.removeProperty("--inpage-bar-space");
  };
}

/**
 * The top of the bar in the viewport: what lies below it is covered.
 *
 * @param bar the bar
 * @returns its top, or the viewport's height when it is not shown
 */
export function barTop(bar: HTMLElement): number {
  const box = bar.getBoundingClientRect();
  return box.height === 0 ? innerHeight : box.top;
}

/**
 * Scrolls the page so that an element lies between the top of the viewport
 * and the bar (less `reserve` pixels for a toolbar), when it fits there.
 *
 * @param element the field being edited
 * @param bar the bar
 * @param reserve room to keep free above the bar or the top
 */
export function reveal(
  element: HTMLElement,
  bar: HTMLElement,
  reserve = 0,
): void {
  const box = element.getBoundingClientRect();
  const bottom = barTop(bar) - 8;
  if (box.bottom > bottom) {
    const by = Math.min(box.bottom - bottom, box.top - reserve - 8);
    if (by > 0) scrollBy({ top: by, behavior: "instant" });
  } else if (box.top < reserve + 8) {
    const by = box.top - reserve - 8;
    if (box.bottom - by <= bottom) scrollBy({ top: by, behavior: "instant" });
  }
}
