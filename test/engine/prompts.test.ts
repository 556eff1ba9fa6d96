// Issue #8: a model may echo a template, so no optimizer prompt holds a literal example edit
// (an object with an "op" key, or an op written as "append|insert_after|replace|delete").
import { describe, expect, it } from 'vitest';
import { promptFiles } from '../support/prompts';
import { PROMPT_NAMES } from '../../src/engine/prompts';

describe('optimizer prompts without echo-able examples', () => {
  const files = promptFiles();
  it.each(Object.keys(files).filter((n) => !n.startsWith('rollout')))('%s holds no literal example edit', (name) => {
    const text = files[name];
    expect(text).not.toMatch(/\{\s*"op"\s*:/);
    expect(text).not.toMatch(/append\s*\|\s*insert_after/);
    expect(text).not.toMatch(/"content"\s*:\s*"\.\.\."/);
  });

  it('every prompt the engine names is on disk, the bundle repairer included', () => {
    for (const name of PROMPT_NAMES) expect(Object.keys(files)).toContain(name);
    expect(files.repair_edits).toMatch(/bundle repairer/);
    expect(files.rank_edits).toMatch(/carried/);
  });
});
