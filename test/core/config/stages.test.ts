// Issue #10 item 5: one stage vocabulary. The meter bills, the estimate counts and the screens
// label by the same call stages (core/config/stages.ts); each belongs to one pipeline stage.
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { CALL_STAGES, ITEM_ROLLOUT_STAGES, OPTIMIZER_STAGES, PIPELINE_LABELS, PIPELINE_STAGES, STEP_STAGES, TARGET_STAGES, callStageLabel, callStageOfPhase, callStageOfPrompt } from '../../../src/core/config/stages';
import { emptyCounts } from '../../../src/core/config/call-count';

describe('stages', () => {
  it('one list of call stages: target and optimizer stages, counts and labels agree', () => {
    expect(new Set([...TARGET_STAGES, ...OPTIMIZER_STAGES])).toEqual(new Set(Object.keys(CALL_STAGES)));
    expect(TARGET_STAGES.filter((s) => OPTIMIZER_STAGES.includes(s))).toEqual([]);
    // The rollouts of dataset items are the target's stages but the activation track's (D3: one list, not two),
    // and the section credit's, whose budget counts its judge's and simulated user's calls already.
    expect(TARGET_STAGES.filter((s) => !ITEM_ROLLOUT_STAGES.includes(s))).toEqual(['activationRollout', 'sectionCredit']);
    expect(Object.keys(emptyCounts()).sort()).toEqual(Object.keys(CALL_STAGES).sort());
    for (const [stage, { pipeline, label }] of Object.entries(CALL_STAGES)) {
      expect(PIPELINE_STAGES).toContain(pipeline);
      expect(callStageLabel(stage)).toBe(label);
    }
    expect(STEP_STAGES.every((s) => PIPELINE_LABELS[s])).toBe(true);
    expect(callStageLabel('analyst')).toBe('analyst'); // an older run's key is shown as it is
  });

  it('names the call stage of every rollout phase the engine writes', () => {
    const cases: [string, string][] = [
      ['baseline', 'baseline'], ['final', 'finalValidation'], ['test/best', 'test'], ['s0003/rollout', 'rollout'], ['s0003/rollout/b1', 'rollout'],
      ['s0003/gate', 'gate'], ['s0003/gate-current', 'gate'], ['s0003/check', 'trainCheck'], ['s0003/check-repaired', 'trainCheck'],
      ['e02/prev', 'slowUpdateRollout'], ['e02/curr', 'slowUpdateRollout'], ['e02/gate', 'slowUpdateGate'], ['e02/gate-current', 'slowUpdateGate'], ['e02/measure', 'slowUpdateGate'],
      ['credit/mask_003', 'sectionCredit'], ['credit/mask_003/r1', 'sectionCredit'],
    ];
    for (const [phase, stage] of cases) expect([phase, callStageOfPhase(phase)]).toEqual([phase, stage]);
  });

  it('names the call stage of every optimizer prompt shipped, and refuses an unknown one', () => {
    const called = readdirSync('prompts').map((f) => f.replace(/\.md$/, '')).filter((p) => !p.startsWith('rollout-') && p !== 'step_buffer' && p !== 'meta_block');
    for (const p of called) expect(OPTIMIZER_STAGES).toContain(callStageOfPrompt(p));
    expect(() => callStageOfPrompt('brand_new_prompt')).toThrow(/core\/config\/stages\.ts/);
  });

});
