/**
 * Rollout templates (DESIGN §3.3): the target's system and user messages, rendered from a
 * template and an item. Placeholders are {{name}}; {{#name}}…{{/name}} renders its body only
 * when the value is non-empty and {{^name}}…{{/name}} only when it is empty. A tag alone on
 * its line takes the line with it. Rendering is one pass, so text that comes from the data
 * (a question containing "{{skill}}") is never expanded.
 */
import type { DatasetItem } from '../dataset/dataset-types';

export interface RolloutTemplate {
  system: string;
  user: string;
}

export type RolloutPresetId = 'qa' | 'mcq' | 'raw';

/** The bundled presets; their text lives in prompts/rollout-<id>.md. */
export const ROLLOUT_PRESETS: readonly {
  id: RolloutPresetId;
  name: string;
  description: string;
  scorer: 'exact' | 'mcq';
}[] = [
  {
    id: 'qa',
    name: 'QA with answer tags',
    description: 'Skill inside a wrapper system prompt; the final answer goes in <answer> tags (SkillOpt plain QA).',
    scorer: 'exact',
  },
  {
    id: 'mcq',
    name: 'Multiple choice',
    description: 'Question and lettered choices; the answer tag holds only the label.',
    scorer: 'mcq',
  },
  {
    id: 'raw',
    name: 'Skill is the system prompt',
    description: 'The skill is the whole system prompt; the user message holds the context and question.',
    scorer: 'exact',
  },
];

/** Context longer than this is cut, keeping whole [DOC] passages (algorithm doc §5.1). */
export const CONTEXT_LIMIT = 6000;
export const TRUNCATION_MARKER = '\n[…context truncated…]';

const SYSTEM_MARK = '<!-- system -->';
const USER_MARK = '<!-- user -->';

/** Read a template file: optional preamble, then `<!-- system -->` and `<!-- user -->` parts. */
export function parseRolloutTemplate(text: string): RolloutTemplate {
  const s = text.indexOf(SYSTEM_MARK);
  const u = text.indexOf(USER_MARK);
  if (s < 0 || u < 0 || u < s)
    throw new Error('a rollout template needs a "<!-- system -->" part followed by a "<!-- user -->" part');
  return { system: text.slice(s + SYSTEM_MARK.length, u).trim(), user: text.slice(u + USER_MARK.length).trim() };
}

/** Keep whole passages (split on [DOC]) while the text stays within the limit. */
export function truncateContext(context: string, limit = CONTEXT_LIMIT): string {
  if (context.length <= limit) return context;
  const passages = context.split('[DOC]');
  let out = '';
  for (let i = 0; i < passages.length; i++) {
    const next = i === 0 ? passages[0] : `${out}[DOC]${passages[i]}`;
    if (next.length > limit) break;
    out = next;
  }
  return out.trim() ? out.trimEnd() + TRUNCATION_MARKER : context.slice(0, limit) + TRUNCATION_MARKER;
}

/** The values a template can use for an item. */
export function templateValues(skill: string, item: DatasetItem, contextLimit = CONTEXT_LIMIT): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(item.fields)) {
    if (v === undefined || v === null) continue;
    values[k] = typeof v === 'string' ? v : JSON.stringify(v);
  }
  Object.assign(values, {
    id: item.id,
    skill: skill.trim(),
    question: item.question,
    context: item.context !== undefined ? truncateContext(item.context, contextLimit) : '',
    choices: (item.choices ?? []).map((c) => `${c.label}. ${c.text}`).join('\n'),
    task_type: item.taskType ?? '',
    rubric: item.rubric ?? '',
  });
  return values;
}

type Token = { kind: 'text'; text: string } | { kind: 'var' | 'open' | 'inverse' | 'close'; name: string };

function tokenize(template: string): Token[] {
  const tokens: Token[] = [];
  const re = /\{\{\s*([#^/]?)\s*([\w.-]+)\s*\}\}/g;
  let last = 0;
  for (const m of template.matchAll(re)) {
    let start = m.index;
    let end = start + m[0].length;
    const sigil = m[1];
    if (sigil) {
      // Standalone section tag: drop its line's indentation and newline.
      const lineStart = template.lastIndexOf('\n', start - 1) + 1;
      const nl = template.indexOf('\n', end);
      const lineEnd = nl < 0 ? template.length : nl;
      if (!template.slice(lineStart, start).trim() && !template.slice(end, lineEnd).trim() && lineStart >= last) {
        start = lineStart;
        end = nl < 0 ? lineEnd : nl + 1;
      }
    }
    if (start > last) tokens.push({ kind: 'text', text: template.slice(last, start) });
    const kind = sigil === '#' ? 'open' : sigil === '^' ? 'inverse' : sigil === '/' ? 'close' : 'var';
    tokens.push({ kind, name: m[2] });
    last = end;
  }
  if (last < template.length) tokens.push({ kind: 'text', text: template.slice(last) });
  return tokens;
}

/** Render a template string with values; unknown names render empty. */
export function renderTemplate(template: string, values: Readonly<Record<string, string>>): string {
  const out: string[] = [];
  const stack: { name: string; show: boolean }[] = [];
  const visible = () => stack.every((s) => s.show);
  for (const t of tokenize(template)) {
    if (t.kind === 'text') {
      if (visible()) out.push(t.text);
    } else if (t.kind === 'var') {
      if (visible()) out.push(values[t.name] ?? '');
    } else if (t.kind === 'open' || t.kind === 'inverse') {
      const has = (values[t.name] ?? '').trim() !== '';
      stack.push({ name: t.name, show: t.kind === 'open' ? has : !has });
    } else {
      const i = stack.map((s) => s.name).lastIndexOf(t.name);
      if (i >= 0) stack.splice(i);
    }
  }
  return out.join('');
}

/** Placeholder names a template uses (for checking them against the dataset's fields). */
export function templateNames(template: RolloutTemplate): string[] {
  const names = new Set<string>();
  for (const part of [template.system, template.user]) {
    for (const t of tokenize(part)) if (t.kind !== 'text') names.add(t.name);
  }
  return [...names];
}

/** Names a template uses that neither the built-ins nor the dataset's fields provide. */
export function unknownTemplateNames(template: RolloutTemplate, fieldNames: readonly string[]): string[] {
  const known = new Set(['id', 'skill', 'question', 'context', 'choices', 'task_type', 'rubric', ...fieldNames]);
  return templateNames(template).filter((n) => !known.has(n));
}

export interface RenderedMessages {
  system: string;
  user: string;
}

export function renderRollout(
  template: RolloutTemplate,
  skill: string,
  item: DatasetItem,
  contextLimit = CONTEXT_LIMIT,
): RenderedMessages {
  const values = templateValues(skill, item, contextLimit);
  return { system: renderTemplate(template.system, values).trim(), user: renderTemplate(template.user, values).trim() };
}
