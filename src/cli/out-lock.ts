/**
 * One runner per `--out` folder (issue #28 item 5): two runners on one folder would both continue
 * its run, each paying for every call. A lock file holds the owner's pid and host; a second
 * runner is refused naming them, and a lock whose process is gone (killed, crashed) is taken over.
 */
import { linkSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config';

export const LOCK_FILE = '.skillwright.lock';

interface LockOwner {
  pid: number;
  host: string;
  since: string;
}

/** Whether a process of this machine is alive (EPERM: alive, but another user's). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(path: string): LockOwner | null {
  try {
    const o = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    return typeof o.pid === 'number' && typeof o.host === 'string'
      ? { pid: o.pid, host: o.host, since: `${o.since}` }
      : null;
  } catch {
    return null; // unreadable: not a lock any runner wrote (each is linked in whole)
  }
}

/** Create the lock file whole (written aside, then linked in place); false when it exists. */
function create(path: string, owner: LockOwner): boolean {
  const aside = `${path}.${owner.pid}`;
  try {
    writeFileSync(aside, JSON.stringify(owner));
    try {
      linkSync(aside, path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw e;
      writeFileSync(path, JSON.stringify(owner), { flag: 'wx' }); // a file system without hard links
    }
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new ConfigError(`Cannot write ${path}: ${(e as Error).message}`);
  } finally {
    rmSync(aside, { force: true });
  }
}

/** Take the folder's lock (creating the folder), or throw a ConfigError naming the runner that holds it. */
export function takeOutLock(out: string): () => void {
  mkdirSync(out, { recursive: true });
  const path = join(out, LOCK_FILE);
  const me: LockOwner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  for (let attempt = 0; !create(path, me); attempt++) {
    const owner = readOwner(path);
    const stale = !owner || (owner.host === me.host && owner.pid !== me.pid && !alive(owner.pid));
    if (!stale || attempt > 0) {
      const who = owner
        ? `pid ${owner.pid}${owner.host === me.host ? '' : ` on ${owner.host}`}, since ${owner.since}`
        : 'another runner';
      throw new ConfigError(
        `${out} is in use by another skillwright (${who}): one runner per folder. Wait for it, stop it, or choose another --out` +
          `${owner && owner.host !== me.host ? `; if it is gone, delete ${path}` : ''}.`,
      );
    }
    // Its process is gone: take the folder over (unless another runner just did).
    if (readOwner(path)?.pid === owner?.pid) unlinkSync(path);
  }
  return () => {
    if (readOwner(path)?.pid === me.pid) unlinkSync(path);
  };
}

/** Run `f` holding the folder's lock; it is released however `f` ends. */
export async function withOutLock<T>(out: string, f: () => Promise<T>): Promise<T> {
  const release = takeOutLock(out);
  try {
    return await f();
  } finally {
    release();
  }
}
