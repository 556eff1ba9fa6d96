// Resume determinism for the wave-2 mechanisms (issue #11): a run killed at the checkpoints that
// the rewrite mode and the skill-aware appendix add — the rewrite call and its artifact, the
// appendix's consolidation call, its re-scoring rollouts and its artifact — resumes to exactly the
// uninterrupted outcome, without repeating finished calls.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { SMALL_CONFIG, INITIAL_SKILL, worldDataset } from '../support/harness';
import { killAndResumeAt, referenceRun, type World } from '../support/resume-harness';

let srv: LlmTestServer;
beforeAll(async () => {
  srv = await startLlmServer({ harmfulRate: 0 });
});
afterAll(() => srv.close());

const base = { server: () => srv, data: worldDataset(60), initialSkill: INITIAL_SKILL };

/** The first write of each of these kinds (write-log entries matching the pattern), just after it and in the middle of rollout waves. */
function pointsAt(writeLog: readonly string[], patterns: readonly RegExp[]): number[] {
  const points = new Set<number>();
  for (const p of patterns) {
    const at = writeLog.findIndex((w) => p.test(w));
    expect(at, String(p)).toBeGreaterThanOrEqual(0);
    points.add(at + 1);
    points.add(at + 3);
  }
  return [...points].filter((p) => p < writeLog.length).sort((a, b) => a - b);
}

describe('resume after a kill: update modes and the appendix', () => {
  it('rewrite mode resumes from its rewrite checkpoints with the same outcome', async () => {
    const w: World = { ...base, config: { ...SMALL_CONFIG, epochs: 1, updateMode: 'rewrite' } };
    const ref = await referenceRun(w);
    await killAndResumeAt(w, ref, pointsAt(ref.writeLog, [/^putCall:s\d+\/rank_suggestions$/, /^putCall:s\d+\/rewrite$/, /^putArtifact:s\d+\/rewrite$/]));
  }, 60_000);

  it('the skill-aware appendix resumes from its flush, consolidation and re-scoring with the same outcome', async () => {
    const w: World = { ...base, config: { ...SMALL_CONFIG, epochs: 1, skillAwareReflection: true, appendixConsolidateThreshold: 3 } };
    const ref = await referenceRun(w);
    await killAndResumeAt(w, ref, pointsAt(ref.writeLog, [/^putCall:s\d+\/appendix_consolidate$/, /^putRollout:s\d+\/appendix$/, /^putArtifact:s\d+\/appendix$/]));
  }, 60_000);
});
