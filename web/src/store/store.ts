/**
 * The store: state, subscribe, dispatch; React reads it through selectors
 * with useSyncExternalStore. Tiny on purpose (the shape of zustand's core).
 */
import { useSyncExternalStore } from 'react';
import { reducer } from './reducer.js';
import { initialState, type Action, type AppState } from './state.js';

export interface Store {
  get(): AppState;
  dispatch(action: Action): void;
  subscribe(fn: (s: AppState, prev: AppState, action: Action) => void): () => void;
}

export function createStore(init: AppState = initialState()): Store {
  let state = init;
  const subs = new Set<(s: AppState, prev: AppState, action: Action) => void>();
  return {
    get: () => state,
    dispatch(action) {
      const prev = state;
      state = reducer(state, action);
      if (state !== prev) for (const fn of [...subs]) fn(state, prev, action);
    },
    subscribe(fn) {
      subs.add(fn);
      return () => subs.delete(fn);
    },
  };
}

export const store = createStore(
  initialState(typeof document !== 'undefined' && document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light'),
);

export function useStore<T>(selector: (s: AppState) => T): T {
  return useSyncExternalStore(
    (cb) => store.subscribe(cb),
    () => selector(store.get()),
    () => selector(store.get()),
  );
}

export const dispatch = (a: Action) => store.dispatch(a);
