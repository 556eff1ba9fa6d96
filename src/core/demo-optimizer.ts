/**
 * The simulated optimizer of the rule world (core/demo-world.ts), behind the test LLM server
 * and the in-page demo: it reads the failures in its prompt and proposes rules, merges, ranks
 * and writes the epoch guidance like a careful model would. A simulation, never a real model.
 */
import { HARMFUL_KEY, HARMFUL_RULE, questionsIn, ruleKey, ruleText } from './demo-world';

/** The stages our prompts announce, matched when no json_schema name is sent. */
const STAGE_MARKERS: [string, string][] = [
  ['failure analyst', 'reflect_failure'],
  ['success analyst', 'reflect_success'],
  ['combining failure-driven patches', 'merge_failure'],
  ['combining success-driven patches', 'merge_success'],
  ['final merger', 'merge_final'],
  ['edit ranker', 'rank_edits'],
  ['bundle repairer', 'repair_edits'],
  ['step-size controller', 'lr_decision'],
  ['epoch reviewer', 'slow_update'],
  ['coach of a skill optimizer', 'meta_skill'],
  ['strict grader', 'judge'],
  ['feedback editor', 'feedback_edits'],
];

export interface ChatBody {
  model?: string;
  max_tokens?: number;
  temperature?: number;
  messages?: { role: string; content: string }[];
  stream?: boolean;
  response_format?: { type: string; json_schema?: { name?: string } };
}

/** The stage a request is for: its json_schema name, else a marker in its system prompt, else the target. */
export function stageOf(body: ChatBody): string {
  const named = body.response_format?.json_schema?.name;
  if (named) return named;
  const system = body.messages?.find((m) => m.role === 'system')?.content ?? '';
  for (const [marker, stage] of STAGE_MARKERS) if (system.includes(marker)) return stage;
  return 'target';
}

/** The text under a `## ` heading, up to the next `## ` heading. */
export function section(text: string, heading: string): string {
  const i = text.indexOf(heading);
  if (i < 0) return '';
  const rest = text.slice(i + heading.length);
  const next = rest.search(/\n## /);
  return next < 0 ? rest : rest.slice(0, next);
}

/** Everything after a heading (trajectories contain "## " headings of their own). */
export function after(text: string, heading: string): string {
  const i = text.indexOf(heading);
  return i < 0 ? '' : text.slice(i + heading.length);
}

/** The JSON array that follows a heading and runs to the end of the message. */
export function jsonArrayAfter(text: string, heading: string): unknown[] {
  const i = text.indexOf(heading);
  if (i < 0) return [];
  const start = text.indexOf('[', i);
  if (start < 0) return [];
  const end = text.lastIndexOf(']');
  try {
    const v = JSON.parse(text.slice(start, end + 1));
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

export type SimEdit = { op: string; target?: string; content: string; support_count?: number; source_type?: string; merge_level?: number };

/** Merge equal edits (same op, target and content), summing their support, first one's place kept. */
export function dedupeEdits(edits: readonly SimEdit[]): SimEdit[] {
  const byKey = new Map<string, SimEdit>();
  for (const e of edits) {
    const key = `${e.op}\u0000${e.target ?? ''}\u0000${e.content}`;
    const prev = byKey.get(key);
    if (prev) prev.support_count = (prev.support_count ?? 1) + (e.support_count ?? 1);
    else byKey.set(key, { ...e, support_count: e.support_count ?? 1 });
  }
  return [...byKey.values()];
}


export interface SimulationOptions {
  /** Share of failure analyses that slip the harmful rule in. */
  harmfulRate: number;
  /** A stable number in [0, 1) from a text: the simulation's "randomness". */
  fraction: (text: string) => number;
}

/** The simulated optimizer's answer (a JSON value) for one stage of the loop. */
export function simulatedOptimizerAnswer(stage: string, user: string, opts: SimulationOptions): unknown {
  const skill = section(user, '## Current Skill');
  const budgetMatch = /L=(\d+)/.exec(user);
  const budget = budgetMatch ? Number(budgetMatch[1]) : 4;
  switch (stage) {
    case 'reflect_failure': {
      const failed = after(user, '## Failed Trajectories');
      const missing: string[] = [];
      for (const q of questionsIn(failed)) for (const t of q.topics) if (!skill.includes(ruleKey(t)) && !missing.includes(t)) missing.push(t);
      const edits: SimEdit[] = missing.slice(0, budget).map((t) => ({ op: 'append', content: ruleText(t), support_count: 1, source_type: 'failure' }));
      // Answers of "none" trace back to the harmful rule: an analyst would remove it.
      if (skill.includes(HARMFUL_RULE) && /<answer>none<\/answer>/.test(failed)) edits.unshift({ op: 'delete', target: HARMFUL_RULE, content: '', support_count: 1, source_type: 'failure' });
      // Like a careful analyst, it does not propose again what the buffer says was rejected.
      const rejectedBefore = section(user, '## Previous Steps in This Epoch').includes(HARMFUL_KEY);
      if (opts.fraction(user) < opts.harmfulRate && !skill.includes(HARMFUL_KEY) && !rejectedBefore) {
        edits.splice(Math.max(0, budget - 1), edits.length, { op: 'append', content: HARMFUL_RULE, support_count: 1, source_type: 'failure' });
      }
      return {
        batch_size: questionsIn(failed).length,
        failure_summary: missing.length ? [{ failure_type: 'rule_missing', count: missing.length, description: `no rule for ${missing.join(', ')}` }] : [],
        patch: { reasoning: `The skill has no rule for ${missing.join(', ') || 'nothing'}.`, edits: edits.slice(0, budget) },
      };
    }
    case 'reflect_success': {
      const ok = after(user, '## Successful Trajectories');
      const n = questionsIn(ok).length;
      const note = '- Give only the code, with no extra words.';
      const edits = n >= 2 && !skill.includes(note) ? [{ op: 'append', content: note, support_count: n, source_type: 'success' }] : [];
      return { batch_size: n, success_patterns: edits.length ? ['answers were bare codes'] : [], patch: { reasoning: 'reinforce the answer form', edits } };
    }
    case 'merge_failure':
    case 'merge_success': {
      const patches = jsonArrayAfter(user, '## Patches to merge') as { edits?: SimEdit[] }[];
      const edits = dedupeEdits(patches.flatMap((p) => p.edits ?? [])).sort((a, b) => (b.support_count ?? 0) - (a.support_count ?? 0));
      return { reasoning: `merged ${patches.length} patches`, edits };
    }
    case 'merge_final': {
      const groups = jsonArrayAfter(user, '## Two pre-merged groups') as { edits?: SimEdit[] }[];
      return { reasoning: 'failure edits first', edits: dedupeEdits(groups.flatMap((g) => g.edits ?? [])) };
    }
    case 'rank_edits': {
      const m = /budget=(\d+)/.exec(user);
      const k = m ? Number(m[1]) : 1;
      const count = Number(/\((\d+) edits, budget/.exec(user)?.[1] ?? k);
      return { reasoning: 'most supported first', selected_indices: Array.from({ length: Math.min(k, count) }, (_, i) => i) };
    }
    case 'lr_decision': {
      const count = Number(/proposed_update_items: (\d+)/.exec(user)?.[1] ?? 1);
      return { learning_rate: Math.max(1, Math.ceil(count / 2)), reasoning: 'half of the proposals', confidence: 'medium', risk_notes: [] };
    }
    case 'slow_update': {
      const comparison = after(user, '## Same tasks, before and after');
      const persistent = after(comparison, '### Persistent failures').split('### Improved')[0] || comparison;
      const curr = section(user, '## Skill at the end of this epoch');
      const topics: string[] = [];
      for (const q of questionsIn(persistent)) for (const t of q.topics) if (!curr.includes(ruleKey(t)) && !topics.includes(t)) topics.push(t);
      const content = topics.length ? topics.slice(0, 3).map(ruleText).join('\n') : '- Check every specimen question against the rules above before answering.';
      return { reasoning: `persistent failures on ${topics.join(', ') || 'nothing'}`, slow_update_content: content };
    }
    case 'meta_skill':
      return { reasoning: 'rules per topic helped; blanket rules hurt', meta_skill_content: 'Prefer one precise rule per topic. Avoid blanket answer rules such as answering with a fixed word.' };
    case 'judge': {
      const expected = section(user, '## Expected answer').trim();
      const response = after(user, '## Response to grade');
      const got = /<answer>([\s\S]*?)<\/answer>/i.exec(response)?.[1]?.trim() ?? response.trim();
      const pass = got.toLowerCase() === expected.toLowerCase();
      return { pass, score: pass ? 1 : 0, reason: pass ? 'matches' : `expected ${expected} but got ${got}` };
    }
    case 'feedback_edits': {
      // Each "- " line of the feedback that the skill does not state yet becomes a rule.
      const feedback = section(user, '## Feedback');
      const lines = feedback.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('- ') && !skill.includes(l));
      return { reasoning: lines.length ? 'adds the rules the feedback asks for' : 'the skill already says this', edits: lines.slice(0, budget).map((content) => ({ op: 'append', target: '', content, support_count: 1, source_type: 'failure' })) };
    }
    default:
      return { reasoning: `unknown stage ${stage}` };
  }
}
