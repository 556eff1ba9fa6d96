/**
 * Where the page's drafts persist: localStorage, written only when a persisted field changed.
 * Zustand's persist writes on every state change, and a run streams several events a second
 * into the same store: serialising the skill and settings and writing them synchronously each
 * time took up to 50 ms of a message handler during a run (e2e long-task figures).
 */
import type { PersistStorage, StorageValue } from 'zustand/middleware';

function sameFields(a: object | undefined, b: object): boolean {
  if (!a) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length && kb.every((k) => (a as Record<string, unknown>)[k] === (b as Record<string, unknown>)[k])
  );
}

export function draftsStorage<S extends object>(
  store: () => Storage | undefined = () => globalThis.localStorage,
): PersistStorage<S> {
  let last: S | undefined;
  return {
    getItem(name) {
      const text = store()?.getItem(name);
      if (!text) return null;
      try {
        const value = JSON.parse(text) as StorageValue<S>;
        last = value.state;
        return value;
      } catch {
        return null;
      }
    },
    setItem(name, value) {
      // The persisted slice is rebuilt on each change; its fields keep their identity unless edited.
      if (sameFields(last, value.state)) return;
      last = value.state;
      store()?.setItem(name, JSON.stringify(value));
    },
    removeItem(name) {
      last = undefined;
      store()?.removeItem(name);
    },
  };
}
