/** Documents made from a run: the HTML report and the evals file, made by the run service. */
import type { ReportApi } from '../api-types';
import { fail, type ApiContext } from './context';

export function reportHandlers(c: ApiContext): ReportApi {
  return {
    async exportReport(runId) {
      const html = await (await c.service).exportReport(runId);
      if (html === null) return fail('not_found', 'That run is not in this browser.');
      return { ok: true, file: new Blob([html], { type: 'text/html' }) };
    },

    async exportEvals(runId) {
      const r = await (await c.service).exportEvals(runId);
      if (!r.ok) return r;
      return { ok: true, file: new Blob([`${JSON.stringify(r.evals, null, 2)}\n`], { type: 'application/json' }) };
    },
  };
}
