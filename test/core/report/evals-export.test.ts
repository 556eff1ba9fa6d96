// A run's dataset as an Agent Skills evals/evals.json (issue #23 item 2): it reads back through
// the importer to the same questions, answers, rubrics and files, with the split and the lift
// as metadata.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { importDatasetText } from '../../../src/core/dataset/dataset-import';
import { toEvalsFile } from '../../../src/core/report/evals-export';
import { passKOf } from '../../../src/core/verdict/pass-k';
import type { DatasetItem } from '../../../src/core/dataset/dataset-types';

const item = (id: string, patch: Partial<DatasetItem> = {}): DatasetItem => ({ id, question: `Q ${id}?`, answers: [`A-${id}`], fields: {}, ...patch });

describe('evals.json export', () => {
  it('writes each item as an eval and reads back to the same items', () => {
    const items = [
      item('1', { rubric: '- Every field is filled\n- Dates are ISO', fields: { files: ['form.pdf'] } }),
      item('two', { answers: ['Annual report', 'annual report'] }),
      item('3', { context: 'The memo says: ship on Friday.', question: 'When do we ship?' }),
    ];
    const file = toEvalsFile({ skillName: 'PDF Forms!', items, splits: { train: ['1'], val: ['two'], test: ['3'] }, runName: 'Run A' });
    expect(file.skill_name).toBe('pdf-forms');
    expect(file.evals[0]).toEqual({ id: '1', prompt: 'Q 1?', expected_output: 'A-1', files: ['form.pdf'], assertions: ['Every field is filled', 'Dates are ISO'] });
    expect(file.evals[2].prompt).toBe('The memo says: ship on Friday.\n\nWhen do we ship?');
    expect(file.metadata).toMatchObject({ exported_by: 'Skillwright', run: 'Run A', splits: { train: ['1'], val: ['two'], test: ['3'] } });
    const back = importDatasetText(JSON.stringify(file), { ratio: [1, 1, 1] });
    if (!back.ok) throw new Error('the export did not import');
    const byId = new Map(back.dataset.items.map((i) => [i.id, i]));
    expect(byId.get('1')).toMatchObject({ question: 'Q 1?', answers: ['A-1'], rubric: '- Every field is filled\n- Dates are ISO' });
    expect(byId.get('1')?.fields.files).toEqual(['form.pdf']);
    expect(byId.get('two')?.answers).toEqual(['Annual report']); // the first accepted answer is the expected output
  });

  it('carries the lift and the test scores as metadata', () => {
    const lift = { measured: 0.5, estimate: 0.48, interval: [0.3, 0.66] as [number, number], level: 0.95, n: 40, uncertain: false };
    const f = toEvalsFile({ skillName: 'x', items: [item('1')], tests: [{ skill: 'initial', hard: 0.1 }, { skill: 'best', hard: 0.6 }], lift });
    expect(f.metadata.test).toEqual({ initial: 0.1, best: 0.6 });
    expect(f.metadata.lift).toEqual({ estimate: 0.48, interval: [0.3, 0.66], level: 0.95, n: 40, uncertain: false });
    expect(f.metadata.passK).toBeUndefined();
  });

  it('carries each skill’s pass^k and flip rate when the test tried items several times (issue #43)', () => {
    // Two items tried three times: 3 of 3 and 1 of 3 passes — pass^1 4/6, pass^3 (1 + 0) / 2, one item of two flipped.
    const best = passKOf([{ n: 3, passes: 3 }, { n: 3, passes: 1 }], 3)!;
    const f = toEvalsFile({ skillName: 'x', items: [item('1')], tests: [{ skill: 'best', hard: 0.5, passK: best }, { skill: 'none', hard: 0 }] });
    expect(f.metadata.passK).toEqual({ best: { k: 3, passAt1: 4 / 6, passAtK: 0.5, flipRate: 0.5, items: 2, short: 0 } });
  });

  it('round-trips any question, answer and rubric (property)', () => {
    const text = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() === s && s.length > 0);
    fc.assert(
      fc.property(fc.uniqueArray(fc.record({ id: fc.stringMatching(/^[a-z0-9]{1,8}$/), q: text, a: text, rules: fc.array(text.filter((s) => !/^[-*•\d]/.test(s) && !s.includes('\n')), { maxLength: 3 }) }), { selector: (r) => r.id, minLength: 1, maxLength: 8 }), (rows) => {
        const items = rows.map((r) => item(r.id, { question: r.q, answers: [r.a], ...(r.rules.length ? { rubric: r.rules.map((x) => `- ${x}`).join('\n') } : {}) }));
        const back = importDatasetText(JSON.stringify(toEvalsFile({ skillName: 's', items })), { ratio: [1, 1, 1] });
        if (!back.ok) return false;
        const byId = new Map(back.dataset.items.map((i) => [i.id, i]));
        return items.every((i) => {
          const b = byId.get(i.id);
          return b && b.question === i.question && b.answers[0] === i.answers[0] && (b.rubric ?? '') === (i.rubric ?? '');
        });
      }),
      { numRuns: 100 },
    );
  });
});
