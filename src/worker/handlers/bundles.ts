/** Run files out and in, and how much of the browser storage is used. */
import { exportRunFile, importBundle, MAX_BUNDLE_CHARS, parseBundle } from '../../storage/bundle';
import type { BundlesApi } from '../api-types';
import { fail, type ApiContext } from './context';

export function bundlesHandlers(c: ApiContext): BundlesApi {
  const { dbp, deps, newId } = c;
  return {
    async exportRun(runId) {
      const file = await exportRunFile(await dbp, runId);
      if (!file) return fail('not_found', 'That run is not in this browser.');
      return { ok: true, file, bytes: file.size };
    },

    async importRun(file) {
      // The file crosses as a Blob and is read here, once; a too-big file is refused unread.
      if (file.size > MAX_BUNDLE_CHARS)
        return fail('invalid_bundle', `The file is larger than ${MAX_BUNDLE_CHARS / 1024 / 1024} MB.`);
      const parsed = parseBundle(await file.text());
      if (!parsed.ok) return fail('invalid_bundle', parsed.error);
      const r = await importBundle(await dbp, parsed.bundle, newId);
      return r.ok ? { ok: true, runId: r.runId, renamed: r.renamed } : fail('invalid_bundle', r.error);
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
