// Resume determinism for issue #32's checkpoints: a neutral candidate's look one step ahead (the
// failure analysts on what still fails, their merge and ranking, the extended bundle's check and
// its artifact) on the locked-start world, seed 1, whose first step looks ahead and crosses the
// plateau; and posterior verdicts (gate confidence 0.8) that stop as soon as they are sure, on a
// stochastic target, killed after their stages.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { SMALL_CONFIG } from '../support/harness';
import { hardWorldDataset } from '../support/bench-quality';
import { BROAD_PAIRS_WORLD, HARD_INITIAL_SKILL } from '../support/rule-world';
import { killAndResume, killAndResumeAt, pointsAfter, referenceRun, type World } from '../support/resume-harness';

describe('resume after a kill while looking one step ahead', () => {
  let srv: LlmTestServer;
  beforeAll(async () => {
    srv = await startLlmServer({ world: 'broad', repairSlip: 0.35, spec: BROAD_PAIRS_WORLD });
  });
  afterAll(() => srv.close());
  const world = (): World => ({
    server: () => srv,
    config: { ...SMALL_CONFIG, epochs: 2, seed: 1, evalTest: false },
    data: hardWorldDataset(BROAD_PAIRS_WORLD),
    initialSkill: BROAD_PAIRS_WORLD.initialSkill,
  });

  it('resumes from kills at the analysts, the ranking, the extended check and the artifact with the same outcome', async () => {
    const w = world();
    const ref = await referenceRun(w);
    const kinds = ['putCall:/ahead/reflect_failure/0', 'putCall:/ahead/rank_edits', 'putRollout:/check-ahead', 'putArtifact:/ahead'];
    await killAndResumeAt(w, ref, pointsAfter(ref.writeLog, kinds));
  }, 240_000);
});

describe('resume after a kill with posterior verdicts on a stochastic target', () => {
  // Every session gets its own server: a target's k-th answer to a prompt is the k-th draw.
  const world = (srvOf: () => LlmTestServer): World => ({
    server: srvOf,
    config: { ...SMALL_CONFIG, epochs: 2, seed: 1, evalTest: false, gateConfidence: 0.8 },
    data: hardWorldDataset(),
    initialSkill: HARD_INITIAL_SKILL,
  });
  const noisy = () => startLlmServer({ world: 'hard', targetNoise: { miss: 0.1, guess: 0.05 }, noiseSeed: 1 });

  it('replays the samples a verdict drew before it was sure, instead of asking again', async () => {
    const a = await noisy();
    const ref = await referenceRun(world(() => a)).finally(() => a.close());
    // After stages whose samples are done: no target call is in flight at these writes.
    for (const p of pointsAfter(ref.writeLog, ['putArtifact:/check', 'putArtifact:/gate'])) {
      const b = await noisy();
      await killAndResume(world(() => b), ref, p).finally(() => b.close());
    }
  }, 240_000);
});
