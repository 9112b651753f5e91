/**
 * The store: it holds the current edit state, applies each transaction
 * dispatched to it and tells its subscribers once per transaction, with
 * the state before and the transaction (so that a view can tell what
 * changed, and a list view which operation it was). A transaction
 * dispatched while subscribers are being told is applied after them, and
 * told once too. I/O happens in subscribers (drafts, the published
 * record), never in the state.
 *
 * @example
 * ```ts
 * import { createStore } from "./store.ts";
 * import { EditState } from "./state/state.ts";
 *
 * const store = createStore(EditState.create());
 * let told = 0;
 * store.subscribe(() => told++);
 * store.dispatch(store.state.tr.setMessage("Hi"));
 * console.assert(told === 1 && store.state.message === "Hi");
 * ```
 *
 * @module
 */

import type { EditState } from "./state/state.ts";
import type { Transaction } from "./state/transaction.ts";

/** A subscriber: told the new state, the one before and the transaction. */
export type Listener = (
  state: EditState,
  before: EditState,
  tr: Transaction,
) => void;

/** The holder of the edit state. */
export interface Store {
  /** The current state. */
  readonly state: EditState;
  /**
   * Applies a transaction (nothing for `undefined`, a command that could
   * not run).
   */
  dispatch(tr: Transaction | undefined): void;
  /** Tells a listener of every transaction until the answer is called. */
  subscribe(listener: Listener): () => void;
}

/**
 * Makes a store.
 *
 * @param initial the first state
 * @returns the store
 */
export function createStore(initial: EditState): Store {
  let state = initial;
  const listeners = new Set<Listener>();
  const queue: Transaction[] = [];
  let telling = false;
  const run = (tr: Transaction) => {
    const before = state;
    // A transaction made from an older state applies to the current one:
    // its steps say what to change, not what the state was.
    state = state.apply(tr);
    for (const listener of [...listeners]) listener(state, before, tr);
  };
  return {
    get state() {
      return state;
    },
    dispatch(tr) {
      if (!tr) return;
      queue.push(tr);
      if (telling) return;
      telling = true;
      try {
        while (queue.length > 0) run(queue.shift()!);
      } finally {
        telling = false;
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
