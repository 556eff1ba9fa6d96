import { describe, expect, it } from 'vitest';
import { readStepArtifacts, rebuildCandidate } from '../../src/engine/artifacts';
import { epochKey, stepKey } from '../../src/engine/keys';
import type { ArtifactRecord } from '../../src/engine/types';

const rec = (key: string, value: unknown): ArtifactRecord => ({ runId: 'r', key, value });

describe('step artifacts', () => {
  it('keys steps and epoch boundaries with fixed widths', () => {
    expect(stepKey(7)).toBe('s0007');
    expect(stepKey(1234)).toBe('s1234');
    expect(epochKey(2)).toBe('e02');
  });

  it("reads one step's artifacts by name, ignoring other steps and unknown names", () => {
    const records = [
      rec('s0001/merged', { reasoning: 'one', edits: [] }),
      rec('s0010/merged', { reasoning: 'ten', edits: [] }),
      rec('s0001/gate', { action: 'accept' }),
      rec('s0001/reflect_failure/0', { not: 'an artifact' }),
      rec('e01/pairs', []),
    ];
    const a = readStepArtifacts(1, records);
    expect(a.merged?.reasoning).toBe('one');
    expect(a.gate?.action).toBe('accept');
    expect(Object.keys(a).sort()).toEqual(['gate', 'merged']);
  });

  it('rebuilds a rejected candidate from the bundle it applied (repaired edits first, else the ranked ones)', () => {
    const before = '# Skill\n\n- Rule one.\n';
    const ranked = { reasoning: '', edits: [{ op: 'append' as const, content: '- Ranked rule.' }] };
    const report = [{ index: 0, op: 'append', status: 'applied' }] as never;
    expect(rebuildCandidate(before, { ranked, apply_report: report })).toContain('- Ranked rule.');
    const repaired = rebuildCandidate(before, { ranked, apply_report: report, candidate_edits: [{ op: 'append', content: '- Repaired rule.' }] });
    expect(repaired).toContain('- Repaired rule.');
    expect(repaired).not.toContain('- Ranked rule.');
    // Nothing was applied (no report): there was no candidate.
    expect(rebuildCandidate(before, { ranked })).toBeNull();
  });
});
