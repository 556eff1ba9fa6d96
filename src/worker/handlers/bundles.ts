/** Run files out and in, and how much of the browser storage is used. */
import { MAX_BUNDLE_CHARS } from '../../storage/bundle';
import type { BundlesApi } from '../api-types';
import { fail, type ApiContext } from './context';

export function bundlesHandlers(c: ApiContext): BundlesApi {
  const { dbp, deps } = c;
  return {
    async exportRun(runId) {
      const r = await (await c.service).exportBundle(runId);
      if (!r.ok) return r;
      // Each piece becomes a Blob part as it comes, which the browser may keep on disk.
      const parts: Blob[] = [];
      for await (const piece of r.pieces) parts.push(new Blob([piece]));
      const file = new Blob(parts, { type: 'application/json' });
      return { ok: true, file, bytes: file.size };
    },

    async importRun(file) {
      // The file crosses as a Blob and is read here, once; a too-big file is refused unread.
      if (file.size > MAX_BUNDLE_CHARS)
        return fail('invalid_bundle', `The file is larger than ${MAX_BUNDLE_CHARS / 1024 / 1024} MB.`);
      return (await c.service).importBundle(await file.text());
    },

    async storageUsage() {
      const db = await dbp;
      let usage: number | undefined;
      let quota: number | undefined;
      try {
        const e = await (
          deps.estimate ??
          (() =>
            typeof navigator !== 'undefined' && navigator.storage
              ? navigator.storage.estimate()
              : Promise.resolve({} as { usage?: number; quota?: number }))
        )();
        usage = e.usage;
        quota = e.quota;
      } catch {
        // no estimate in this environment
      }
      return { usage, quota, runs: await db.count('runs'), datasets: await db.count('datasets') };
    },
  };
}
