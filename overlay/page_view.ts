/// <reference lib="dom" />
/**
 * The page as the overlay edits it: its containers' regions made editable,
 * its lists and link objects with their controls, the regions that cannot
 * be edited outlined with why, each image's "Alt text" control; and the
 * fields each page file shows, for the edit state. New list items get
 * their regions here too. Every element the overlay adds, and every field
 * a person names, is found here.
 *
 * @module
 */

import { INPAGE_ATTRIBUTES } from "../lib/wire/regions.ts";
import type { ReadPage } from "./flows/login.ts";
import {
  findRegion,
  mountRegions,
  type Region,
  type RegionHooks,
} from "./regions.ts";
import {
  type FieldKind,
  type Fields,
  fieldsFrom,
  regionFit,
  valueAt,
} from "./state/fields.ts";
import { retarget } from "./state/lists.ts";
import { below, isWithin } from "./state/pointer.ts";
import { addAltControl } from "./views/alt_text.ts";
import { type LinkHost, Links } from "./views/links.ts";
import { type ListHost, Lists } from "./views/lists.ts";
import { type FlaggedRegion, showMisfits } from "./views/misfits.ts";
import { fieldLabel } from "./views/names.ts";
import { misfitWords } from "./views/words.ts";

/** What the page needs from the controller. */
export interface PageHosts {
  /** What the regions report to. */
  hooks: RegionHooks;
  /** What the lists ask for. */
  lists: Omit<ListHost, "mount" | "unmount" | "repoint">;
  /** What the link objects ask for. */
  links: LinkHost;
  /** An image's "Alt text" control was pressed. */
  editAlt(region: Region): void;
  /** A field's value now. */
  valueOf(path: string, pointer: string): unknown;
  /** Where the sentences of regions that cannot be edited go. */
  notes: HTMLElement;
}

/** The page being edited. */
export interface PageView {
  /** The regions, new list items' included. */
  readonly regions: Region[];
  /** The lists. */
  readonly lists: Lists;
  /** The link objects. */
  readonly links: Links;
  /** Each page file, its container and the fields it shows. */
  readonly pages: ReadonlyArray<
    ReadPage & { container: HTMLElement; fields: Fields }
  >;
  /** A field's name for a person. */
  label(path: string, at: string): string;
  /** The element showing a field, if the page shows it. */
  elementAt(path: string, at: string): HTMLElement | undefined;
  /** Makes the page plain again. */
  close(): void;
}

/**
 * Makes the page editable.
 *
 * @param containers the `data-inpage-page` elements, in the order read
 * @param read each one's page file as read
 * @param hosts what the page needs from the controller
 * @returns the page
 */
export function mountPage(
  containers: readonly HTMLElement[],
  read: readonly ReadPage[],
  hosts: PageHosts,
): PageView {
  const regions: Region[] = [];
  const flagged: FlaggedRegion[] = [];
  const links = new Links(hosts.links);
  const lists: Lists = new Lists({
    ...hosts.lists,
    mount: (path, item, pointer) => mountItem(path, item, pointer),
    unmount: (item) => unmountItem(item),
    repoint: (item, from, to) => {
      for (const region of regions) {
        if (item.contains(region.element)) {
          region.repoint(retarget(region.pointer, from, to));
        }
      }
    },
  });
  const withAlt = (mounted: Region[]) => {
    for (const region of mounted) {
      if (region.kind === "image") {
        addAltControl(region.element, () => hosts.editAlt(region));
      }
    }
    return mounted;
  };
  const mountItem = (path: string, item: HTMLElement, pointer: string) => {
    const container = item.closest<HTMLElement>(
      `[${INPAGE_ATTRIBUTES.page}]`,
    )!;
    // A new item's fields start from the values it was made with.
    const made = structuredClone(hosts.valueOf(path, pointer));
    const mounted = withAlt(mountRegions({
      path,
      container,
      scope: item,
      stored: (p) =>
        isWithin(p, pointer)
          ? valueAt(made, below(p, pointer))
          : hosts.valueOf(path, p),
    }, hosts.hooks));
    regions.push(...mounted);
    for (const region of mounted) {
      region.show(hosts.valueOf(path, region.pointer));
    }
    links.mount(path, item, container);
  };
  const unmountItem = (item: HTMLElement) => {
    for (let index = regions.length - 1; index >= 0; index--) {
      if (item.contains(regions[index]!.element)) {
        regions[index]!.destroy();
        regions.splice(index, 1);
      }
    }
    links.unmount(item);
  };
  const pages = containers.map((container, index) => {
    const page = read[index]!;
    const fields = mountContainer(container, page, {
      hosts,
      lists,
      links,
      regions,
      flagged,
      withAlt,
    });
    return { ...page, container, fields };
  });
  lists.activate();
  const hide = showMisfits(hosts.notes, flagged);
  return pageView({ regions, lists, links, pages, flagged, hide });
}

/** What mounting one container adds to. */
interface Mounting {
  hosts: PageHosts;
  lists: Lists;
  links: Links;
  regions: Region[];
  flagged: FlaggedRegion[];
  withAlt(mounted: Region[]): Region[];
}

/** Makes one container's regions, lists and links editable. */
function mountContainer(
  container: HTMLElement,
  page: ReadPage,
  mounting: Mounting,
): Fields {
  const { path, base } = page;
  const stored = (pointer: string) => valueAt(base, pointer);
  // A region whose pointer names nothing, or another kind of value, is
  // left as it is: editing it would publish a key no visitor sees.
  const refuse = (element: HTMLElement, pointer: string, kind: FieldKind) => {
    const misfit = regionFit(base, pointer, kind);
    if (misfit) {
      mounting.flagged.push({
        path,
        pointer,
        kind,
        element,
        sentence: misfitWords(misfit, pointer, kind),
      });
    }
    return misfit !== undefined;
  };
  // A list may be absent until its first item is added; one that holds
  // another kind of value is left as it is.
  mounting.lists.prepare(
    container,
    path,
    stored,
    (element, pointer) =>
      stored(pointer) !== undefined && refuse(element, pointer, "list"),
  );
  const mounted = mounting.withAlt(
    mountRegions(
      { path, container, stored },
      mounting.hosts.hooks,
      refuse,
    ),
  );
  mounting.regions.push(...mounted);
  mounting.links.mount(path, container, container);
  const links = [
    ...container.querySelectorAll(`[${INPAGE_ATTRIBUTES.link}]`),
  ].map((element) =>
    [element.getAttribute(INPAGE_ATTRIBUTES.link) ?? "", "link"] as const
  );
  return fieldsFrom(
    [
      ...mounted.map((region) => [region.pointer, region.kind] as const),
      ...links,
    ],
    mounting.lists.pointers(path),
  );
}

/** The page view over what was mounted. */
function pageView(parts: {
  regions: Region[];
  lists: Lists;
  links: Links;
  pages: PageView["pages"];
  flagged: FlaggedRegion[];
  hide: () => void;
}): PageView {
  const { regions, links, flagged } = parts;
  const elementAt = (path: string, at: string) => {
    const region = findRegion(
      regions.filter((region) => region.path === path),
      at,
    );
    return region?.element ?? links.elementAt(path, at) ??
      flagged.find((each) => each.path === path && each.pointer === at)
        ?.element;
  };
  return {
    regions,
    lists: parts.lists,
    links,
    pages: parts.pages,
    elementAt,
    label: (path, at) => fieldLabel(elementAt(path, at), at),
    close() {
      parts.hide();
      for (const region of regions) region.destroy();
      regions.length = 0;
    },
  };
}
