/**
 * One tab owns a run (DESIGN §5): it holds a Web Lock named after the run while the run is
 * going; another tab sees the run read-only. In Node (tests) an in-memory manager stands in.
 */
export interface LockManagerLike {
  request<T>(name: string, options: { ifAvailable: true }, callback: (lock: unknown) => Promise<T> | T): Promise<T>;
  query?(): Promise<{ held?: { name?: string }[] }>;
}

export const runLockName = (runId: string) => `skillwright-run-${runId}`;

/** A lock manager for one process: enough for tests and for environments without Web Locks. */
export class MemoryLocks implements LockManagerLike {
  private readonly held = new Set<string>();
  async request<T>(name: string, _o: { ifAvailable: true }, callback: (lock: unknown) => Promise<T> | T): Promise<T> {
    if (this.held.has(name)) return callback(null);
    this.held.add(name);
    try {
      return await callback({ name });
    } finally {
      this.held.delete(name);
    }
  }
  async query() {
    return { held: [...this.held].map((name) => ({ name })) };
  }
}

export function defaultLocks(): LockManagerLike {
  const nav = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator;
  return nav?.locks ?? new MemoryLocks();
}
