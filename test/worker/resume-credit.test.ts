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
import { HARD_INITIAL_SKILL } from '../support/rule-world';
import { killAndResumeAt, referenceRun, type World } from '../support/resume-harness';

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
