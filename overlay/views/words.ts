/**
 * The words of the state's codes, chosen here, in the views, from the
 * interface's language table: the status, the alert, a problem, why a
 * region cannot be edited, a field's name. The state holds codes and
 * numbers; nothing under `state/` knows a word.
 *
 * @example
 * ```ts
 * import { statusWords } from "./words.ts";
 *
 * console.assert(
 *   statusWords({ tone: "dirty", code: "unsaved", count: 2 }).text ===
 *     "2 unsaved changes",
 * );
 * ```
 *
 * @module
 */

import { unescapeToken } from "../../lib/wire/pointer.ts";
import { INPAGE_ATTRIBUTES, REGION_KINDS } from "../../lib/wire/regions.ts";
import { language, plural, text, type TextKey } from "../i18n/mod.ts";
import {
  clockTime,
  failureSentence,
  problemSentence,
  reasonSentence,
} from "../messages.ts";
import type { FieldKind, Misfit } from "../state/fields.ts";
import type {
  Alert,
  BrokenPage,
  HeldPage,
  Notice,
  OtherPage,
} from "../state/notices.ts";
import type { Problem } from "../state/problems.ts";
import type { Status } from "../state/status.ts";

/**
 * A field's name in words, from its pointer: `/sections/0/heading` is
 * "sections 1 heading" (the views say better where a region shows it).
 *
 * @param pointer the field's JSON Pointer
 * @returns its name
 */
export function fieldName(pointer: string): string {
  const words = pointer.split("/").slice(1).map((part) =>
    /^\d+$/.test(part)
      ? String(Number(part) + 1)
      : unescapeToken(part).replaceAll(/[_-]/g, " ")
  );
  return words.join(" ") || "page";
}

/**
 * What one item of a list is called, for announcements and names:
 * `/sections` gives "section", `/nav` gives "nav item".
 *
 * @param list the list's pointer
 * @returns the word
 */
export function itemNoun(list: string): string {
  const last = (list.split("/").at(-1) ?? "").replaceAll(/[_~-]\d?/g, " ")
    .trim();
  if (/^\d*$/.test(last)) return text("listItem");
  if (/[^s]s$/i.test(last)) return last.slice(0, -1).toLowerCase();
  return text("listItemOf", { name: last.toLowerCase() });
}

/** The words of each outcome without a count. */
const NOTICES: Readonly<Record<string, TextKey>> = {
  logInToEdit: "logInToEdit",
  loggedInAgain: "loggedInAgain",
  notReady: "notReady",
  noRegions: "noRegions",
  nothingToPublish: "nothingToPublish",
  nothingLeft: "nothingLeft",
  notLoggedOut: "notLoggedOut",
  reviewMessageNeeded: "reviewMessageNeeded",
  notSent: "notSent",
};

/** The words of what the Reviews panel did. */
function reviewWords(notice: Extract<Notice, { code: "review" }>): string {
  switch (notice.done) {
    case "published":
      return text("reviewPublished");
    case "closed":
      return text("reviewClosed");
    case "linkCopied":
      return text("reviewLinkCopied");
    case "scheduled":
      return text("reviewScheduled", {
        when: new Date(notice.at ?? 0).toLocaleString(language()),
      });
  }
}

/** The words of each reason a publish did not happen, but counted ones. */
const NOT_PUBLISHED: Readonly<Record<string, TextKey>> = {
  conflict: "notPublishedConflict",
  logIn: "notPublishedLogIn",
  wait: "notPublishedWait",
  stray: "notPublishedStray",
  failed: "notPublished",
};

/**
 * The bar's status in words, and what was published beside it.
 *
 * @param status the status
 * @returns the status's words, and the detail (the message and time of a
 *   publish) if any
 */
export function statusWords(status: Status): { text: string; detail?: string } {
  switch (status.code) {
    case "loading":
      return { text: text("loading") };
    case "uploading":
    case "publishing":
      return { text: text(status.code) };
    case "unsaved":
      return { text: plural("unsaved", status.count) };
    case "noChanges":
      return { text: text("noChanges") };
    case "notice":
      return noticeWords(status.notice);
  }
}

function noticeWords(notice: Notice): { text: string; detail?: string } {
  if (notice.code === "published") {
    const { message, at } = notice.published;
    return {
      text: text("published"),
      detail: text(message ? "publishedDetail" : "publishedAt", {
        message,
        time: clockTime(at),
      }),
    };
  }
  if (notice.code === "sentForReview") {
    return { text: plural("reviewSent", notice.count) };
  }
  if (notice.code === "review") return { text: reviewWords(notice) };
  if (notice.code !== "notPublished") {
    return { text: text(NOTICES[notice.code]!) };
  }
  if (notice.why === "refused") {
    return { text: plural("notPublishedRefused", notice.count ?? 1) };
  }
  if (notice.why === "heldBack") {
    return { text: plural("notPublishedHeldBack", notice.count ?? 1) };
  }
  return { text: text(NOT_PUBLISHED[notice.why]!) };
}

/** The sentences of alerts without details. */
const ALERTS: Readonly<Record<string, TextKey>> = {
  somethingWrong: "somethingWrong",
  cannotStart: "cannotStart",
  logoutFailed: "logoutFailed",
  richTextFailed: "richTextFailed",
  historyLoadFailed: "historyLoadFailed",
};

/** Why a page file is broken, in words. */
const BROKEN: Readonly<Record<BrokenPage["reason"], TextKey>> = {
  refused: "brokenRefused",
  missing: "brokenMissing",
  unreadable: "brokenUnreadable",
};

/**
 * The sentence of a page file that cannot be edited: the file and why.
 *
 * @param page the file and why
 * @returns its words
 * @example
 * ```ts ignore
 * brokenSentence({ path: "src/content/pages/en/gone.json", reason: "missing" });
 * // "src/content/pages/en/gone.json cannot be edited: the file is not in …"
 * ```
 */
export function brokenSentence(page: BrokenPage): string {
  return text("brokenPage", {
    path: page.path,
    why: text(BROKEN[page.reason]),
  });
}

/**
 * The alert's sentence.
 *
 * @param alert the alert
 * @returns its words
 */
export function alertWords(alert: Alert): string {
  switch (alert.code) {
    case "failure":
      return failureSentence({
        code: alert.error,
        retryAfter: alert.retryAfter,
      });
    case "refused": {
      const sentence = problemSentence(alert.reason, alert.kind);
      if (alert.count > 1) return plural("refusedFields", alert.count);
      return alert.shown
        ? text("refusedHighlighted", { sentence })
        : text("refusedPage", { sentence }).trim();
    }
    case "stray":
      return text("nothingPublished", {
        sentence: text("strayKey", { field: fieldName(alert.at) }),
      });
    case "brokenPages":
      return alert.broken.length === 1
        ? brokenSentence(alert.broken[0]!)
        : text("brokenPages", {
          count: String(alert.broken.length),
          paths: alert.broken.map((page) => page.path).join(", "),
        });
    case "heldElsewhere":
      return heldSentence(alert.pages);
    case "imageFallback":
      return text(alert.png ? "fallbackPng" : "fallbackJpeg", {
        format: alert.format,
      });
    default:
      return text(ALERTS[alert.code]!);
  }
}

/**
 * A page by the address it was changed at, or its file when unknown.
 *
 * @param page the page
 * @returns its name
 */
export function otherPageName(page: OtherPage): string {
  return page.address ?? page.path;
}

/** The sentence naming the pages a review left out, and what to do. */
function heldSentence(pages: readonly HeldPage[]): string {
  const clash = pages.filter((page) => page.why === "clash");
  const fix = pages.filter((page) => page.why === "problems");
  const names = (list: readonly HeldPage[]) =>
    list.map(otherPageName).join(", ");
  return [
    clash.length > 0 ? text("heldClash", { pages: names(clash) }) : "",
    fix.length > 0 ? text("heldProblems", { pages: names(fix) }) : "",
  ].filter(Boolean).join(" ");
}

/**
 * A problem's sentence, worded for the kind of field holding it.
 *
 * @param problem the problem
 * @returns its words
 */
export function problemWords(problem: Problem): string {
  if (problem.reason === "missing") {
    return text("strayKey", { field: fieldName(problem.at) });
  }
  return problem.kind === undefined
    ? reasonSentence(problem.reason)
    : problemSentence(problem.reason, problem.kind);
}

/** What each kind of region edits, in words. */
const WANTED: Readonly<Record<FieldKind, TextKey>> = {
  text: "wantText",
  html: "wantRichText",
  markdown: "wantText",
  image: "wantImage",
  list: "wantList",
  link: "wantLink",
  item: "heldNothing",
  fields: "wantText",
};

/** What a value held is, in words. */
const HELD: Readonly<Record<string, TextKey>> = {
  list: "heldList",
  null: "heldNull",
  object: "heldObject",
  number: "heldNumber",
  boolean: "heldBoolean",
  nothing: "heldNothing",
};

/**
 * Why a region cannot be edited, in words.
 *
 * @param misfit the misfit
 * @param pointer the region's pointer
 * @param kind the region's kind
 * @returns the sentence shown beside it and in the console
 */
export function misfitWords(
  misfit: Misfit,
  pointer: string,
  kind: FieldKind,
): string {
  if (misfit.reason === "pointer") {
    return text("regionNotPointer", { pointer });
  }
  if (misfit.reason === "missing") {
    return misfit.parent === ""
      ? text("regionMissing", { key: misfit.key, pointer })
      : text("regionMissingIn", {
        parent: fieldName(misfit.parent ?? ""),
        key: misfit.key,
        pointer,
      });
  }
  if (misfit.reason === "markdown") {
    return text("regionMarkdown", { field: fieldName(pointer), pointer });
  }
  const held = misfit.text === undefined
    ? text(HELD[misfit.held ?? "nothing"]!)
    : text("heldText", {
      text: misfit.text.length > 40
        ? `${misfit.text.slice(0, 39)}…`
        : misfit.text,
    });
  return text("regionMismatch", {
    field: fieldName(pointer),
    value: held,
    wanted: text(WANTED[kind]),
  });
}

/** A region that cannot be edited, for the console's warning. */
export interface MisfitLine {
  /** The page path. */
  path: string;
  /** The region's pointer. */
  pointer: string;
  /** The region's kind. */
  kind: FieldKind;
  /** Why, in words. */
  sentence: string;
}

/**
 * The console's grouped warning for regions that cannot be edited: its
 * title and one line per region.
 *
 * @param misfits the regions
 * @returns the title and the lines, or `undefined` when there are none
 */
export function misfitReport(
  misfits: readonly MisfitLine[],
): { title: string; lines: string[] } | undefined {
  if (misfits.length === 0) return undefined;
  return {
    title: plural("regionsNotEditable", misfits.length),
    lines: misfits.map((misfit) =>
      text("regionNotEditableLine", {
        attribute: REGION_KINDS[misfit.kind].attribute,
        pointer: misfit.pointer,
        path: misfit.path,
        sentence: misfit.sentence,
      })
    ),
  };
}

/**
 * The console's warning for a `data-inpage-image-format` naming no format.
 *
 * @param value the attribute's value
 * @returns the warning
 */
export function imageFormatWarning(value: string): string {
  return text("imageFormatUnknown", {
    attribute: INPAGE_ATTRIBUTES.imageFormat,
    value,
  });
}

/** One publish of a page, as the History panel names it. */
export interface VersionEntry {
  /** Who published it. */
  author: string;
  /** Its commit message. */
  message: string;
}

/**
 * The banner's sentence over a previewed version.
 *
 * @param entry the version's entry
 * @param when its time, from `dateTime` (`../messages.ts`)
 * @returns "Viewing the version of <when> by <author> — <message>"
 */
export function bannerWords(entry: VersionEntry, when: string): string {
  const message = entry.message.trim();
  return text(message === "" ? "historyViewing" : "historyViewingMessage", {
    when,
    author: entry.author,
    message,
  });
}

/**
 * The sentence of a question about losing unsaved changes (discarding
 * them, or logging out): how many, and what becomes of them, in the
 * number the count asks for.
 *
 * @param what `discard` or `logout`
 * @param count how many changes are unsaved
 * @returns the sentence
 */
export function askLoseChangesWords(
  what: "discard" | "logout",
  count: number,
): string {
  const after = plural(
    what === "discard" ? "discardAfter" : "logoutAfter",
    count,
  );
  return `${plural("youHaveUnsaved", count)} ${after}`;
}
