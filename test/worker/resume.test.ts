// Resume determinism (issue #4): a run killed anywhere — after any stage, in the middle of a
// rollout wave — resumes from its last checkpoint and ends with exactly the skills, gate
// decisions and scores of an uninterrupted run, without repeating finished calls.
// `vitest -t resume` selects these tests.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { SMALL_CONFIG, INITIAL_SKILL, worldDataset } from '../support/harness';
import { fingerprint, freshDb, killable, killAndResumeAt, referenceRun, session, type World } from '../support/resume-harness';
import { IdbRunStore } from '../../src/storage/idb-run-store';

let srv: LlmTestServer;
beforeAll(async () => {
  srv = await startLlmServer();
});
afterAll(() => srv.close());

// A small world keeps each kill-and-resume cheap: 24 train (2 steps per epoch), 12 validation, 24 test items.
const EASY: World = { server: () => srv, config: { ...SMALL_CONFIG, epochs: 2 }, data: worldDataset(60), initialSkill: INITIAL_SKILL };

describe('resume after a kill', () => {
  let ref: Awaited<ReturnType<typeof referenceRun>>;

  beforeAll(async () => {
    ref = await referenceRun(EASY);
  });

  /** Kill points: the first write of each kind of checkpoint, and the middle of rollout waves. */
  function killPoints(): number[] {
    const points = new Set<number>();
    const seen = new Set<string>();
    ref.writeLog.forEach((w, i) => {
      const kind = `${w.split(':')[0]}:${(w.split(':')[1] ?? '').replace(/\d+/g, '#')}`;
      if (!seen.has(kind)) {
        seen.add(kind);
        points.add(i + 1); // just after this kind's first checkpoint
      }
    });
    // Mid-wave: inside the rollout phases of steps 1 and 3, the baseline, and the test evaluation.
    for (const phase of ['putRollout:baseline', 'putRollout:s0001/rollout', 'putRollout:s0003/gate', 'putRollout:test/best']) {
      const at = ref.writeLog.findIndex((w) => w === phase);
      if (at >= 0) points.add(at + 3);
    }
    return [...points].filter((p) => p < ref.writeLog.length).sort((a, b) => a - b);
  }

  it('resumes from kills at every kind of checkpoint with the same outcome', async () => {
    const points = killPoints();
    expect(points.length).toBeGreaterThanOrEqual(15);
    // Issue #8's checkpoints of every step are among the kinds killed at.
    for (const kind of ['putArtifact:/screened', 'putRollout:/check', 'putArtifact:/candidate_edits']) {
      expect(ref.writeLog.some((w) => `${w.split(':')[0]}:${w.replace(/^[^:]+:s\d+/, '')}` === kind), kind).toBe(true);
    }
    await killAndResumeAt(EASY, ref, points);
  }, 240_000);

  it('resumes twice in a row (killed again during the resumed session)', async () => {
    const db = await freshDb(EASY);
    const c = new AbortController();
    const first = killable(new IdbRunStore(db), 40, () => c.abort('kill'));
    await expect(session(EASY, first, c)).rejects.toThrow('killed');
    await first.settled();
    const c2 = new AbortController();
    const second = killable(new IdbRunStore(db), 60, () => c2.abort('kill'));
    await expect(session(EASY, second, c2)).rejects.toThrow('killed');
    await second.settled();
    expect((await session(EASY, new IdbRunStore(db))).status).toBe('completed');
    expect(await fingerprint(db)).toEqual(ref.reference);
  }, 60_000);
});
