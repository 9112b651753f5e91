/**
 * The drafts workflow when a page is opened: the drafts this tab kept
 * before a reload, and those of tabs no longer open, are offered back one
 * after the other, oldest first, so that no tab's work is lost. Each is
 * `same` (made against the version read: Restore or Discard), `merge`
 * (made against an older version, or touching changes restored already:
 * the conflict view, field by field) or nothing (the page already holds
 * every value: its own publish, interrupted by a reload, which the bar
 * then calls published). The drafts of tabs still open are their work in
 * progress, left alone.
 *
 * @module
 */

import type { Drafts, KeptDraft } from "../io/drafts.ts";
import type { ChosenImages } from "../io/images.ts";
import { restoreDraft } from "../state/commands.ts";
import { type Draft, type DraftOffer, offerOf } from "../state/drafts.ts";
import { chosenIn } from "../state/images.ts";
import type { Published } from "../state/notices.ts";
import type { Store } from "../store.ts";
import type { ConflictAnswer } from "./publish.ts";

/** The questions the drafts ask, as the views ask them. */
export interface DraftQuestions {
  /** A draft of the version read: restore it, discard it, or keep it for later. */
  restore(
    offer: DraftOffer & { kind: "same" },
    own: boolean,
  ): Promise<"restore" | "discard" | "later">;
  /** A draft to fold in field by field. */
  merge(offer: DraftOffer & { kind: "merge" }): Promise<ConflictAnswer>;
}

/** What the drafts workflow works with. */
export interface DraftsContext {
  /** The store, with the pages open. */
  store: Store;
  /** This tab's drafts. */
  drafts: Drafts;
  /** The ids of the tabs open now (`undefined`: unknown, only own drafts). */
  open: Set<string> | undefined;
  /** The questions. */
  ask: DraftQuestions;
  /** A publish the previous view of this tab left under way, if any. */
  pending?: Published | undefined;
  /** The chosen images kept across reloads (drafts may name some). */
  images?: ChosenImages;
  /**
   * Told once a draft made against an older version is kept ("Keep mine"
   * publishes it on top of their version, as the conflict view says).
   */
  kept?(): Promise<void>;
}

/**
 * Offers a page's drafts back.
 *
 * @param context the store, drafts, open tabs and questions
 * @param path the page path
 * @returns whether an interrupted publish of this page was found done
 */
export async function offerDrafts(
  context: DraftsContext,
  path: string,
): Promise<boolean> {
  const { drafts, open } = context;
  let published = false;
  const offered = drafts.all(path).filter((kept) =>
    kept.tab === drafts.tab || (open !== undefined && !open.has(kept.tab))
  );
  for (const each of offered) {
    const kept = await withImages(context, path, each);
    const page = context.store.state.page(path);
    if (!page) return published;
    const offer = offerOf(page, kept.draft);
    if (!offer) {
      // Already there: an interrupted publish of this tab, or nothing new.
      if (kept.tab === drafts.tab && context.pending?.paths.includes(path)) {
        published = true;
      }
      drafts.clear(path, kept.tab);
      continue;
    }
    await offerOne(context, path, kept, offer);
  }
  return published;
}

/** Offers one draft; a draft taken or discarded is forgotten. */
async function offerOne(
  context: DraftsContext,
  path: string,
  kept: KeptDraft,
  offer: DraftOffer,
): Promise<void> {
  const { store, drafts, ask } = context;
  const own = kept.tab === drafts.tab;
  if (offer.kind === "same") {
    const answer = await ask.restore(offer, own);
    if (answer === "restore") {
      store.dispatch(restoreDraft(store.state, path, offer));
    }
    settle(drafts, path, kept, answer);
    return;
  }
  const answer = await ask.merge(offer);
  if (answer.action === "keep") {
    store.dispatch(restoreDraft(store.state, path, offer, answer.choices));
    await context.kept?.();
  }
  settle(
    drafts,
    path,
    kept,
    answer.action === "keep"
      ? "restore"
      : answer.action === "discard"
      ? "discard"
      : "later",
  );
}

/**
 * A draft answered is forgotten (taken back, this tab's draft holds it
 * now); one left unanswered is set aside, offered again next time.
 */
function settle(
  drafts: Drafts,
  path: string,
  kept: KeptDraft,
  answer: "restore" | "discard" | "later",
): void {
  const own = kept.tab === drafts.tab;
  if (answer === "later") {
    if (own) drafts.setAside(path);
  } else if (!own) drafts.clear(path, kept.tab);
  else if (answer === "discard") drafts.clear(path);
}

/**
 * A draft whose chosen images were read back from the browser's store
 * under new object URLs (the old ones died with the previous page view),
 * kept renamed.
 */
async function withImages(
  context: DraftsContext,
  path: string,
  kept: KeptDraft,
): Promise<KeptDraft> {
  const sources = [...kept.draft.changes.values()].flatMap(chosenIn);
  if (!context.images || sources.length === 0) return kept;
  const renamed = await context.images.revive(sources);
  if (renamed.size === 0) return kept;
  const rename = (value: unknown): unknown =>
    JSON.parse(
      JSON.stringify(value),
      (key, inner) =>
        key === "src" && typeof inner === "string" && renamed.has(inner)
          ? renamed.get(inner)
          : inner,
    );
  const draft: Draft = {
    ...kept.draft,
    changes: new Map(
      [...kept.draft.changes].map(([at, value]) => [at, rename(value)]),
    ),
  };
  context.drafts.put(path, kept.tab, draft);
  return { tab: kept.tab, draft };
}
