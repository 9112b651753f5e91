/// <reference lib="dom" />
/**
 * The controller, after Sanity visual-editing's `controller.ts`: it turns
 * the DOM's events into commands on the store (what a region typed, an
 * undo shortcut, a list control, a dialog's answer) and shows every
 * transaction on the page once (`views/render.ts`). It holds no value of
 * its own: only where the person is working (the region focused, and the
 * undo group of its focus), and the views. The workflows (`flows/`) and
 * the bar's actions (`actions.ts`) run from here.
 *
 * @module
 */

import {
  type ActionContext,
  barActions,
  type ControllerParts,
  editAlt,
  replaceImage,
} from "./actions.ts";
import type { PageView } from "./page_view.ts";
import type { Region, RegionHooks } from "./regions.ts";
import { typed } from "./state/commands.ts";
import { changeCount } from "./state/count.ts";
import { redo, undo } from "./state/history.ts";
import { focusedElement } from "./ui.ts";
import { type BarView, createBar } from "./views/bar.ts";
import { createDock, type Dock } from "./views/dock.ts";
import { editLink } from "./views/link_dialog.ts";
import { regionLabel } from "./views/names.ts";
import { followLinksOnModifiedClick } from "./views/preview.ts";
import { createNotices } from "./views/notices.ts";
import { render } from "./views/render.ts";
import { Toolbar } from "./views/toolbar.ts";

/** The controller of the page being edited. */
export class Controller {
  /** What the regions report to. */
  readonly hooks: RegionHooks;
  /** The bar. */
  readonly bar: BarView;
  /** What is docked at the bottom. */
  readonly dock: Dock;
  /** The formatting toolbar. */
  readonly toolbar: Toolbar;
  readonly #parts: ControllerParts;
  readonly #context: ActionContext;
  #working: Region | undefined;
  #groups = new WeakMap<Region, string>();
  #focusCount = 0;
  readonly #stops: Array<() => void> = [];

  /**
   * Builds the bar, the notices, the toolbar and the dock, and listens to
   * the keyboard and to leaving the page.
   *
   * @param parts the store, client, shell and images
   */
  constructor(parts: ControllerParts) {
    this.#parts = parts;
    const { store, shell } = parts;
    this.toolbar = new Toolbar(
      shell.root,
      () => this.dock.topWithout(this.toolbar.element),
      () => this.dock.update(),
    );
    this.#context = {
      ...parts,
      page: () => this.page,
      toolbar: this.toolbar,
      returnFocus: () => this.returnFocus(),
      focusField: (path, at) => this.focusField(path, at),
      hold: (element) => this.dock.hold(element),
      unguard: () => this.#unguard(),
    };
    this.bar = createBar(store, barActions(this.#context));
    this.#context.bar = this.bar;
    const notices = createNotices(store, {
      focusProblem: (path, at) => this.focusField(path, at),
      dismiss: () => store.dispatch(store.state.tr.setAlert(undefined)),
      fieldLabel: (path, at) => this.page?.label(path, at) ?? at,
    });
    shell.ui.append(
      this.toolbar.element,
      notices.problems,
      notices.alert,
      this.bar.bar,
    );
    this.dock = createDock({
      bar: this.bar.bar,
      host: shell.host,
      ui: shell.ui,
      above: [notices.problems, notices.alert],
      docked: () => [
        ...(this.page?.lists.docked() ?? []),
        ...(this.toolbar.docked ? [this.toolbar.element] : []),
      ],
      moved: () => {
        if (!this.toolbar.element.hidden) this.toolbar.place();
      },
    });
    this.hooks = this.#regionHooks();
    this.#listen();
    // In Edit, Ctrl+click (⌘+click) follows a link, in a new tab.
    this.#stops.push(
      followLinksOnModifiedClick(() => this.#context.previewing?.() ?? false),
    );
  }

  /** The page being edited, once mounted. */
  page: PageView | undefined;

  /**
   * Shows every transaction on the page from now on.
   *
   * @param page the page mounted
   */
  attach(page: PageView): void {
    this.page = page;
    const { store } = this.#parts;
    this.#stops.push(store.subscribe((state, before, tr) => {
      render(page, state, before, tr);
      this.dock.keepInView(this.#working?.element);
    }));
  }

  /** The part of the controller the page's hosts need. */
  get context(): ActionContext {
    return this.#context;
  }

  #regionHooks(): RegionHooks {
    const { store, shell } = this.#parts;
    return {
      typed: (region, value) =>
        store.dispatch(
          typed(
            store.state,
            region.path,
            region.pointer,
            value,
            this.#group(region),
          ),
        ),
      focus: (region) => this.#focus(region, false),
      blur: () => {},
      richFocus: (region) => this.#focus(region, true),
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
        if (region.rich) void editLink(shell.root, region.rich);
      },
      richUnavailable: () =>
        store.dispatch(store.state.tr.setAlert({ code: "richTextFailed" })),
      richReady: () => this.#redrawMarks(),
      replaceImage: (region, image) =>
        void replaceImage(this.#context, region, image),
      label: regionLabel,
    };
  }

  /** The undo group of a region's focus: typing in it is one step. */
  #group(region: Region): string {
    let group = this.#groups.get(region);
    if (!group) {
      group = `${region.path} ${region.pointer} ${++this.#focusCount}`;
      this.#groups.set(region, group);
    }
    return group;
  }

  /** A region gained the focus: a new undo group, the field kept in view. */
  #focus(region: Region, rich: boolean): void {
    this.#working = region;
    this.#groups.set(
      region,
      `${region.path} ${region.pointer} ${++this.#focusCount}`,
    );
    if (rich && region.rich) {
      this.toolbar.show(region.rich, region.element);
    } else this.toolbar.hide();
    this.dock.keepInView(region.element);
    if (rich) this.toolbar.place();
  }

  #redrawMarks(): void {
    const page = this.page;
    if (!page) return;
    const { store } = this.#parts;
    render(page, store.state, store.state, store.state.tr);
  }

  /**
   * Brings a field into view and focuses it.
   *
   * @param path the page path
   * @param at the field's pointer
   */
  focusField(path: string, at: string): void {
    const element = this.page?.elementAt(path, at);
    if (!element) return;
    element.scrollIntoView({ block: "center" });
    const region = this.page?.regions.find((each) => each.element === element);
    (region?.rich?.editor.view.dom as HTMLElement | undefined ?? element)
      .focus();
  }

  /** Gives the focus back to where the person was working. */
  returnFocus(): void {
    const working = this.#working;
    const now = focusedElement();
    if (
      !working?.element.isConnected ||
      (now && now !== this.bar.publishButton && now !== this.#parts.shell.host)
    ) return;
    // A rich-text editor puts its own selection back.
    if (working.rich) working.rich.editor.view.focus();
    else working.element.focus({ preventScroll: true });
  }

  /** Undo and redo shortcuts outside fields, and leaving with changes. */
  #listen(): void {
    const { store } = this.#parts;
    const onKey = (event: KeyboardEvent) => {
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
      store.dispatch(
        key === "y" || event.shiftKey ? redo(store.state) : undo(store.state),
      );
    };
    // No question while a publish is under way: its answer may come after
    // the site's own reload, which takes it as published.
    const onUnload = (event: BeforeUnloadEvent) => {
      const state = store.state;
      if (state.busy || changeCount(state) === 0) return;
      event.preventDefault();
      event.returnValue = "";
    };
    addEventListener("keydown", onKey);
    addEventListener("beforeunload", onUnload);
    this.#stops.push(() => removeEventListener("keydown", onKey));
    this.#unguards.push(() => removeEventListener("beforeunload", onUnload));
  }

  readonly #unguards: Array<() => void> = [];

  /** Leaving the page asks nothing any more (a log out, a reload asked). */
  #unguard(): void {
    for (const stop of this.#unguards.splice(0)) stop();
  }

  /** Opens the alt text dialog of an image region. */
  editAlt(region: Region): void {
    void editAlt(this.#context, region);
  }

  /** Takes everything back. */
  close(): void {
    this.#unguard();
    for (const stop of this.#stops.splice(0)) stop();
    this.page?.close();
    this.dock.stop();
    this.#parts.shell.close();
  }
}
