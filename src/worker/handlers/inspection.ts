/** Reading a run's history: steps a page at a time, one step in full, rollouts, skill versions, blame. */
import { IdbRunStore } from '../../storage/idb-run-store';
import type { InspectionApi } from '../api-types';
import type { ApiContext } from './context';

export function inspectionHandlers(c: ApiContext): InspectionApi {
  const { dbp } = c;
  return {
    async getSteps(runId, offset, limit) {
      const db = await dbp;
      const total = await db.countFromIndex('steps', 'by-run', runId);
      const steps = await db.getAll('steps', IDBKeyRange.bound([runId, offset + 1], [runId, offset + limit]));
      return { steps, total };
    },

    async getStepDetail(runId, step) {
      return (await c.service).stepDetail(runId, step);
    },

    async getRollouts(runId, phase) {
      return (await dbp).getAllFromIndex('rollouts', 'by-run-phase', [runId, phase]);
    },

    async getSkillVersions(runId, offset = 0) {
      return (await new IdbRunStore(await dbp).getSkillVersions(runId)).slice(offset);
    },

    async getCurveMarks(runId) {
      return (await c.service).curveMarks(runId);
    },

    async blameSkill(runId, text) {
      return (await c.service).blameSkill(runId, text);
    },
  };
}
