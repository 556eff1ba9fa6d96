// The page's drafts are written to localStorage only when a persisted field changed — not on
// every live run event (each write serialised the skill and settings on the main thread).
import { describe, expect, it } from 'vitest';
import { draftsStorage } from '../../src/store/drafts-storage';

function memoryStorage() {
  const data = new Map<string, string>();
  const writes: string[] = [];
  const storage = {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => (writes.push(v), data.set(k, v)),
    removeItem: (k: string) => data.delete(k),
  } as unknown as Storage;
  return { storage, writes };
}

describe('drafts storage', () => {
  it('writes when a persisted field changes, and not when only the rest of the state did', () => {
    const { storage, writes } = memoryStorage();
    const s = draftsStorage<{ skill: string; config: { epochs: number } }>(() => storage);
    const config = { epochs: 2 };
    s.setItem('k', { state: { skill: 'a', config }, version: 1 });
    s.setItem('k', { state: { skill: 'a', config }, version: 1 }); // a live event: same fields
    expect(writes).toHaveLength(1);
    s.setItem('k', { state: { skill: 'b', config }, version: 1 });
    s.setItem('k', { state: { skill: 'b', config: { epochs: 3 } }, version: 1 });
    expect(writes).toHaveLength(3);
    expect(s.getItem('k')).toEqual({ state: { skill: 'b', config: { epochs: 3 } }, version: 1 });
  });

  it('reads what an earlier page wrote, then writes only on change', () => {
    const { storage, writes } = memoryStorage();
    storage.setItem('k', JSON.stringify({ state: { skill: 'saved' }, version: 1 }));
    const s = draftsStorage<{ skill: string }>(() => storage);
    const read = s.getItem('k') as { state: { skill: string } };
    expect(read.state.skill).toBe('saved');
    s.setItem('k', { state: { skill: 'saved' }, version: 1 });
    expect(writes).toHaveLength(1); // only the seed write above
    expect(s.getItem('nothing')).toBeNull();
    storage.setItem('bad', '{');
    expect(s.getItem('bad')).toBeNull();
  });
});
