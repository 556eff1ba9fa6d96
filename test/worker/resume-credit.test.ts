// Resume determinism for issue #8's checkpoints: the train check, the bundle repair, the
// tie-break's replay of validation rows and carried edits (in the run state) — on the noisy
// hard world, whose seed 7 repairs bundles and accepts a validation tie (test/engine/credit.test.ts).
// The checkpoints the easy world also writes (screened, check, candidate_edits) are covered by
// resume.test.ts, as is the test evaluation (off here, to keep it cheap). A file of its own, so the two resume suites run on separate test workers.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { SMALL_CONFIG } from '../support/harness';
import { hardWorldDataset } from '../support/bench-quality';
import { BROAD_WORLD, HARD_INITIAL_SKILL } from '../support/rule-world';
import { killAndResume, killAndResumeAt, pointsAfter, referenceRun, type World } from '../support/resume-harness';

let srv: LlmTestServer;
beforeAll(async () => {
  srv = await startLlmServer({ world: 'hard', noise: 2 });
});
afterAll(() => srv.close());

const HARD: World = { server: () => srv, config: { ...SMALL_CONFIG, epochs: 2, seed: 7, carryEdits: true, evalTest: false }, data: hardWorldDataset(), initialSkill: HARD_INITIAL_SKILL };

describe('resume after a kill, with the train check, bundle repair, tie-break and carried edits', () => {
  let ref: Awaited<ReturnType<typeof referenceRun>>;

  beforeAll(async () => {
    ref = await referenceRun(HARD);
  });

  /**
   * Just after the repair call and the tie-break's first replayed row: the checkpoints only this
   * world reaches (the rollout and artifact writes around them are of kinds resume.test.ts kills at).
   */
  function killPoints(): number[] {
    return ['putCall:/repair_edits', 'putRollout:/gate-current'].map((kind) => {
      const [op, suffix] = kind.split(':');
      const at = ref.writeLog.findIndex((w) => w.startsWith(`${op}:`) && w.replace(/^[^:]+:s\d+/, '') === suffix);
      expect(at, `no ${kind} checkpoint in the reference run`).toBeGreaterThanOrEqual(0);
      return at + 1;
    });
  }

  it('resumes from a kill at each new checkpoint with the same outcome', async () => {
    await killAndResumeAt(HARD, ref, killPoints());
  }, 240_000);
});

// Issue #19's checkpoints: the noise probe, spot checks, leave-one-out blame and its pruned
// re-check (the broad world, seed 4), a second repair round (the same without blame), and a
// stochastic target's re-samples. Kills land just after the first checkpoint of each kind.
describe('resume after a kill, with the noise probe, leave-one-out blame and repair rounds', () => {
  let broadSrv: LlmTestServer;
  beforeAll(async () => {
    broadSrv = await startLlmServer({ world: 'broad', repairSlip: 0.35 });
  });
  afterAll(() => broadSrv.close());
  const broad = (config: Partial<World['config']> = {}): World => ({
    server: () => broadSrv,
    config: { ...SMALL_CONFIG, epochs: 2, seed: 4, ...config },
    data: hardWorldDataset(BROAD_WORLD),
    initialSkill: BROAD_WORLD.initialSkill,
  });

  it('resumes from kills at the probe, a spot check, the blame and the pruned re-check with the same outcome', async () => {
    const w = broad();
    const ref = await referenceRun(w);
    await killAndResumeAt(w, ref, pointsAfter(ref.writeLog, ['putRollout:baseline/r1', 'putRollout:/rollout/r1', 'putRollout:/check-blame0', 'putRollout:/check-pruned', 'putArtifact:/repair']));
  }, 240_000);

  it('resumes from a kill at a second repair round with the same outcome', async () => {
    const w = broad({ blameEdits: false, evalTest: false });
    const ref = await referenceRun(w);
    await killAndResumeAt(w, ref, pointsAfter(ref.writeLog, ['putCall:/repair_edits-2', 'putRollout:/check-repaired2']));
  }, 240_000);
});

describe('resume after a kill on a stochastic target', () => {
  // Every session gets its own server: a target's k-th answer to a prompt is the k-th draw.
  const world = (srvOf: () => LlmTestServer): World => ({ server: srvOf, config: { ...SMALL_CONFIG, epochs: 2, seed: 1, evalTest: false }, data: hardWorldDataset(), initialSkill: HARD_INITIAL_SKILL });
  const noisy = () => startLlmServer({ world: 'hard', targetNoise: { miss: 0.1, guess: 0.05 }, noiseSeed: 1 });

  it('replays finished re-samples from storage instead of asking again (the answers would differ)', async () => {
    const a = await noisy();
    const ref = await referenceRun(world(() => a)).finally(() => a.close());
    // After stages whose re-samples are done: no target call is in flight at these writes.
    const points = pointsAfter(ref.writeLog, ['putArtifact:/check', 'putArtifact:/gate']);
    for (const p of points) {
      const b = await noisy();
      await killAndResume(world(() => b), ref, p).finally(() => b.close());
    }
  }, 240_000);
});
