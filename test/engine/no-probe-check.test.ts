// A run that skips the noise probe (noiseProbe 0) starts with no repeat at all, so no noise
// estimate: its first train check must still see a clear gain. Read as an estimate of ½, every
// answer said nothing — the screen passed nothing on, drew no repeat, and so the run never learnt
// its noise (the noisier world's seeds 1–3 locked at 0.75 after one accept).
import { describe, expect, it } from 'vitest';
import { sharedLlmServer } from '../support/shared-server';
import { idsOfTopic, stepContext } from '../support/step-context';
import { INITIAL_SKILL, worldDataset } from '../support/harness';
import { rolloutPhase } from '../../src/engine/rollout';
import { checkOnTrain } from '../../src/engine/step/credit-check';
import { NO_FLIPS, noisePolicy } from '../../src/core/verdict/noise';
import { policyOf } from '../../src/engine/noise-ledger';
import { SMALL_CONFIG } from '../support/harness';
import { ruleText, TOPICS } from '../../src/core/simulators/demo-world';

const server = sharedLlmServer();
const data = worldDataset(200);

describe('a train check before any repeat (noiseProbe 0)', () => {
  it('the run state of a run with no probe holds no repeat: its policy has an empty tally', () => {
    const p = policyOf({ ...SMALL_CONFIG, settleVerdicts: true }, { flips: {} });
    expect(p.flips).toEqual({ minority: 0, samples: 0 });
    expect(p.repeats).toEqual([]);
  });

  it('sees a rule that fixes the four items the current skill fails as better', async () => {
    // The current skill passes twelve of sixteen: read as answers that say nothing, its items'
    // prior alone leaves "better" short of the screen's lead, as at every step after a first accept.
    const gained = idsOfTopic(data, 0, 4);
    const kept = idsOfTopic(data, 2, 12);
    const ids = [...gained, ...kept];
    const ctx = await stepContext(server().url, 'no-probe-check', data);
    const ref = `${INITIAL_SKILL}\n${ruleText(TOPICS[2])}\n`;
    const cand = `${INITIAL_SKILL}\n${ruleText(TOPICS[0])}\n${ruleText(TOPICS[2])}\n`;
    const base = await rolloutPhase(ctx, { phase: 'rollout', skill: ref, itemIds: ids });
    const policy = noisePolicy(NO_FLIPS, 3, []);
    const check = await checkOnTrain(ctx, 'check', base.rows, ref, cand, { policy });
    expect(check.improved).toBe(true);
  }, 60_000);
});
