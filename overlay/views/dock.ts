/// <reference lib="dom" />
/**
 * What the overlay docks at the bottom of the viewport (the bar, the
 * problems and the alert above it, a list item's controls on a phone),
 * and the room the page keeps for it: the overlay's host element gets the
 * height they cover, so the page can scroll its own end (a footer) above
 * them; the page's `scroll-padding-bottom` follows, so a field the browser
 * scrolls to stops above them; and `--inpage-bar-space` tells the alert,
 * the problems and the toolbar where the bar begins. The field being
 * edited is kept above them as they grow ({@linkcode Dock.keepInView}): a
 * notice never covers what it is about.
 *
 * @module
 */

/** The docked stack at the bottom of the viewport. */
export interface Dock {
  /** The top of what the dock covers now (the viewport's height: nothing). */
  coveredTop(): number;
  /** The top of the dock without one of its elements (what rests on it). */
  topWithout(element: HTMLElement): number;
  /** The top of the bar alone. */
  barTop(): number;
  /** Measures again (something docked was shown or hidden). */
  update(): void;
  /**
   * Keeps an element, the field being edited, above the dock while it holds
   * the focus.
   */
  keepInView(element: HTMLElement | undefined): void;
  /**
   * Docks one more element for as long as it shows (History's banner),
   * the page keeping room for it.
   *
   * @returns a function that lets it go
   */
  hold(element: HTMLElement): () => void;
  /** Stops and gives the room back. */
  stop(): void;
}

/** What the dock is made of. */
export interface DockParts {
  /** The bar. */
  bar: HTMLElement;
  /** The overlay's host element, which keeps the page's room. */
  host: HTMLElement;
  /** The overlay's interface element (in the shadow root). */
  ui: HTMLElement;
  /** What shows above the bar at times (the problems, the alert). */
  above: readonly HTMLElement[];
  /** What else is docked now (a list item's controls on a phone). */
  docked?(): readonly HTMLElement[];
  /** Told when the dock moved (to place the toolbar again). */
  moved?(): void;
}

function topOf(elements: readonly HTMLElement[]): number {
  const tops = elements.map((element) => element.getBoundingClientRect())
    .filter((box) => box.height > 0).map((box) => box.top);
  return tops.length === 0 ? innerHeight : Math.min(...tops);
}

/**
 * Docks the bar and what goes with it.
 *
 * @param parts the bar, the host, the interface and what shows above
 * @returns the dock
 */
export function createDock(parts: DockParts): Dock {
  let field: HTMLElement | undefined;
  const held = new Set<HTMLElement>();
  const covering = () => [
    parts.bar,
    ...parts.above,
    ...(parts.docked?.() ?? []),
    ...held,
  ];
  const update = () => {
    const space = Math.ceil(innerHeight - topOf([parts.bar]));
    for (const style of [parts.ui.style, document.documentElement.style]) {
      style.setProperty("--inpage-bar-space", `${space}px`);
    }
    // The problems and the alert go above what else is docked, one above
    // the other.
    const docked = parts.docked?.() ?? [];
    let offset = docked.length === 0 ? space : innerHeight - topOf(docked);
    for (const element of parts.above) {
      if (element.hidden) continue;
      element.style.bottom = `${Math.ceil(offset + 8)}px`;
      offset += element.getBoundingClientRect().height + 8;
    }
    const covered = Math.ceil(innerHeight - topOf(covering()));
    parts.host.style.setProperty("display", "block");
    parts.host.style.setProperty("height", `${covered}px`);
    document.documentElement.style.setProperty(
      "--inpage-covered",
      `${covered}px`,
    );
    if (editing(field)) keepAbove(field, topOf(covering()));
    parts.moved?.();
  };
  const observer = new ResizeObserver(update);
  for (const element of [parts.bar, ...parts.above]) observer.observe(element);
  addEventListener("resize", update, { passive: true });
  update();
  return {
    coveredTop: () => topOf(covering()),
    topWithout: (element) =>
      topOf(covering().filter((each) => each !== element)),
    barTop: () => topOf([parts.bar]),
    update,
    hold(element) {
      held.add(element);
      observer.observe(element);
      update();
      return () => {
        held.delete(element);
        observer.unobserve(element);
        update();
      };
    },
    keepInView(element) {
      field = element;
      if (editing(element)) keepAbove(element, topOf(covering()));
    },
    stop() {
      observer.disconnect();
      removeEventListener("resize", update);
      parts.host.style.removeProperty("height");
      for (const name of ["--inpage-bar-space", "--inpage-covered"]) {
        document.documentElement.style.removeProperty(name);
      }
    },
  };
}

/** Whether a field is still where the person works (it holds the focus). */
function editing(field: HTMLElement | undefined): field is HTMLElement {
  return field !== undefined && field.isConnected &&
    field.matches(":focus-within");
}

/**
 * Scrolls a field in view that the dock has come to cover up, just above
 * it (a field scrolled out of view is left where the person left it).
 */
function keepAbove(field: HTMLElement, bottom: number): void {
  const box = field.getBoundingClientRect();
  const floor = bottom - 8;
  if (box.top < 0 || box.top >= floor || box.bottom <= floor) return;
  const by = Math.min(box.bottom - floor, box.top - 8);
  if (by > 0) scrollBy({ top: by, behavior: "instant" });
}

/**
 * Scrolls the page so that an element lies between the top of the viewport
 * and `bottom` (less `reserve` pixels for a toolbar), when it fits there.
 *
 * @param element the field being edited
 * @param bottom where the covered part of the viewport begins
 * @param reserve room to keep free above the dock or the top
 */
export function reveal(
  element: HTMLElement,
  bottom: number,
  reserve = 0,
): void {
  const box = element.getBoundingClientRect();
  const floor = bottom - 8;
  if (box.bottom > floor) {
    const by = Math.min(box.bottom - floor, box.top - reserve - 8);
    if (by > 0) scrollBy({ top: by, behavior: "instant" });
  } else if (box.top < reserve + 8) {
    const by = box.top - reserve - 8;
    if (box.bottom - by <= floor) scrollBy({ top: by, behavior: "instant" });
  }
}
