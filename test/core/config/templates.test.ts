import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  ROLLOUT_PRESETS,
  TRUNCATION_MARKER,
  parseRolloutTemplate,
  renderRollout,
  renderTemplate,
  truncateContext,
  unknownTemplateNames,
} from '../../../src/core/config/templates';
import type { DatasetItem } from '../../../src/core/dataset/dataset-types';

const preset = (id: string) => parseRolloutTemplate(readFileSync(new URL(`../../../prompts/rollout-${id}.md`, import.meta.url), 'utf8'));

const item: DatasetItem = {
  id: 'q1',
  question: 'What is the capital of France?',
  answers: ['Paris'],
  context: 'France is a country. [DOC] Paris is its capital.',
  fields: { id: 'q1', question: 'What is the capital of France?', answer: 'Paris', source: 'atlas', year: 2024 },
};

describe('renderTemplate', () => {
  it.each([
    ['{{a}} and {{ b }}', { a: '1', b: '2' }, '1 and 2'],
    ['x{{#a}}[{{a}}]{{/a}}y', { a: 'v' }, 'x[v]y'],
    ['x{{#a}}[{{a}}]{{/a}}y', { a: '  ' }, 'xy'],
    ['{{^a}}none{{/a}}', { a: '' }, 'none'],
    ['{{missing}}!', {}, '!'],
    ['a\n{{#s}}\nS={{s}}\n{{/s}}\nb', { s: 'k' }, 'a\nS=k\nb'],
    ['a\n{{#s}}\nS={{s}}\n{{/s}}\nb', { s: '' }, 'a\nb'],
  ])('%j', (tpl, values, expected) => {
    expect(renderTemplate(tpl, values)).toBe(expected);
  });
  it('never expands placeholders that come from the data', () => {
    expect(renderTemplate('Q: {{question}}', { question: 'what is {{skill}} $& $1?', skill: 'SECRET' })).toBe('Q: what is {{skill}} $& $1?');
  });
});

describe('presets', () => {
  it('every preset file parses', () => {
    for (const p of ROLLOUT_PRESETS) expect(preset(p.id).system.length + preset(p.id).user.length).toBeGreaterThan(10);
  });

  it('QA: the skill sits in a "## Skill" slot of the system prompt, the answer goes in tags', () => {
    const m = renderRollout(preset('qa'), '  # Rules\n- Be exact.\n\n', item);
    expect(m.system).toContain('## Skill\n# Rules\n- Be exact.\n\n## Task format');
    expect(m.system).toContain('<answer></answer>');
    expect(m.user).toBe('## Context\nFrance is a country. [DOC] Paris is its capital.\n\n## Question\nWhat is the capital of France?');
  });

  it('QA: an empty skill leaves no empty slot; no context leaves no context heading', () => {
    const m = renderRollout(preset('qa'), '', { ...item, context: undefined });
    expect(m.system).not.toContain('## Skill');
    expect(m.system).toContain('## Task format');
    expect(m.user).toBe('## Question\nWhat is the capital of France?');
  });

  it('multiple choice lists lettered choices', () => {
    const m = renderRollout(preset('mcq'), 'Pick carefully.', {
      ...item,
      context: undefined,
      choices: [{ label: 'A', text: 'Lyon' }, { label: 'B', text: 'Paris' }],
    });
    expect(m.user).toBe('## Question\nWhat is the capital of France?\n\n## Choices\nA. Lyon\nB. Paris');
  });

  it('raw: the skill is the whole system prompt', () => {
    const m = renderRollout(preset('raw'), '# My skill\n', item);
    expect(m.system).toBe('# My skill');
    expect(m.user).toMatch(/^Context:\n.*\n\nQuestion: What is the capital of France\?$/s);
  });

  it('custom templates can use any item field', () => {
    const m = renderRollout({ system: '{{skill}}', user: '{{question}} ({{source}}, {{year}})' }, 's', item);
    expect(m.user).toBe('What is the capital of France? (atlas, 2024)');
    expect(unknownTemplateNames({ system: '{{skill}}', user: '{{source}} {{nope}}' }, ['source'])).toEqual(['nope']);
  });

  it('refuses a template without both parts', () => {
    expect(() => parseRolloutTemplate('no markers')).toThrow(/system/);
  });
});

describe('truncateContext', () => {
  it('keeps whole passages within the limit', () => {
    const ctx = ['a'.repeat(30), 'b'.repeat(30), 'c'.repeat(30)].join('[DOC]');
    expect(truncateContext(ctx, 70)).toBe(`${'a'.repeat(30)}[DOC]${'b'.repeat(30)}${TRUNCATION_MARKER}`);
    expect(truncateContext(ctx, 1000)).toBe(ctx);
  });
  it('hard-cuts when not even one passage fits', () => {
    expect(truncateContext('x'.repeat(100), 10)).toBe('x'.repeat(10) + TRUNCATION_MARKER);
  });
});
