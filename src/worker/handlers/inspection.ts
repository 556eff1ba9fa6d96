/** Reading a run's history: steps a page at a time, one step in full, rollouts, skill versions. */
import { readStepArtifacts, rebuildCandidate } from '../../engine/artifacts';
import { IdbRunStore } from '../../storage/idb-run-store';
import { readStepRecords } from '../../storage/step-records';
import { blameSkill } from '../../storage/skill-blame';
import type { InspectionApi } from '../api-types';
import { fail, type ApiContext } from './context';

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
      const r = await readStepRecords(await dbp, runId, step);
      if (!r) return fail('not_found', `Step ${step} of this run has not run yet.`);
      const artifacts = readStepArtifacts(step, r.artifacts);
      const stored = r.step.candidateHash ? r.versions.get(r.step.candidateHash) : undefined;
      const candidate = stored ?? (r.skillBefore !== null ? rebuildCandidate(r.skillBefore, artifacts) : null);
      const { step: record, rollouts, gateRollouts, currentRollouts, calls, skillBefore } = r;
      return {
        ok: true,
        detail: {
          step: record,
          rollouts,
          gateRollouts,
          currentRollouts,
          calls,
          artifacts,
          currentSkillBefore: skillBefore,
          candidateSkill: candidate,
        },
      };
    },

    async getRollouts(runId, phase) {
      return (await dbp).getAllFromIndex('rollouts', 'by-run-phase', [runId, phase]);
    },

    async getSkillVersions(runId, offset = 0) {
      return (await new IdbRunStore(await dbp).getSkillVersions(runId)).slice(offset);
    },

    async blameSkill(runId, text) {
      const blame = await blameSkill(await dbp, runId, text);
      return blame ? { ok: true, blame } : fail('not_found', 'That run is not in this browser.');
    },
  };
}
