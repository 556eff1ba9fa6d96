// Run diagnostics (issue #11): why a run accepted no step, with the evidence.
import { describe, expect, it } from 'vitest';
import { diagnoseNoProgress, stepCause, type StepFacts } from '../../../src/core/verdict/diagnostics';

const step = (p: Partial<StepFacts> = {}): StepFacts => ({
  step: 1, action: 'reject', rolloutN: 20, rolloutErrors: 0, rolloutHard: 0.5, patches: 3, merged: 4, applied: 4,
  candidateScore: 0.5, currentScore: 0.5, complete: true, skippedByCheck: false, refusedByRule: false, ...p,
});

describe('diagnostics: the cause of each unaccepted step', () => {
  it('names errors, empty analysts, nothing to learn, dropped edits, the train check, the gate rule, ties and losses', () => {
    expect(stepCause(step({ rolloutErrors: 10 }))).toBe('errors');
    expect(stepCause(step({ action: 'skip_no_patches', rolloutHard: 1 }))).toBe('no_failures');
    expect(stepCause(step({ action: 'skip_no_patches', rolloutHard: 0.4 }))).toBe('no_patches');
    expect(stepCause(step({ merged: 0 }))).toBe('no_edits_applied');
    expect(stepCause(step({ applied: 0 }))).toBe('no_edits_applied');
    expect(stepCause(step({ skippedByCheck: true, candidateScore: null }))).toBe('train_check');
    expect(stepCause(step({ refusedByRule: true, candidateScore: 0.7 }))).toBe('gate_rule');
    expect(stepCause(step())).toBe('ties');
    expect(stepCause(step({ candidateScore: 0.4 }))).toBe('worse');
    // Stopped early with an upper bound equal to the current score: it could not win, not a tie.
    expect(stepCause(step({ complete: false }))).toBe('worse');
  });
});

describe('diagnostics: the run', () => {
  it('says nothing when a step was accepted', () => {
    expect(diagnoseNoProgress([step()], { accepts: 1, baseline: 0.5 })).toBeNull();
  });

  it('leads with the most frequent cause, with its steps, figures and advice', () => {
    const d = diagnoseNoProgress([step({ step: 1 }), step({ step: 2, candidateScore: 0.3 }), step({ step: 3 }), step({ step: 4, action: 'skip_no_patches', rolloutHard: 0.2, patches: 0 })], { accepts: 0, baseline: 0.5 })!;
    expect(d.causes.map((c) => [c.cause, c.steps])).toEqual([['ties', [1, 3]], ['no_patches', [4]], ['worse', [2]]]);
    expect(d.headline).toBe('No step was accepted. In 2 steps, the candidate scored exactly the current skill on validation (0.500): the gate needs a strictly higher score.');
    expect(d.causes.find((c) => c.cause === 'worse')!.evidence).toMatch(/by up to 20\.0 points/);
    expect(d.causes[0].advice).toMatch(/tie-break/);
  });

  it('puts a perfect starting skill first', () => {
    const d = diagnoseNoProgress([step({ action: 'skip_no_patches', rolloutHard: 1, patches: 0 })], { accepts: 0, baseline: 1 })!;
    expect(d.causes.map((c) => c.cause)).toEqual(['already_perfect', 'no_failures']);
    expect(d.headline).toMatch(/already scored 100\.0% on validation/);
  });

  it('explains a run without steps', () => {
    expect(diagnoseNoProgress([], { accepts: 0, baseline: 0.2 })!.headline).toMatch(/no update steps/);
  });
});
